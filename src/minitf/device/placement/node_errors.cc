#include "minitf/device/placement/node_errors.h"

#include <algorithm>
#include <cstdint>
#include <sstream>

#include "minitf/graph/kernel.h"

namespace minitf {

std::string FormatNodeNameForError(std::string_view name) {
  return StrCat("{{node ", name, "}}");
}

std::string FormatColocationNodeForError(std::string_view name) {
  return StrCat("{{colocation_node ", name, "}}");
}

Status AttachDef(const Status& status, const Node& node) {
  if (status.ok()) return status;
  // A message that already names a node by its tag gets the bare name, so
  // that the Python layer expands one tag, not two.
  const bool tagged = status.message().find("{{node ") != std::string::npos;
  return Status(
      status.code(),
      StrCat(status.message(), "\n\t [[",
             tagged ? node.name() : FormatNodeNameForError(node.name()), "]]"));
}

namespace {

// "a, b:1, ^c": the inputs as a NodeDef lists them, output 0 by its node's
// name, control inputs last.
std::string SummarizeInputs(const Node& node) {
  std::string inputs;
  for (const Output& in : node.inputs()) {
    if (!inputs.empty()) inputs += ", ";
    inputs += in.index() == 0 ? in.node()->name() : in.name();
  }
  for (const Node* c : node.control_inputs()) {
    if (!inputs.empty()) inputs += ", ";
    inputs += "^" + c->name();
  }
  return inputs;
}

}  // namespace

std::string SummarizeAttrs(const Node& node, std::string_view device) {
  // AttrMap is sorted by name, as TensorFlow sorts for a stable summary.
  std::string out;
  for (const auto& [name, value] : node.attrs()) {
    if (!out.empty()) out += ", ";
    out += StrCat(name, "=", value.DebugString());
  }
  if (!device.empty()) {
    if (!out.empty()) out += ", ";
    out += StrCat("_device=\"", device, "\"");
  }
  return out;
}

std::string SummarizeNode(const Node& node) {
  return StrCat(FormatNodeNameForError(node.name()), " = ", node.type_string(),
                "[", SummarizeAttrs(node, node.requested_device()), "](",
                SummarizeInputs(node), ")");
}

namespace {

// TensorFlow 0.x's Tensor::DebugString: "Tensor<type: float shape: [3,2]
// values: 1 2 3...>", the first three values (SummarizeValue(3)).
std::string LegacyTensorString(const Tensor& t) {
  std::ostringstream values;
  SwitchDType(t.dtype(), [&]<typename T>() {
    const T* data = t.data<T>();
    const int64_t n = std::min<int64_t>(t.NumElements(), 3);
    for (int64_t i = 0; i < n; ++i) values << (i > 0 ? " " : "") << +data[i];
  });
  if (t.NumElements() > 3) values << "...";
  return StrCat("Tensor<type: ", DataTypeString(t.dtype()),
                " shape: ", t.shape().DebugString(), " values: ", values.str(),
                ">");
}

}  // namespace

std::string SummarizeNodeLegacy(const Node& node,
                                std::string_view legacy_device) {
  std::string attrs;
  for (const auto& [name, value] : node.attrs()) {
    if (!attrs.empty()) attrs += ", ";
    attrs +=
        StrCat(name, "=",
               value.holds<Tensor>() ? LegacyTensorString(value.get<Tensor>())
                                     : value.DebugString());
  }
  if (!legacy_device.empty()) {
    if (!attrs.empty()) attrs += ", ";
    attrs += StrCat("_device=\"", legacy_device, "\"");
  }
  return StrCat(node.name(), " = ", node.type_string(), "[", attrs, "](",
                SummarizeInputs(node), ")");
}

std::string NodeDebugString(const Node& node) {
  return StrCat("{name:'", node.name(), "' id:", node.id(), " op device:{",
                node.assigned_device(), "} def:{", SummarizeNode(node), "}}");
}

std::string KernelsRegisteredForOp(std::string_view op_type) {
  std::string out;
  for (const std::string& type :
       KernelRegistry::Global()->DeviceTypesFor(op_type)) {
    out += StrCat("  device='", type, "'\n");
  }
  return out.empty() ? "  <no registered kernels>\n" : out;
}

}  // namespace minitf
