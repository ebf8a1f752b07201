// NodeBuilder: the one way a node enters a graph.
//
// Every graph-building function (tf::matmul, tf::placeholder ...) describes
// the node it wants, op type, inputs, attrs, an optional name, and hands it
// to a NodeBuilder. Finalize() does what TensorFlow's graph construction
// does, in order (the numbers are those of its body):
//   1. looks up the OpDef; checks the input count, that every input is in
//      this graph, and that each attr given is of its declared kind (a bool
//      where a type is declared is an error, never read as a type);
//   2. checks each input's dtype, deducing type attrs (T) and list lengths
//      (N);
//   3. fills attrs from their defaults, checks every attr is set and
//      allowed, and derives the output types;
//   4. names the node under the current name scope, unique in the graph;
//   5. runs the shape function on the input shapes;
//   6. applies the graph's control-dependency stack and adds the node;
//   7. applies the colocation and device stacks to it.
// Any failure is a Status naming the node and op.
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
  // Finalize's steps (see the top of this file), in order.
  Status CheckGiven(const OpDef& op_def, const Graph* graph,
                    const std::string& display) const;
  StatusOr<std::vector<Output>> DeduceTypes(const OpDef& op_def,
                                            AttrMap* attrs) const;
  // Step 2 for one tensor `got` of input `i`.
  Status MatchType(const OpDef& op_def, size_t i, DType got, bool type_preset,
                   AttrMap* attrs) const;
  Status CompleteAttrs(const OpDef& op_def, const std::string& display,
                       AttrMap* attrs) const;
  static std::vector<DType> OutputTypes(const OpDef& op_def,
                                        const AttrMap& attrs);
  StatusOr<std::string> ChooseName(Graph& graph) const;
  StatusOr<std::vector<TensorShape>> InferShapes(
      const OpDef& op_def, const std::string& name, const AttrMap& attrs,
      const std::vector<Output>& inputs, size_t num_outputs) const;
  std::vector<Node*> ControlDependencies(
      Graph& graph, const std::vector<Output>& inputs) const;
  static void ApplyDeviceScopes(Graph& graph, Node* node);

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
