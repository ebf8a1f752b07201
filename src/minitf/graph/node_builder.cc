#include "minitf/graph/node_builder.h"

#include <algorithm>
#include <cctype>

#include "minitf/graph/shape_inference.h"

namespace minitf {
namespace {

bool IsNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' ||
         c == '-' || c == '/' || c == '>';
}

std::string TypeListString(const std::vector<DType>& types) {
  std::string out;
  for (size_t i = 0; i < types.size(); ++i) {
    if (i > 0) out += ", ";
    out += DataTypePythonName(types[i]);
  }
  return out;
}

// Completes a shape function's error the way TensorFlow does.
Status ShapeError(const Status& s, const std::string& name,
                  const std::string& op, const std::vector<TensorShape>& in) {
  std::string shapes;
  for (size_t i = 0; i < in.size(); ++i) {
    if (i > 0) shapes += ", ";
    shapes += ShapeErrorString(in[i]);
  }
  return Status(s.code(), StrCat(s.message(), " for '", name, "' (op: '", op,
                                 "') with input shapes: ", shapes, "."));
}

}  // namespace

bool IsValidOpName(std::string_view name, bool allow_internal) {
  if (allow_internal && name.starts_with('_')) name.remove_prefix(1);
  if (name.empty()) return false;
  const char c = name.front();
  if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.')) return false;
  return std::all_of(name.begin(), name.end(), IsNameChar);
}

bool IsValidScopeName(std::string_view name) {
  return std::all_of(name.begin(), name.end(), IsNameChar);
}

NodeBuilder::NodeBuilder(std::string op_type, std::string name)
    : op_type_(std::move(op_type)), name_(std::move(name)) {}

NodeBuilder& NodeBuilder::Input(Output input) {
  inputs_.push_back({{input}, false});
  return *this;
}
NodeBuilder& NodeBuilder::Input(std::vector<Output> inputs) {
  inputs_.push_back({std::move(inputs), true});
  return *this;
}
NodeBuilder& NodeBuilder::ControlInput(Node* node) {
  control_inputs_.push_back(node);
  return *this;
}
NodeBuilder& NodeBuilder::Attr(std::string name, AttrValue value) {
  attrs_[std::move(name)] = std::move(value);
  return *this;
}
NodeBuilder& NodeBuilder::ExactName(bool allow_internal) {
  exact_name_ = true;
  allow_internal_name_ = allow_internal;
  return *this;
}
NodeBuilder& NodeBuilder::Device(std::string device) {
  device_ = std::move(device);
  return *this;
}

// --8<-- [start:finalize]
StatusOr<Node*> NodeBuilder::Finalize(Graph* graph) const {
  // 1. The OpDef, and the inputs and attrs as given: counted, from this
  //    graph, each attr of its declared kind.
  TF_ASSIGN_OR_RETURN(const OpDef* op_def,
                      OpRegistry::Global()->LookUp(op_type_));
  const std::string display = name_.empty() ? op_type_ : name_;
  TF_RETURN_IF_ERROR(CheckGiven(*op_def, graph, display));
  // 2. Types: the type attrs (T) and list lengths (N) the inputs imply.
  AttrMap attrs = attrs_;
  TF_ASSIGN_OR_RETURN(std::vector<Output> flat_inputs,
                      DeduceTypes(*op_def, &attrs));
  // 3. Attrs: defaults, presence and allowed values; the output types.
  TF_RETURN_IF_ERROR(CompleteAttrs(*op_def, display, &attrs));
  std::vector<DType> output_types = OutputTypes(*op_def, attrs);
  // 4. The name.
  TF_ASSIGN_OR_RETURN(std::string name, ChooseName(*graph));
  // 5. Shapes.
  TF_ASSIGN_OR_RETURN(
      std::vector<TensorShape> output_shapes,
      InferShapes(*op_def, name, attrs, flat_inputs, output_types.size()));
  // 6. Control dependencies, and the node joins the graph.
  NodeSpec spec;
  spec.name = std::move(name);
  spec.op_def = op_def;
  spec.control_inputs = ControlDependencies(*graph, flat_inputs);
  spec.attrs = std::move(attrs);
  spec.inputs = std::move(flat_inputs);
  spec.output_types = std::move(output_types);
  spec.output_shapes = std::move(output_shapes);
  spec.requested_device = device_;
  TF_ASSIGN_OR_RETURN(Node * node, graph->AddNode(std::move(spec)));
  // 7. Devices: colocation, or else the device functions.
  ApplyDeviceScopes(*graph, node);
  return node;
}
// --8<-- [end:finalize]

