// How errors about nodes name them, in TensorFlow's forms.
//
// A placement error has to say which node failed and what it looked like:
// TensorFlow writes a node as the tag "{{node b}}" (which its Python layer
// turns into "node b (defined at model.py:12)"), a node of a colocation group
// as "{{colocation_node b}}", a NodeDef in one line as
// "{{node b}} = Const[dtype=DT_FLOAT, value=Tensor<...>, _device="/gpu:2"]()",
// and ends an error with the node it came from, "\n\t [[{{node b}}]]". minitf
// has no Python source to point at, so the tags stay as TensorFlow's core
// writes them, as in the rest of minitf's errors. The one error the seed
// tutorial shows, a device that does not exist, keeps the seed's TensorFlow
// 0.x form, "\n\t [[Node: b = Const[...]()]]" (SummarizeNodeLegacy).
//
//   Status s = errors::InvalidArgument("Cannot assign a device for operation ",
//                                      node.name(), ": ...");
//   s = tf::AttachDef(s, node);   // "...\n\t [[{{node b}}]]"
//   tf::SummarizeNode(node);      // "{{node b}} = Const[...]()"
#pragma once

#include <string>
#include <string_view>

#include "minitf/graph/graph.h"
#include "minitf/tensor/status.h"

namespace minitf {

/// "{{node b}}" (errors::FormatNodeNameForError).
std::string FormatNodeNameForError(std::string_view name);
/// "{{colocation_node b}}" (errors::FormatColocationNodeForError).
std::string FormatColocationNodeForError(std::string_view name);

/// TensorFlow's AttachDef: `status` with "\n\t [[{{node b}}]]" appended, or
/// "\n\t [[b]]" when its message already names a node by a tag. OK stays OK.
Status AttachDef(const Status& status, const Node& node);

/// The attrs in TensorFlow's summary form, sorted by name, with a non-empty
/// `device` last as `_device="..."`: `T=DT_FLOAT, transpose_a=false`.
std::string SummarizeAttrs(const Node& node, std::string_view device);
/// SummarizeNodeDef: `{{node MatMul}} = MatMul[T=DT_FLOAT, ...](a, b)`.
std::string SummarizeNode(const Node& node);
/// TensorFlow 0.x's SummarizeNodeDef, which the seed tutorial's error shows:
/// `b = Const[dtype=DT_FLOAT, value=Tensor<type: float shape: [3,2] values:
/// 1 2 3...>, _device="/gpu:2"]()`: no tag around the name, a tensor's first
/// three values, and the device in `legacy_device`'s form.
std::string SummarizeNodeLegacy(const Node& node,
                                std::string_view legacy_device);
/// Node::DebugString:
/// `{name:'b' id:1 op device:{/gpu:x} def:{{{node b}} = Const[...]()}}`.
std::string NodeDebugString(const Node& node);

/// KernelsRegisteredForOp: one line `  device='CPU'` per device type with a
/// kernel for `op_type`, each ending in a newline, or TensorFlow's line for
/// none. minitf's registry does not list a kernel's dtype constraints, so
/// the lines stop where TensorFlow's go on with "; T in [DT_FLOAT, ...]".
std::string KernelsRegisteredForOp(std::string_view op_type);

}  // namespace minitf
