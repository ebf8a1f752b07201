// tf::train::Optimizer: the base of the optimizers, as in TensorFlow 1.x.
//
// An optimizer turns (gradient, variable) pairs into one training op. For
// each variable it creates the slots its rule keeps (zero-initialized,
// non-trainable variables beside it, "weight/Momentum"), then builds one
// update op per variable, colocated with it, and groups them under the
// optimizer's name. Given a global_step variable, the op also adds 1 to it
// once every update has run.
//
//   tf::train::MomentumOptimizer opt(0.01, 0.9);
//   auto train_op = opt.minimize(loss, &global_step);
//   // or: opt.apply_gradients(opt.compute_gradients(loss), &global_step);
//   sess.run(tf::global_variables_initializer());  // slots too
//   for (int i = 0; i < 100; ++i) sess.run(train_op);
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "minitf/graph/graph.h"
#include "minitf/train/variables.h"

namespace minitf::train {

/// tf.train.Optimizer.
///
/// Invariants: a slot is created once per (variable, slot name) and reused
/// by later apply_gradients calls; it has the variable's shape and dtype,
/// is not trainable, and is colocated with the variable.
///
/// Algorithm of apply_gradients (TensorFlow's): drop pairs whose gradient
/// is None, create the slots (outside any control dependencies and name
/// scope), open the name scope `name` (default get_name()), prepare the
/// hyperparameter tensors, build "update_<var>/<Apply op>" per variable
/// under colocate_with(var), then finish: group the updates.
///
/// minimize(loss) is compute_gradients (tf::gradients of the loss with
/// respect to each variable) followed by apply_gradients.
///
/// Thread safety: build on one thread; the training op it returns may run
/// from many threads at once (the update kernels lock their variables).
class Optimizer {
 public:
  using GradsAndVars = std::vector<std::pair<Output, Variable>>;

  virtual ~Optimizer() = default;
  Optimizer(const Optimizer&) = delete;
  Optimizer& operator=(const Optimizer&) = delete;

  /// opt.compute_gradients(loss, var_list): (d loss / d var, var) for each
  /// variable of var_list, by default tf::trainable_variables(). A variable
  /// the loss does not depend on gets an invalid Output (None), as in
  /// TensorFlow. Throws InvalidArgumentError when there are no variables.
  GradsAndVars compute_gradients(Output loss,
                                 const std::vector<Variable>& var_list = {});

  /// opt.minimize(loss, global_step, var_list, name): compute_gradients
  /// then apply_gradients, the one line of seed 000's training.
  Operation minimize(Output loss, Variable* global_step = nullptr,
                     const std::vector<Variable>& var_list = {},
                     const std::string& name = "");

  /// opt.apply_gradients(grads_and_vars, global_step, name): the training
  /// op. A pair with an invalid Output (None) as gradient is skipped.
  /// Without global_step the op is a NoOp named `name` (default
  /// get_name(), "GradientDescent"); with it, an AssignAdd of 1 to
  /// global_step of that name, run after the grouped updates
  /// ("GradientDescent/update"). Throws InvalidArgumentError for an empty
  /// list ("No variables provided."), an invalid Variable, or when every
  /// gradient is None ("No gradients provided for any variable: ['w:0']").
  Operation apply_gradients(const GradsAndVars& grads_and_vars,
                            Variable* global_step = nullptr,
                            const std::string& name = "");

  /// The optimizer's name, the default name scope of its ops.
  const std::string& get_name() const { return name_; }
  /// The slot names this optimizer creates ("m", "v" for Adam), sorted.
  std::vector<std::string> get_slot_names() const;
  /// The slot `name` of `var`; an invalid Variable when there is none.
  Variable get_slot(const Variable& var, const std::string& name) const;

 protected:
  Optimizer(bool use_locking, std::string name);

  /// Creates the slots of every variable (zeros_slot). Runs with no name
  /// scope and no control dependencies, so slots are named after their
  /// variable only.
  virtual void CreateSlots(const std::vector<Variable>& /*var_list*/) {}
  /// Builds the hyperparameter tensors, inside the optimizer's name scope.
  virtual void Prepare() {}
  /// The update op of one variable, built inside "update_<var>/" and
  /// colocated with it. grad: var's shape and dtype.
  virtual Operation ApplyDense(Output grad, const Variable& var) = 0;
  /// Groups the updates into the op named `name` (a scope name ending in
  /// '/' is the exact name).
  virtual Operation Finish(const std::vector<Operation>& update_ops,
                           const std::string& name);

  /// The slot `slot_name` of `var`, created on first use as the
  /// non-trainable variable "<var>/<op_name>" of zeros, colocated with var.
  Variable ZerosSlot(const Variable& var, const std::string& slot_name,
                     const std::string& op_name);
  /// As ZerosSlot, initialized to ones (RMSProp's mean square).
  Variable OnesSlot(const Variable& var, const std::string& slot_name,
                    const std::string& op_name);
  /// A variable of the optimizer not tied to one variable (Adam's
  /// beta1_power), created once per graph: non-trainable, colocated with
  /// `colocate_with`.
  Variable NonSlotVariable(const Tensor& initial_value, const std::string& name,
                           const Variable& colocate_with);
  /// A float32 hyperparameter as `dtype`: itself, or a Cast of it (TF's
  /// math_ops.cast).
  static Output AsDType(Output value, DType dtype);

  const bool use_locking_;

 private:
  Variable FilledSlot(const Variable& var, const std::string& slot_name,
                      const std::string& op_name, double value);

  const std::string name_;
  // slot name -> (the variable's VariableV2 node -> slot).
  std::map<std::string, std::map<const Node*, Variable>> slots_;
  // (graph, name) -> variable.
  std::map<std::pair<const Graph*, std::string>, Variable> non_slots_;
};

}  // namespace minitf::train