Status NodeBuilder::CheckGiven(const OpDef& op_def, const Graph* graph,
                               const std::string& display) const {
  if (inputs_.size() != op_def.inputs.size()) {
    return errors::InvalidArgument("Op '", op_type_, "' takes ",
                                   op_def.inputs.size(), " inputs but '",
                                   display, "' was given ", inputs_.size());
  }
  // Every input must live in the graph the node goes into.
  for (const InputArg& arg : inputs_) {
    for (const Output& out : arg.outputs) {
      if (!out.valid()) {
        return errors::InvalidArgument("Input to '", display,
                                       "' is an empty Output");
      }
      if (out.graph() != graph) {
        return errors::InvalidArgument(
            "Tensor(\"", out.name(),
            "\") must be from the same graph as the op '", display,
            "' being added to it.");
      }
    }
  }
  // Every attr given must be of its declared kind before any is read as
  // that kind in the steps after this one.
  for (const auto& [key, value] : attrs_) {
    const AttrDef* def = op_def.FindAttr(key);
    if (def == nullptr) continue;  // Annotations; unknown names fail in 3.
    Status s = CheckAttrKind(*def, value.has_value() ? value.KindName() : "");
    if (!s.ok()) {
      return Status(s.code(), StrCat(s.message(), "; NodeDef: {{node ", display,
                                     "}}; Op<name=", op_type_, ">"));
    }
  }
  return Status::OK();
}

StatusOr<std::vector<Output>> NodeBuilder::DeduceTypes(const OpDef& op_def,
                                                       AttrMap* attrs) const {
  std::vector<Output> flat_inputs;
  for (size_t i = 0; i < inputs_.size(); ++i) {
    const ArgDef& arg = op_def.inputs[i];
    const InputArg& given = inputs_[i];
    if (given.is_list != !arg.number_attr.empty()) {
      return errors::InvalidArgument(
          "Input '", arg.name, "' of '", op_type_, "' Op ",
          given.is_list ? "takes one tensor, not a list"
                        : "takes a list of tensors");
    }
    if (!arg.number_attr.empty()) {
      const auto n = static_cast<int64_t>(given.outputs.size());
      auto [it, inserted] = attrs->emplace(arg.number_attr, AttrValue(n));
      if (!inserted && !(it->second == AttrValue(n))) {
        return errors::InvalidArgument("List argument '", arg.name, "' to '",
                                       op_type_, "' Op has length ", n,
                                       " but attr ", arg.number_attr, " says ",
                                       it->second.DebugString());
      }
    }
    // Whether T was fixed before this argument (by an earlier one or an
    // explicit attr) or is fixed by this list's first element.
    const bool type_preset =
        arg.type == DT_INVALID && attrs->count(arg.type_attr) != 0;
    for (const Output& out : given.outputs) {
      TF_RETURN_IF_ERROR(MatchType(op_def, i, out.dtype(), type_preset, attrs));
      flat_inputs.push_back(out);
    }
  }
  return flat_inputs;
}

