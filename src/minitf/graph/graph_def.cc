#include "minitf/graph/graph_def.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <sstream>
#include <vector>

#include "minitf/graph/executor.h"
#include "minitf/graph/node_builder.h"
#include "minitf/graph/proto_convert.h"
#include "minitf/graph/scope.h"
#include "minitf/tensor/errors.h"

namespace minitf {
namespace {

// "a" for output 0, "a:1" otherwise: TensorFlow's spelling of an input.
std::string InputString(const Output& out) {
  if (out.index() == 0) return out.node()->name();
  return StrCat(out.node()->name(), ":", out.index());
}

// One input of a NodeDef, parsed: node name, output index, control or not.
struct ParsedInput {
  std::string node;
  int index = 0;
  bool control = false;
};

Status Malformed(const std::string& node, const std::string& input) {
  return errors::InvalidArgument("Node '", node, "': Malformed input '", input,
                                 "': expected 'node', 'node:index' or "
                                 "'^node'");
}

StatusOr<ParsedInput> ParseInput(const std::string& node,
                                 const std::string& input,
                                 bool allow_internal_names) {
  ParsedInput p;
  std::string_view rest = input;
  if (rest.starts_with("^")) {
    p.control = true;
    rest.remove_prefix(1);
  }
  if (const size_t colon = rest.rfind(':'); colon != std::string_view::npos) {
    const std::string_view digits = rest.substr(colon + 1);
    // A control edge waits for a node, not for one of its outputs.
    if (p.control || digits.empty() || digits.size() > 9 ||
        !std::all_of(digits.begin(), digits.end(), [](char c) {
          return std::isdigit(static_cast<unsigned char>(c));
        })) {
      return Malformed(node, input);
    }
    p.index = std::stoi(std::string(digits));
    rest = rest.substr(0, colon);
  }
  if (!IsValidOpName(rest, allow_internal_names)) return Malformed(node, input);
  p.node = std::string(rest);
  return p;
}

// A NodeDef checked on its own and linked to its inputs by position in the
// GraphDef.
struct PendingNode {
  const NodeDef* def = nullptr;
  std::vector<ParsedInput> inputs;    // Data inputs, in order.
  std::vector<std::string> controls;  // Control inputs.
};

// Checks names and input strings, links inputs, and orders the nodes so that
// every node follows its inputs. Kahn's algorithm, always taking the ready
// node that comes first in the GraphDef: a GraphDef already in order (as
// ToGraphDef writes it) keeps its order.
StatusOr<std::vector<int>> PlanImport(const GraphDef& gd,
                                      std::vector<PendingNode>* pending,
                                      const ImportGraphDefOptions& options,
                                      const Graph& graph) {
  const bool allow_internal_names = options.allow_internal_names;
  const int n = gd.node_size();
  std::map<std::string, int, std::less<>> position;
  pending->assign(n, PendingNode());
  for (int i = 0; i < n; ++i) {
    const NodeDef& def = gd.node(i);
    if (!IsValidOpName(def.name(), allow_internal_names)) {
      return errors::InvalidArgument("Node '", def.name(),
                                     "': not a valid node name");
    }
    if (!position.emplace(def.name(), i).second) {
      return errors::InvalidArgument("Node '", def.name(), "' is not unique");
    }
    PendingNode& p = (*pending)[i];
    p.def = &def;
    for (const std::string& in : def.input()) {
      TF_ASSIGN_OR_RETURN(ParsedInput parsed,
                          ParseInput(def.name(), in, allow_internal_names));
      if (parsed.control) {
        p.controls.push_back(parsed.node);
      } else if (!p.controls.empty()) {
        return errors::InvalidArgument(
            "Node '", def.name(),
            "': Control dependencies must come after regular dependencies: "
            "input '",
            in, "' follows '^", p.controls.back(), "'");
      } else {
        p.inputs.push_back(std::move(parsed));
      }
    }
  }
  std::vector<std::vector<int>> preds(n);
  for (int i = 0; i < n; ++i) {
    PendingNode& p = (*pending)[i];
    auto link = [&](const std::string& name) -> Status {
      auto it = position.find(name);
      if (it == position.end() && options.inputs_from_graph &&
          graph.FindNode(options.prefix + name) != nullptr) {
        return Status::OK();  // a node the graph already has
      }
      if (it == position.end()) {
        return errors::InvalidArgument("Node '", p.def->name(),
                                       "': Unknown input node '", name, "'");
      }
      preds[i].push_back(it->second);
      return Status::OK();
    };
    for (const ParsedInput& in : p.inputs) TF_RETURN_IF_ERROR(link(in.node));
    for (const std::string& c : p.controls) TF_RETURN_IF_ERROR(link(c));
  }
  // The session's sorter: the GraphDef's order wherever edges leave a choice,
  // and TensorFlow's message for a cycle.
  return TopologicalSort(preds, [&](int i) { return gd.node(i).name(); });
}

// The colocation groups of an imported node name imported nodes.
AttrValue PrefixClass(const AttrValue& value, const std::string& prefix) {
  if (prefix.empty() || !value.holds<std::vector<std::string>>()) {
    return value;
  }
  std::vector<std::string> groups = value.get<std::vector<std::string>>();
  for (std::string& g : groups) {
    if (g.starts_with("loc:@")) g = "loc:@" + prefix + g.substr(5);
  }
  return AttrValue(std::move(groups));
}

// True for a scalar attr at its kind's zero value (false, 0, 0.0, ""): what
// a newer producer's added attr holds when left at its default.
bool IsZeroAttr(const proto::AttrValue& v) {
  switch (v.value_case()) {
    case proto::AttrValue::kB:
      return !v.b();
    case proto::AttrValue::kI:
      return v.i() == 0;
    case proto::AttrValue::kF:
      return v.f() == 0.f;
    case proto::AttrValue::kS:
      return v.s().empty();
    default:
      return false;
  }
}

// The NodeDef's attrs, checked and converted, into `builder` and `attrs`.
Status ImportAttrs(const NodeDef& def, const OpDef& op_def,
                   const std::string& name, const std::string& prefix,
                   const ImportGraphDefOptions& options, NodeBuilder* builder,
                   AttrMap* attrs) {
  for (const auto& [key, value] : def.attr()) {
    const AttrDef* attr_def = op_def.FindAttr(key);
    if (attr_def == nullptr && options.drop_newer_default_attrs &&
        !key.starts_with("_") && IsZeroAttr(value)) {
      continue;  // a newer TensorFlow's attr, at its default
    }
    // The kind first, on the bytes: a bool where the op declares a type is
    // this error, not a value read later as the wrong kind.
    if (attr_def != nullptr) {
      Status kind =
          CheckAttrKind(*attr_def, AttrValueProtoKind(value, attr_def->type));
      if (!kind.ok()) {
        return Status(kind.code(), StrCat(kind.message(), "; NodeDef: {{node ",
                                          name, "}}; Op<name=", def.op(), ">"));
      }
    }
    auto converted =
        AttrValueFromProto(value, attr_def ? attr_def->type : std::string());
    if (!converted.ok()) {
      return Status(converted.status().code(),
                    StrCat("Node '", name, "': attr '", key,
                           "': ", converted.status().message()));
    }
    AttrValue v = key == "_class" ? PrefixClass(*converted, prefix)
                                  : std::move(converted).value();
    (*attrs)[key] = v;
    builder->Attr(key, std::move(v));
  }
  return Status::OK();
}

// How many of the flat inputs each of the op's arguments takes: a list
// argument ("values: N * T") N of them, any other one.
StatusOr<std::vector<int64_t>> ArgumentCounts(const NodeDef& def,
                                              const OpDef& op_def,
                                              const std::string& name,
                                              const AttrMap& attrs,
                                              size_t num_inputs) {
  std::vector<int64_t> counts;
  int64_t total = 0;
  for (const ArgDef& arg : op_def.inputs) {
    int64_t count = 1;
    if (!arg.number_attr.empty()) {
      auto n = GetAttr<int64_t>(attrs, arg.number_attr);
      if (!n.ok()) {
        return errors::InvalidArgument(
            "Node '", name, "' (op '", def.op(), "') is missing attr '",
            arg.number_attr, "', the length of input '", arg.name, "'");
      }
      count = *n;
    }
    if (count < 0 || count > static_cast<int64_t>(num_inputs)) {
      return errors::InvalidArgument(
          "Node '", name, "' (op '", def.op(), "') has ", num_inputs,
          " inputs, but its attr ", arg.number_attr, " says ", count);
    }
    counts.push_back(count);
    total += count;
  }
  if (total != static_cast<int64_t>(num_inputs)) {
    return errors::InvalidArgument("Node '", name, "' (op '", def.op(),
                                   "') has ", num_inputs,
                                   " inputs, but the op expects ", total);
  }
  return counts;
}

// The flat input `next` of node `name`, found in `graph` and checked against
// argument `arg`'s type (fixed by the op, or by its type attr, given in the
// NodeDef or set by an earlier input: then this input sets it in `attrs`).
StatusOr<Output> ImportInput(const PendingNode& p, size_t next,
                             const ArgDef& arg, const std::string& name,
                             const std::string& prefix, Graph* graph,
                             AttrMap* attrs) {
  const ParsedInput& in = p.inputs[next];
  Node* src = graph->FindNode(prefix + in.node);
  if (in.index >= src->num_outputs()) {
    return errors::InvalidArgument(
        "Node '", name, "': Connecting to invalid output ", in.index,
        " of source node ", src->name(), " which has ", src->num_outputs(),
        " outputs.");
  }
  const Output out(src, in.index);
  DType expected = arg.type;
  if (expected == DT_INVALID) {
    auto t = GetAttr<DType>(*attrs, arg.type_attr);
    if (t.ok()) expected = *t;
    attrs->emplace(arg.type_attr, out.dtype());
  }
  if (expected != DT_INVALID && out.dtype() != expected) {
    return errors::InvalidArgument(
        "Input ", next, " of node ", name, " was passed ",
        DataTypeString(out.dtype()), " from ", out.name(),
        " incompatible with expected ", DataTypeString(expected), ".");
  }
  return out;
}

// Rebuilds one NodeDef in `graph` through NodeBuilder: its attrs, its flat
// inputs grouped by the op's arguments, its control inputs.
Status ImportNode(const PendingNode& p, const std::string& prefix,
                  const ImportGraphDefOptions& options, Graph* graph) {
  const NodeDef& def = *p.def;
  const std::string name = prefix + def.name();
  auto op = OpRegistry::Global()->LookUp(def.op());
  if (!op.ok()) {
    return Status(op.status().code(),
                  StrCat("Node '", name, "': ", op.status().message()));
  }
  const OpDef& op_def = **op;

  NodeBuilder builder(def.op(), name);
  builder.ExactName(options.allow_internal_names).Device(def.device());
  AttrMap attrs;
  TF_RETURN_IF_ERROR(
      ImportAttrs(def, op_def, name, prefix, options, &builder, &attrs));
  TF_ASSIGN_OR_RETURN(
      std::vector<int64_t> counts,
      ArgumentCounts(def, op_def, name, attrs, p.inputs.size()));
  size_t next = 0;
  for (size_t a = 0; a < op_def.inputs.size(); ++a) {
    const ArgDef& arg = op_def.inputs[a];
    std::vector<Output> outs;
    for (int64_t k = 0; k < counts[a]; ++k, ++next) {
      TF_ASSIGN_OR_RETURN(
          Output out, ImportInput(p, next, arg, name, prefix, graph, &attrs));
      outs.push_back(out);
    }
    if (arg.number_attr.empty()) {
      builder.Input(outs[0]);
    } else {
      builder.Input(std::move(outs));
    }
  }
  for (const std::string& c : p.controls) {
    builder.ControlInput(graph->FindNode(prefix + c));
  }
  return builder.Finalize(graph).status();
}

Status ImportInto(const std::vector<PendingNode>& pending,
                  const ImportGraphDefOptions& options,
                  const std::vector<int>& order, const std::string& prefix,
                  Graph* graph) {
  for (int i : order)
    TF_RETURN_IF_ERROR(ImportNode(pending[i], prefix, options, graph));
  return Status::OK();
}

Status CheckVersions(const GraphDef& gd) {
  const auto& v = gd.versions();
  if (v.min_consumer() > kGraphDefVersion) {
    return errors::InvalidArgument(
        "GraphDef min consumer version ", v.min_consumer(),
        " above current version ", kGraphDefVersion,
        " for minitf. The graph needs a newer reader.");
  }
  for (int bad : v.bad_consumers()) {
    if (bad == kGraphDefVersion) {
      return errors::InvalidArgument("GraphDef disallows consumer version ",
                                     bad, ", which is minitf's.");
    }
  }
  return Status::OK();
}

// A file error as the Status TensorFlow's file system would give.
Status FileError(const std::string& what, const std::string& path) {
  const int err = errno;
  const std::string message =
      StrCat(what, " '", path, "': ", std::strerror(err));
  if (err == ENOENT || err == ENOTDIR) return errors::NotFound(message);
  if (err == EACCES || err == EPERM) return errors::PermissionDenied(message);
  return errors::Unknown(message);
}

// Collects the text parser's first error instead of letting protobuf log it.
class FirstError : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string& message) override {
    if (!message_.empty()) return;
    // Lines and columns count from 0 in protobuf, from 1 in editors.
    message_ = StrCat(line + 1, ":", column + 1, ": ", message);
  }
  const std::string& message() const { return message_; }

