#include "minitf/train/saver/meta_graph.h"

#include <algorithm>
#include <any>
#include <fstream>
#include <set>
#include <sstream>

#include "minitf/graph/graph_def.h"
#include "minitf/graph/proto_convert.h"
#include "minitf/graph/scope.h"
#include "minitf/tensor/errors.h"
#include "minitf/train/saver/saver.h"
#include "minitf/train/variables.h"

namespace minitf::train {
namespace {

// The NodeDef input that reads output 0 of `t`'s node: "weight".
std::string InputName(const Output& t) { return t.op().name(); }

void SetType(NodeDef* node, const std::string& attr, proto::DataType type) {
  (*node->mutable_attr())[attr].set_type(type);
}

void SetScalarShape(NodeDef* node) {
  (*node->mutable_attr())["shape"].mutable_shape();
}

// A Const of strings: a scalar when `values` is one and `vector` is false.
NodeDef* StringConst(GraphDef* gd, const std::string& name,
                     const std::vector<std::string>& values, bool vector) {
  NodeDef* node = gd->add_node();
  node->set_name(name);
  node->set_op("Const");
  SetType(node, "dtype", proto::DT_STRING);
  proto::TensorProto* t = (*node->mutable_attr())["value"].mutable_tensor();
  t->set_dtype(proto::DT_STRING);
  proto::TensorShapeProto* shape = t->mutable_tensor_shape();
  if (vector) shape->add_dim()->set_size(static_cast<int64_t>(values.size()));
  for (const std::string& v : values) t->add_string_val(v);
  return node;
}

NodeDef* Node(GraphDef* gd, const std::string& name, const std::string& op,
              const std::vector<std::string>& inputs) {
  NodeDef* node = gd->add_node();
  node->set_name(name);
  node->set_op(op);
  for (const std::string& in : inputs) node->add_input(in);
  return node;
}

// TensorFlow's save and restore ops for `vars`, under the scope `s` ("save/"),
// as tf.compat.v1.train.Saver builds them (the variables sorted by name).
void AddTensorFlowSaveNodes(std::vector<Variable> vars, const std::string& s,
                            GraphDef* gd) {
  std::sort(vars.begin(), vars.end(), [](const Variable& a, const Variable& b) {
    return a.op().name() < b.op().name();
  });
  std::vector<std::string> names;
  proto::AttrValue dtypes;
  for (const Variable& v : vars) {
    names.push_back(v.op().name());
    dtypes.mutable_list()->add_type(DTypeToProto(v.dtype()));
  }
  const std::vector<std::string> slices(vars.size(), "");
  StringConst(gd, s + "filename/input", {"model"}, false);
  for (const auto& [name, input] :
       {std::pair{"filename", "filename/input"}, {"Const", "filename"}}) {
    NodeDef* n = Node(gd, s + name, "PlaceholderWithDefault", {s + input});
    SetType(n, "dtype", proto::DT_STRING);
    SetScalarShape(n);
  }
  StringConst(gd, s + "SaveV2/tensor_names", names, true);
  StringConst(gd, s + "SaveV2/shape_and_slices", slices, true);
  std::vector<std::string> save_inputs = {
      s + "Const", s + "SaveV2/tensor_names", s + "SaveV2/shape_and_slices"};
  for (const Variable& v : vars) save_inputs.push_back(InputName(v.ref()));
  (*Node(gd, s + "SaveV2", "SaveV2", save_inputs)->mutable_attr())["dtypes"] =
      dtypes;
  SetType(Node(gd, s + "control_dependency", "Identity",
               {s + "Const", "^" + s + "SaveV2"}),
          "T", proto::DT_STRING);
  StringConst(gd, s + "RestoreV2/tensor_names", names, true);
  StringConst(gd, s + "RestoreV2/shape_and_slices", slices, true);
  NodeDef* restore = Node(gd, s + "RestoreV2", "RestoreV2",
                          {s + "Const", s + "RestoreV2/tensor_names",
                           s + "RestoreV2/shape_and_slices"});
  restore->set_device("/device:CPU:0");
  (*restore->mutable_attr())["dtypes"] = dtypes;
  std::vector<std::string> assigns;
  for (size_t i = 0; i < vars.size(); ++i) {
    const std::string name =
        s + (i == 0 ? std::string("Assign") : StrCat("Assign_", i));
    const std::string value =
        i == 0 ? s + "RestoreV2" : StrCat(s, "RestoreV2:", i);
    NodeDef* a = Node(gd, name, "Assign", {InputName(vars[i].ref()), value});
    SetType(a, "T", DTypeToProto(vars[i].dtype()));
    (*a->mutable_attr())["validate_shape"].set_b(true);
    (*a->mutable_attr())["use_locking"].set_b(true);
    (*a->mutable_attr())["_class"].mutable_list()->add_s("loc:@" + names[i]);
    assigns.push_back("^" + name);
  }
  Node(gd, s + "restore_all", "NoOp", assigns);
}

// A collection as TensorFlow writes it, or false when an item is of a kind
// it does not serialize.
bool ToCollectionDef(const std::vector<CollectionItem>& items,
                     CollectionDef* out) {
  if (items.empty()) return false;
  for (const CollectionItem& item : items) {
    if (const auto* v = std::any_cast<Variable>(&item.value)) {
      proto::VariableDef def;
      def.set_variable_name(v->ref().name());
      def.set_initializer_name(v->initializer().name());
      def.set_snapshot_name(v->value().name());
      if (v->initial_value().valid()) {
        def.set_initial_value_name(v->initial_value().name());
      }
      def.set_trainable(v->trainable());
      out->mutable_bytes_list()->add_value(def.SerializeAsString());
    } else if (const auto* o = std::any_cast<Output>(&item.value)) {
      out->mutable_node_list()->add_value(o->name());
    } else if (const auto* op = std::any_cast<Operation>(&item.value)) {
      out->mutable_node_list()->add_value(op->name());
    } else {
      return false;
    }
  }
  // One kind per collection: a mix of VariableDefs and names is refused.
  return !(out->has_bytes_list() && out->has_node_list());
}

Status CollectionError(const std::string& source, const std::string& key,
                       const Status& s) {
  return errors::InvalidArgument("Collection '", key, "' of ", source, ": ",
                                 s.message());
}

// Restores one collection into `graph`; names are looked up under `scope`.
Status ImportCollection(const std::string& key, const CollectionDef& def,
                        const std::string& scope, const std::string& source,
                        Graph* graph) {
  auto tensor = [&](const std::string& name) -> StatusOr<Output> {
    StatusOr<Output> t = graph->GetTensorByName(scope + name);
    if (!t.ok()) return CollectionError(source, key, t.status());
    return t;
  };
  if (def.has_node_list()) {
    for (const std::string& name : def.node_list().value()) {
      if (name.find(':') != std::string::npos) {
        TF_ASSIGN_OR_RETURN(Output t, tensor(name));
        graph->AddToCollection(key, {t.name(), t});
      } else {
        StatusOr<Operation> op = graph->GetOperationByName(scope + name);
        if (!op.ok()) return CollectionError(source, key, op.status());
        graph->AddToCollection(key, {op->name(), *op});
      }
    }
    return Status::OK();
  }
  if (!def.has_bytes_list()) return Status::OK();  // numbers: minitf keeps none
  for (const std::string& bytes : def.bytes_list().value()) {
    proto::VariableDef v;
    if (!v.ParseFromString(bytes) || v.variable_name().empty()) {
      // Other serialized messages (queue runners, contexts): not variables.
      return Status::OK();
    }
    TF_ASSIGN_OR_RETURN(Output ref, tensor(v.variable_name()));
    TF_ASSIGN_OR_RETURN(Output snapshot, tensor(v.snapshot_name()));
    StatusOr<Operation> init =
        graph->GetOperationByName(scope + v.initializer_name());
    if (!init.ok()) return CollectionError(source, key, init.status());
    Output initial_value;
    if (!v.initial_value_name().empty()) {
      TF_ASSIGN_OR_RETURN(initial_value, tensor(v.initial_value_name()));
    }
    const Variable var =
        Variable::FromNodes(ref, *init, snapshot, initial_value, v.trainable());
    graph->AddToCollection(key, {var.name(), var});
  }
  return Status::OK();
}

}  // namespace

StatusOr<MetaGraphDef> ExportMetaGraph(const Graph& graph, const Saver* saver) {
  MetaGraphDef meta;
  // tensorflow_version stays empty: TensorFlow parses it as a release
  // number, and reads an empty one as "VariableDefs say if trainable".
  meta.mutable_meta_info_def();
  GraphDef* gd = meta.mutable_graph_def();
  TF_RETURN_IF_ERROR(ToGraphDef(graph, gd));
  if (saver != nullptr) {
    // minitf's restore ops give way to TensorFlow's, under the same scope.
    const std::string& s = saver->scope();
    auto* nodes = gd->mutable_node();
    nodes->erase(std::remove_if(nodes->begin(), nodes->end(),
                                [&](const NodeDef& n) {
                                  return n.name().rfind(s, 0) == 0;
                                }),
                 nodes->end());
    AddTensorFlowSaveNodes(saver->var_list(), s, gd);
    *meta.mutable_saver_def() = saver->saver_def();
  }
  for (const std::string& key : graph.GetAllCollectionKeys()) {
    CollectionDef def;
    StatusOr<std::vector<CollectionItem>> items = graph.GetCollection(key, "");
    TF_RETURN_IF_ERROR(items.status());
    if (ToCollectionDef(*items, &def)) {
      (*meta.mutable_collection_def())[key] = std::move(def);
    }
  }
  return meta;
}

StatusOr<MetaGraphDef> ReadMetaGraph(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return errors::NotFound("File ", path, " does not exist.");
  std::stringstream ss;
  ss << in.rdbuf();
  MetaGraphDef meta;
  if (!meta.ParseFromString(ss.str())) {
    return errors::DataLoss("Unable to parse MetaGraphDef in ", path,
                            ": not a MetaGraphDef, or truncated");
  }
  return meta;
}

// --8<-- [start:import]
Status ImportMetaGraph(const MetaGraphDef& meta_graph,
                       const std::string& source, Graph* graph,
                       const std::string& import_scope) {
  // The saver's nodes are TensorFlow's save and restore ops, which read and
  // write files themselves; minitf's Saver does that from C++ instead.
  GraphDef gd = meta_graph.graph_def();
  const std::string& restore = meta_graph.saver_def().restore_op_name();
  if (const size_t slash = restore.rfind('/'); slash != std::string::npos) {
    const std::string s = restore.substr(0, slash + 1);
    auto* nodes = gd.mutable_node();
    nodes->erase(std::remove_if(nodes->begin(), nodes->end(),
                                [&](const NodeDef& n) {
                                  return n.name().rfind(s, 0) == 0;
                                }),
                 nodes->end());
  }
  // TensorFlow 2.x marks the MatMuls of a gradient with grad_a and grad_b,
  // hints to its own optimizers that change no value; TensorFlow 1.x's
  // MatMul, and minitf's, have no such attrs.
  for (NodeDef& n : *gd.mutable_node()) {
    if (n.op() == "MatMul") {
      n.mutable_attr()->erase("grad_a");
      n.mutable_attr()->erase("grad_b");
    }
  }
  ImportGraphDefOptions options;
  options.prefix = import_scope;
  options.drop_newer_default_attrs = true;
  const Status imported = ImportGraphDef(gd, graph, options);
  if (!imported.ok()) {
    return Status(imported.code(), StrCat("Importing the meta graph ", source,
                                          ": ", imported.message()));
  }
  std::string scope = import_scope;
  if (!scope.empty() && scope.back() != '/') scope += '/';
  for (const auto& [key, def] : meta_graph.collection_def()) {
    TF_RETURN_IF_ERROR(ImportCollection(key, def, scope, source, graph));
  }
  return Status::OK();
}
// --8<-- [end:import]

namespace {

std::shared_ptr<Saver> ImportWithSaver(const MetaGraphDef& meta_graph,
                                       const std::string& source,
                                       const std::string& import_scope) {
  errors::ThrowIfError(
      ImportMetaGraph(meta_graph, source, get_default_graph(), import_scope));
  const std::vector<Variable> vars = global_variables();
  if (vars.empty()) return nullptr;
  return std::make_shared<Saver>(vars);
}

}  // namespace

std::shared_ptr<Saver> import_meta_graph(const MetaGraphDef& meta_graph,
                                         const std::string& import_scope) {
  return ImportWithSaver(meta_graph, "the MetaGraphDef", import_scope);
}

std::shared_ptr<Saver> import_meta_graph(const std::string& path,
                                         const std::string& import_scope) {
  return ImportWithSaver(errors::ValueOrThrow(ReadMetaGraph(path)), path,
                         import_scope);
}

}  // namespace minitf::train