// --8<-- [start:match_type]
Status NodeBuilder::MatchType(const OpDef& op_def, size_t i, DType got,
                              bool type_preset, AttrMap* attrs) const {
  const ArgDef& arg = op_def.inputs[i];
  const InputArg& given = inputs_[i];
  if (arg.type != DT_INVALID) {
    if (got == arg.type) return Status::OK();
    return errors::InvalidArgument("Input '", arg.name, "' of '", op_type_,
                                   "' Op has type ", DataTypePythonName(got),
                                   " that does not match expected type of ",
                                   DataTypePythonName(arg.type), ".");
  }
  auto [it, inserted] = attrs->emplace(arg.type_attr, AttrValue(got));
  if (inserted || it->second.get<DType>() == got) return Status::OK();
  if (given.is_list && !type_preset) {
    std::vector<DType> types;
    for (const Output& o : given.outputs) types.push_back(o.dtype());
    return errors::InvalidArgument(
        "Tensors in list passed to '", arg.name, "' of '", op_type_,
        "' Op have types [", TypeListString(types), "] that don't all match.");
  }
  // Find the argument that fixed T first, for TensorFlow's message.
  std::string first = arg.type_attr;
  for (size_t j = 0; j < i; ++j) {
    if (op_def.inputs[j].type_attr == arg.type_attr) {
      first = op_def.inputs[j].name;
      break;
    }
  }
  return errors::InvalidArgument("Input '", arg.name, "' of '", op_type_,
                                 "' Op has type ", DataTypePythonName(got),
                                 " that does not match type ",
                                 DataTypePythonName(it->second.get<DType>()),
                                 " of argument '", first, "'.");
}
// --8<-- [end:match_type]

Status NodeBuilder::CompleteAttrs(const OpDef& op_def,
                                  const std::string& display,
                                  AttrMap* attrs) const {
  // Kinds are right: those given were checked in step 1, those deduced and
  // the defaults are made so.
  for (const AttrDef& def : op_def.attrs) {
    auto it = attrs->find(def.name);
    if (it == attrs->end()) {
      if (!def.default_value) {
        return errors::InvalidArgument("NodeDef '", display, "' (op: '",
                                       op_type_, "') is missing attr '",
                                       def.name, "'");
      }
      it = attrs->emplace(def.name, *def.default_value).first;
    }
    if (def.type == "type" && !def.allowed_types.empty()) {
      const DType t = it->second.get<DType>();
      if (std::find(def.allowed_types.begin(), def.allowed_types.end(), t) ==
          def.allowed_types.end()) {
        return errors::InvalidArgument(
            "Value for attr '", def.name, "' of ", DataTypePythonName(t),
            " is not in the list of allowed values: ",
            TypeListString(def.allowed_types), " (op: '", op_type_,
            "', node: '", display, "')");
      }
    }
    if (def.minimum && it->second.get<int64_t>() < *def.minimum) {
      return errors::InvalidArgument(
          "Value for attr '", def.name, "' of ", it->second.get<int64_t>(),
          " must be at least minimum ", *def.minimum);
    }
  }
  for (const auto& [key, value] : *attrs) {
    // Names starting with '_' are annotations (colocation ...), not attrs.
    if (!key.starts_with("_") && op_def.FindAttr(key) == nullptr) {
      return errors::InvalidArgument("NodeDef '", display, "' mentions attr '",
                                     key, "' not in Op<name=", op_type_, ">");
    }
  }
  return Status::OK();
}

std::vector<DType> NodeBuilder::OutputTypes(const OpDef& op_def,
                                            const AttrMap& attrs) {
  std::vector<DType> output_types;
  for (const ArgDef& arg : op_def.outputs) {
    const DType t = arg.type != DT_INVALID
                        ? arg.type
                        : attrs.find(arg.type_attr)->second.get<DType>();
    int64_t n = 1;
    if (!arg.number_attr.empty()) {
      n = attrs.find(arg.number_attr)->second.get<int64_t>();
    }
    for (int64_t k = 0; k < n; ++k) output_types.push_back(t);
  }
  return output_types;
}

StatusOr<std::string> NodeBuilder::ChooseName(Graph& graph) const {
  if (exact_name_) {
    if (!IsValidOpName(name_, allow_internal_name_)) {
      return errors::InvalidArgument("'", name_, "' is not a valid node name");
    }
    return name_;
  }
  if (name_.ends_with('/')) {
    // TensorFlow reads name="scope/" as the exact name "scope": no prefix,
    // no suffix (how an op takes the name of the scope it closes).
    std::string name = name_.substr(0, name_.size() - 1);
    if (!IsValidOpName(name)) {
      return errors::InvalidArgument("'", name, "' is not a valid node name");
    }
    return name;
  }
  const std::string base = name_.empty() ? op_type_ : name_;
  if (!IsValidOpName(graph.name_scope() + base)) {
    return errors::InvalidArgument("'", graph.name_scope() + base,
                                   "' is not a valid node name");
  }
  return graph.UniqueName(base);
}