 private:
  std::string message_;
};

}  // namespace

// --8<-- [start:to_graph_def]
Status ToGraphDef(const Graph& graph, GraphDef* out) {
  out->Clear();
  out->mutable_versions()->set_producer(kGraphDefVersion);
  for (const Node* n : graph.nodes()) {
    NodeDef* def = out->add_node();
    def->set_name(n->name());
    def->set_op(n->type_string());
    for (const Output& in : n->inputs()) def->add_input(InputString(in));
    // Control inputs sorted by name, as TensorFlow writes them: the same
    // graph then gives the same GraphDef, whatever order the edges were
    // added in.
    std::vector<std::string> controls;
    for (const Node* c : n->control_inputs())
      controls.push_back(StrCat("^", c->name()));
    std::sort(controls.begin(), controls.end());
    for (std::string& c : controls) def->add_input(std::move(c));
    def->set_device(n->requested_device());
    for (const auto& [key, value] : n->attrs()) {
      Status s = AttrValueToProto(value, &(*def->mutable_attr())[key]);
      if (!s.ok()) {
        return Status(s.code(), StrCat("Node '", n->name(), "': attr '", key,
                                       "': ", s.message()));
      }
    }
  }
  return Status::OK();
}
// --8<-- [end:to_graph_def]

StatusOr<GraphDef> ToGraphDef(const Graph& graph) {
  GraphDef gd;
  TF_RETURN_IF_ERROR(ToGraphDef(graph, &gd));
  return gd;
}

