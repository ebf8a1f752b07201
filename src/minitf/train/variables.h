// tf::Variable: state that survives between runs, as in TensorFlow 1.x.
//
// A Variable is a small set of graph nodes built under one name scope: the
// VariableV2 op "weight" that names the state, its initial value
// "weight/initial_value", the initializer "weight/Assign" that copies the
// initial value in, and the read "weight/read" that other ops use. The value
// itself is not in the graph: each Session keeps its own (var.h), so it must
// be initialized in every session before it is read. Used where a tensor is
// expected, a Variable stands for its read, so `w * x + b` builds as in Python;
// fetched, it stands for its VariableV2's output, as in Python too.
//
//   auto w = tf::Variable(0.0f, "weight");       // <tf.Variable 'weight:0'
//   ...> auto y = w * x + b; tf::Session sess;
//   sess.run(tf::global_variables_initializer());
//   sess.run(w.assign_add(tf::constant(1.f)));   // w is now 1
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "minitf/graph/graph.h"
#include "minitf/tensor/tensor.h"

namespace minitf {

/// tf.Variable (TensorFlow's RefVariable).
///
/// Invariants: a valid Variable's nodes are in one graph, built together by
/// its constructor: op() is a VariableV2 of dtype() and shape(); initializer()
/// an Assign of initial_value() to it; value() an Identity of it. The assign,
/// initializer and read ops are colocated with op() (attr _class:
/// ["loc:@weight"]). A Variable is a cheap handle, valid while its graph
/// lives; copies name the same variable.
///
/// Thread safety: build on one thread, as any graph; running its ops from
/// many threads at once is safe (the session's Var locks).
class Variable {
 public:
  /// An invalid handle, for containers.
  Variable() = default;
  /// tf.Variable(initial_value, name=name, trainable=trainable). A Tensor
  /// becomes the Const "NAME/initial_value"; a scalar converts to a Tensor,
  /// so tf::Variable(0.0f, "weight") is a float32 scalar. The name is made
  /// unique as a name scope is ("weight_1"). Added to GLOBAL_VARIABLES, and
  /// to TRAINABLE_VARIABLES when trainable. Throws InvalidArgumentError when
  /// the initial value's shape is not fully known.
  explicit Variable(const Tensor& initial_value,
                    const std::string& name = "Variable",
                    bool trainable = true);
  /// An initial value computed by the graph (tf::random_normal ...), used
  /// as it is.
  explicit Variable(Output initial_value, const std::string& name = "Variable",
                    bool trainable = true);
  /// tf.Variable(initial_value=fn, ..., collections=...): `initial_value` is
  /// called inside the variable's name scope, under "Initializer", to build
  /// the initial value ("w/Initializer/zeros"). Its ops are colocated with
  /// the variable (attr _class ["loc:@w"], set by name since the variable
  /// does not exist yet) and request no device of their own, as in
  /// TensorFlow, so they run wherever the variable is placed. The variable
  /// joins `collections` and, when trainable, TRAINABLE_VARIABLES too.
  /// This is how get_variable (chapter 6) builds a variable from an
  /// initializer.
  Variable(const std::function<Output()>& initial_value,
           const std::string& name, bool trainable = true,
           const std::vector<std::string>& collections = {
               GraphKeys::GLOBAL_VARIABLES});

  /// A Variable over nodes already in a graph, as TensorFlow's
  /// Variable(variable_def=...) rebuilds one from a meta graph's VariableDef
  /// (import_meta_graph): its VariableV2 output, the op that initializes it,
  /// the Identity that reads it and its initial value. Adds it to no
  /// collection. REQUIRES: the nodes are what those names say.
  static Variable FromNodes(Output variable, Operation initializer,
                            Output snapshot, Output initial_value,
                            bool trainable);

  bool valid() const { return variable_.valid(); }
  /// "weight:0", as TensorFlow names a variable by its tensor.
  std::string name() const { return variable_.name(); }
  /// The VariableV2 op ("weight").
  Operation op() const { return variable_.op(); }
  Graph* graph() const { return variable_.graph(); }
  DType dtype() const { return variable_.dtype(); }
  const TensorShape& shape() const { return variable_.shape(); }
  bool trainable() const { return trainable_; }

  /// The value to compute with: the Identity "weight/read".
  Output value() const { return snapshot_; }
  /// Where a tensor is expected, a Variable is its value(): `w * x`, a
  /// feed_dict key.
  operator Output() const { return snapshot_; }  // NOLINT: as TensorFlow
  /// What `sess.run(w)` and `sess.run({train_op, w})` fetch: ref(), as
  /// Python's Variable._as_graph_element says. A fetched reference shows the
  /// value as the run leaves it, after a train_op of the same run.
  Output as_graph_element() const { return variable_; }
  /// The VariableV2's output: the `ref` that assign ops take.
  Output ref() const { return variable_; }

  /// The Assign op "weight/Assign" that sets the initial value.
  Operation initializer() const { return initializer_; }
  Output initial_value() const { return initial_value_; }

  /// Ops that set, add to or subtract from the value and output the new
  /// value ("Assign", "AssignAdd", "AssignSub" in the current name scope).
  Output assign(Output value, bool use_locking = false,
                const std::string& name = "") const;
  Output assign(const Tensor& value, bool use_locking = false,
                const std::string& name = "") const;
  Output assign_add(Output delta, bool use_locking = false,
                    const std::string& name = "") const;
  Output assign_add(const Tensor& delta, bool use_locking = false,
                    const std::string& name = "") const;
  Output assign_sub(Output delta, bool use_locking = false,
                    const std::string& name = "") const;
  Output assign_sub(const Tensor& delta, bool use_locking = false,
                    const std::string& name = "") const;

  /// The value in the thread's default session (Output::eval).
  Tensor eval() const { return snapshot_.eval(); }
  Tensor eval(const FeedDict& feeds) const { return snapshot_.eval(feeds); }

  bool operator==(const Variable& o) const { return variable_ == o.variable_; }

 private:
  // Exactly one of `tensor`, `output` and `make_initial_value` gives the
  // initial value.
  Variable(const std::string& name, bool trainable, const Tensor* tensor,
           Output output, const std::function<Output()>& make_initial_value,
           const std::vector<std::string>& collections);

  Output variable_;
  Output initial_value_;
  Operation initializer_;
  Output snapshot_;
  bool trainable_ = false;
};

/// <tf.Variable 'weight:0' shape=() dtype=float32_ref>, as Python prints it.
std::ostream& operator<<(std::ostream& os, const Variable& v);

/// tf.global_variables(scope): the GLOBAL_VARIABLES collection of the
/// default graph, in creation order, those whose names match `scope`.
std::vector<Variable> global_variables(const std::string& scope = "");
/// tf.trainable_variables(scope): the TRAINABLE_VARIABLES collection.
std::vector<Variable> trainable_variables(const std::string& scope = "");

/// tf.variables_initializer(var_list, name): one op that runs every
/// variable's initializer (a NoOp with a control input on each); a plain
/// NoOp when the list is empty.
Operation variables_initializer(const std::vector<Variable>& var_list,
                                const std::string& name = "init");
/// tf.global_variables_initializer(): variables_initializer of
/// global_variables(), named "init".
Operation global_variables_initializer();
/// tf.initialize_all_variables, the older name of the same.
Operation initialize_all_variables();

/// tf.is_variable_initialized(variable): a bool scalar op.
Output is_variable_initialized(const Variable& variable,
                               const std::string& name = "");

}  // namespace minitf