StatusOr<std::vector<TensorShape>> NodeBuilder::InferShapes(
    const OpDef& op_def, const std::string& name, const AttrMap& attrs,
    const std::vector<Output>& inputs, size_t num_outputs) const {
  std::vector<TensorShape> in_shapes;
  std::vector<DType> in_types;
  std::vector<const Tensor*> in_values;
  for (const Output& out : inputs) {
    in_shapes.push_back(out.shape());
    in_types.push_back(out.dtype());
    const Node* producer = out.node();
    in_values.push_back(
        producer->IsConstant()
            ? &producer->attrs().find("value")->second.get<Tensor>()
            : nullptr);
  }
  InferenceContext ctx(&attrs, in_shapes, in_types, in_values,
                       static_cast<int>(num_outputs));
  if (op_def.shape_fn) {
    Status s = op_def.shape_fn(&ctx);
    if (!s.ok()) return ShapeError(s, name, op_type_, in_shapes);
  }
  std::vector<TensorShape> output_shapes;
  for (int i = 0; i < ctx.num_outputs(); ++i) {
    output_shapes.push_back(ctx.output(i));
  }
  return output_shapes;
}

std::vector<Node*> NodeBuilder::ControlDependencies(
    Graph& graph, const std::vector<Output>& inputs) const {
  // Every open frame, innermost first, up to a frame that clears. An op
  // already reached through a data input needs no extra edge, and neither
  // does an op with an input made inside the frame (TensorFlow's
  // "dominated" ops): that input already waits.
  std::vector<Node*> control = control_inputs_;
  const auto& frames = graph.control_stack();
  for (auto f = frames.rbegin(); f != frames.rend(); ++f) {
    const bool dominated = std::any_of(
        inputs.begin(), inputs.end(),
        [&](const Output& o) { return o.node()->id() >= f->first_id; });
    for (Node* c : dominated ? std::vector<Node*>{} : f->nodes) {
      const bool is_input =
          std::any_of(inputs.begin(), inputs.end(),
                      [c](const Output& o) { return o.node() == c; });
      if (!is_input &&
          std::find(control.begin(), control.end(), c) == control.end()) {
        control.push_back(c);
      }
    }
    if (f->clear) break;
  }
  return control;
}

void NodeBuilder::ApplyDeviceScopes(Graph& graph, Node* node) {
  // Colocation wins: the node joins the groups of the ops it is colocated
  // with and takes the first one's device. Otherwise the device functions
  // run innermost first, each seeing the device chosen so far, up to a
  // reset entry (tf.device(None)), which hides the outer ones.
  const auto& colocation = graph.colocation_stack();
  if (colocation.empty()) {
    const auto& stack = graph.device_stack();
    for (auto d = stack.rbegin(); d != stack.rend(); ++d) {
      if (!d->fn) break;
      node->set_requested_device(d->fn(*node));
    }
    return;
  }
  std::vector<std::string> groups;
  for (const Node* c : colocation) {
    auto cls = c->attrs().find("_class");
    if (cls != c->attrs().end() &&
        cls->second.holds<std::vector<std::string>>()) {
      for (const auto& g : cls->second.get<std::vector<std::string>>()) {
        groups.push_back(g);
      }
    } else {
      groups.push_back("loc:@" + c->name());
    }
  }
  std::sort(groups.begin(), groups.end());
  groups.erase(std::unique(groups.begin(), groups.end()), groups.end());
  node->SetAttr("_class", AttrValue(std::move(groups)));
  for (const Node* c : colocation) {
    if (!c->requested_device().empty()) {
      node->set_requested_device(c->requested_device());
      break;
    }
  }
}

}  // namespace minitf