// --8<-- [start:import_graph_def]
Status ImportGraphDef(const GraphDef& graph_def, Graph* graph,
                      const std::string& prefix) {
  return ImportGraphDef(graph_def, graph,
                        ImportGraphDefOptions{.prefix = prefix});
}

Status ImportGraphDef(const GraphDef& graph_def, Graph* graph,
                      const ImportGraphDefOptions& options) {
  const std::string& prefix = options.prefix;
  if (graph->finalized()) {
    return errors::FailedPrecondition(
        "Graph is finalized and cannot be modified.");
  }
  std::string scope = prefix;
  if (!scope.empty() && !scope.ends_with("/")) scope += "/";
  TF_RETURN_IF_ERROR(CheckVersions(graph_def));
  std::vector<PendingNode> pending;
  TF_ASSIGN_OR_RETURN(std::vector<int> order,
                      PlanImport(graph_def, &pending, options, *graph));
  for (const NodeDef& def : graph_def.node()) {
    if (graph->FindNode(scope + def.name()) != nullptr) {
      return errors::InvalidArgument("Node name '", scope + def.name(),
                                     "' already exists in the Graph");
    }
  }
  // All or nothing, in one pass: the nodes go straight into `graph`, and a
  // savepoint takes them out again, with the names they reserved, if any
  // node fails, whether by a Status (a bad op, attr, type or shape) or by an
  // exception from user code the graph runs while building (a device
  // function). A rehearsal in a scratch graph would cost a second import and
  // still miss what only the real graph has: its device functions,
  // control-dependency and colocation scopes.
  GraphSavepoint savepoint(graph);
  TF_RETURN_IF_ERROR(ImportInto(pending, options, order, scope, graph));
  savepoint.Commit();
  return Status::OK();
}
// --8<-- [end:import_graph_def]

