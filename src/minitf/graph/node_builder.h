// NodeBuilder: the one way a node enters a graph.
//
// Every graph-building function (tf::matmul, tf::placeholder ...) describes
// the node it wants, op type, inputs, attrs, an optional name, and hands it
// to a NodeBuilder. Finalize() does what TensorFlow's graph construction
// does, in order:
//   1. looks up the OpDef; checks each attr given is of its declared kind
//      (a bool where a type is declared is an error, never read as a
//      type), the input count and each input's dtype, deducing type attrs
//      (T) and list lengths (N);
//   2. fills attrs from their defaults, checks every attr is set and allowed;
//   3. names the node under the current name scope, unique in the graph;
//   4. runs the shape function on the input shapes;
//   5. applies the graph's control-dependency, device and colocation stacks;
//   6. adds the node. Any failure is a Status naming the node and op.
//
//   Node* n = NodeBuilder("MatMul", "MatMul")
//                 .Input(a).Input(b).Attr("transpose_b", true)
//                 .Finalize(graph).value();
#pragma once

#include <string>
#include <vector>

#include "minitf/graph/graph.h"

namespace minitf {

class NodeBuilder {
 public:
  /// `name` "" takes the op type as the default name, as TensorFlow does.
  NodeBuilder(std::string op_type, std::string name = "");

  NodeBuilder& Input(Output input);
  /// A list input ("values: N * T").
  NodeBuilder& Input(std::vector<Output> inputs);
  NodeBuilder& ControlInput(Node* node);
  NodeBuilder& Attr(std::string name, AttrValue value);
  /// The name is used as given (already unique and scoped), as when a
  /// GraphDef is imported; with `allow_internal`, it may start with '_'
  /// (a node the runtime made: "_send_y_0").
  NodeBuilder& ExactName(bool allow_internal = false);
  /// The device string to request, before the graph's device functions.
  NodeBuilder& Device(std::string device);

  /// REQUIRES: every input belongs to `graph`, else InvalidArgument
  /// ("Tensor ... must be from the same graph as ...").
  StatusOr<Node*> Finalize(Graph* graph) const;

 private:
  struct InputArg {
    std::vector<Output> outputs;
    bool is_list = false;
  };
  std::string op_type_;
  std::string name_;
  bool exact_name_ = false;
  bool allow_internal_name_ = false;
  std::vector<InputArg> inputs_;
  std::vector<Node*> control_inputs_;
  AttrMap attrs_;
  std::string device_;
};

/// TensorFlow's rule for op names: "^[A-Za-z0-9.][A-Za-z0-9_.\\-/>]*$";
/// with `allow_internal`, a leading '_' too (names the runtime gives).
bool IsValidOpName(std::string_view name, bool allow_internal = false);
/// And for scope names, which may also start with '_' or '-' or be empty.
bool IsValidScopeName(std::string_view name);

}  // namespace minitf