StatusOr<std::string> SerializeGraphDef(const GraphDef& graph_def) {
  if (graph_def.ByteSizeLong() >
      static_cast<size_t>(std::numeric_limits<int>::max())) {
    return errors::Internal("GraphDef of ", graph_def.ByteSizeLong(),
                            " bytes is above protobuf's 2 GiB limit");
  }
  std::string bytes;
  {
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream coded(&stream);
    // Map fields (attr) are hashed in memory; sorting them makes equal
    // graphs give equal bytes.
    coded.SetSerializationDeterministic(true);
    graph_def.SerializeToCodedStream(&coded);
  }
  return bytes;
}

std::string GraphDefToText(const GraphDef& graph_def) {
  std::string text;
  google::protobuf::TextFormat::PrintToString(graph_def, &text);
  return text;
}

StatusOr<GraphDef> ParseGraphDef(std::string_view bytes) {
  GraphDef gd;
  if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      !gd.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return errors::DataLoss("Failed to parse GraphDef: the ", bytes.size(),
                            " bytes are not a binary GraphDef (truncated or "
                            "corrupt, or not a GraphDef at all)");
  }
  return gd;
}

StatusOr<GraphDef> ParseTextGraphDef(std::string_view text) {
  GraphDef gd;
  FirstError errors;
  google::protobuf::TextFormat::Parser parser;
  parser.RecordErrorsTo(&errors);
  google::protobuf::io::ArrayInputStream input(text.data(),
                                               static_cast<int>(text.size()));
  if (!parser.Parse(&input, &gd)) {
    return errors::InvalidArgument("Failed to parse GraphDef text: ",
                                   errors.message());
  }
  return gd;
}

Status WriteGraphDef(const GraphDef& graph_def, const std::string& path,
                     bool as_text) {
  std::string data;
  if (as_text) {
    data = GraphDefToText(graph_def);
  } else {
    TF_ASSIGN_OR_RETURN(data, SerializeGraphDef(graph_def));
  }
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) return FileError("Cannot open for writing", path);
  file.write(data.data(), static_cast<std::streamsize>(data.size()));
  file.close();
  if (!file) return FileError("Cannot write", path);
  return Status::OK();
}

Status WriteGraphDef(const Graph& graph, const std::string& path,
                     bool as_text) {
  TF_ASSIGN_OR_RETURN(GraphDef gd, ToGraphDef(graph));
  return WriteGraphDef(gd, path, as_text);
}

StatusOr<GraphDef> ReadGraphDef(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return FileError("Cannot open", path);
  std::ostringstream data;
  data << file.rdbuf();
  if (file.bad()) return FileError("Cannot read", path);
  const std::string bytes = data.str();
  StatusOr<GraphDef> gd = path.ends_with(".pbtxt") || path.ends_with(".txt")
                              ? ParseTextGraphDef(bytes)
                              : ParseGraphDef(bytes);
  if (!gd.ok()) {
    return Status(gd.status().code(),
                  StrCat(gd.status().message(), " (file '", path, "')"));
  }
  return gd;
}

GraphDef as_graph_def(const Graph& graph) {
  return errors::ValueOrThrow(ToGraphDef(graph));
}

void import_graph_def(const GraphDef& graph_def, const std::string& name) {
  // TensorFlow opens name_scope(name) and imports under the scope it gets:
  // unique, and nested in any scope already open. The scope's name stays
  // taken when the import fails, as in TensorFlow.
  name_scope scope(name);
  errors::ThrowIfError(
      ImportGraphDef(graph_def, get_default_graph(), scope.name()));
}

namespace train {

std::string write_graph(const GraphDef& graph_def, const std::string& logdir,
                        const std::string& name, bool as_text) {
  std::error_code ec;
  std::filesystem::create_directories(logdir, ec);
  if (ec) {
    throw errors::UnknownError(
        StrCat("Cannot create directory '", logdir, "': ", ec.message()));
  }
  const std::string path = (std::filesystem::path(logdir) / name).string();
  errors::ThrowIfError(WriteGraphDef(graph_def, path, as_text));
  return path;
}

std::string write_graph(const Graph& graph, const std::string& logdir,
                        const std::string& name, bool as_text) {
  return write_graph(as_graph_def(graph), logdir, name, as_text);
}

}  // namespace train
}  // namespace minitf
