#include "minitf/train/optimizers/optimizer.h"

#include <cstdint>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/tensor/errors.h"
#include "minitf/train/gradients/gradients.h"
#include "minitf/train/ops/state_ops.h"

namespace minitf::train {
namespace {

// A tensor of `dtype` and `shape` filled with `value`.
Tensor Filled(DType dtype, const TensorShape& shape, double value) {
  Tensor t(dtype, shape);
  switch (dtype) {
    case DT_FLOAT:
      t.flat<float>().setConstant(static_cast<float>(value));
      break;
    case DT_DOUBLE:
      t.flat<double>().setConstant(value);
      break;
    case DT_INT32:
      t.flat<int32_t>().setConstant(static_cast<int32_t>(value));
      break;
    case DT_INT64:
      t.flat<int64_t>().setConstant(static_cast<int64_t>(value));
      break;
    default:
      throw errors::InvalidArgumentError(
          std::string("Optimizers do not support variables of type ") +
          std::string(DataTypeString(dtype)));
  }
  return t;
}

}  // namespace

Optimizer::Optimizer(bool use_locking, std::string name)
    : use_locking_(use_locking), name_(std::move(name)) {}

Operation Optimizer::apply_gradients(const GradsAndVars& grads_and_vars,
                                     Variable* global_step,
                                     const std::string& name) {
  if (grads_and_vars.empty()) {
    throw errors::InvalidArgumentError("No variables provided.");
  }
  GradsAndVars live;
  std::string all_names;
  for (const auto& [grad, var] : grads_and_vars) {
    if (!var.valid()) {
      throw errors::InvalidArgumentError(
          "apply_gradients: a pair holds an invalid Variable");
    }
    all_names += (all_names.empty() ? "'" : ", '") + var.name() + "'";
    if (grad.valid()) live.emplace_back(grad, var);
  }
  if (live.empty()) {
    throw errors::InvalidArgumentError(
        "No gradients provided for any variable: [" + all_names + "].");
  }
  graph_scope in_graph(*live.front().second.graph());
  {
    // TensorFlow's init_scope: slots belong to no step and no name scope.
    control_dependencies no_deps(nullptr);
    name_scope top("");
    std::vector<Variable> var_list;
    for (const auto& gv : live) var_list.push_back(gv.second);
    CreateSlots(var_list);
  }
  ops::OpScope scope(name, name_, {});
  const std::string exact = scope.op_name() + "/";
  Prepare();
  std::vector<Operation> update_ops;
  for (const auto& [grad, var] : live) {
    name_scope update("update_" + var.op().name());
    colocate_with with_var(var.op());
    update_ops.push_back(ApplyDense(grad, var));
  }
  if (global_step == nullptr) return Finish(update_ops, exact);
  control_dependencies after({Finish(update_ops, "update")});
  colocate_with with_step(global_step->op());
  Output one = constant(Filled(global_step->dtype(), {}, 1), "value");
  return assign_add(global_step->ref(), one, use_locking_, exact).op();
}

std::vector<std::string> Optimizer::get_slot_names() const {
  std::vector<std::string> names;
  for (const auto& [name, unused] : slots_) names.push_back(name);
  return names;
}

Variable Optimizer::get_slot(const Variable& var,
                             const std::string& name) const {
  auto it = slots_.find(name);
  if (it == slots_.end()) return Variable();
  auto slot = it->second.find(var.op().node());
  return slot == it->second.end() ? Variable() : slot->second;
}

Operation Optimizer::Finish(const std::vector<Operation>& update_ops,
                            const std::string& name) {
  return group(update_ops, name);
}

Variable Optimizer::ZerosSlot(const Variable& var, const std::string& slot_name,
                              const std::string& op_name) {
  return FilledSlot(var, slot_name, op_name, 0);
}

Variable Optimizer::OnesSlot(const Variable& var, const std::string& slot_name,
                             const std::string& op_name) {
  return FilledSlot(var, slot_name, op_name, 1);
}

Variable Optimizer::FilledSlot(const Variable& var,
                               const std::string& slot_name,
                               const std::string& op_name, double value) {
  std::map<const Node*, Variable>& slots = slots_[slot_name];
  auto it = slots.find(var.op().node());
  if (it != slots.end()) return it->second;
  colocate_with with_var(var.op());
  // TensorFlow's slot_creator: the initializer is built inside the slot's
  // scope, "<var>/<op_name>/Initializer/zeros" (a Const, or a Fill for 1000
  // elements or more), then the variable.
  const std::string slot_name_full = var.op().name() + "/" + op_name;
  Output initial;
  {
    name_scope init(slot_name_full + "/Initializer/");
    std::vector<int64_t> dims;
    for (int i = 0; i < var.shape().dims(); ++i) {
      dims.push_back(var.shape().dim_size(i));
    }
    initial = value == 0 ? zeros(dims, var.dtype()) : ones(dims, var.dtype());
  }
  Variable slot(initial, slot_name_full, /*trainable=*/false);
  slots.emplace(var.op().node(), slot);
  return slot;
}

Variable Optimizer::NonSlotVariable(const Tensor& initial_value,
                                    const std::string& name,
                                    const Variable& colocate) {
  const auto key =
      std::make_pair(static_cast<const Graph*>(colocate.graph()), name);
  auto it = non_slots_.find(key);
  if (it != non_slots_.end()) return it->second;
  colocate_with with_var(colocate.op());
  Variable v(initial_value, name, /*trainable=*/false);
  non_slots_.emplace(key, v);
  return v;
}

Output Optimizer::AsDType(Output value, DType dtype) {
  return value.dtype() == dtype ? value : cast(value, dtype);
}

// --8<-- [start:minimize]
Optimizer::GradsAndVars Optimizer::compute_gradients(
    Output loss, const std::vector<Variable>& var_list) {
  const std::vector<Variable> vars =
      var_list.empty() ? trainable_variables() : var_list;
  if (vars.empty()) {
    throw errors::InvalidArgumentError("No variables to optimize.");
  }
  std::vector<Output> xs;
  for (const Variable& v : vars) xs.push_back(v);
  // GATE_OP, TensorFlow's default: the gradients of each op are gated.
  const std::vector<Output> grads =
      gradients({loss}, xs, {}, "gradients", /*gate_gradients=*/true);
  GradsAndVars pairs;
  for (size_t i = 0; i < vars.size(); ++i)
    pairs.emplace_back(grads[i], vars[i]);
  return pairs;
}

Operation Optimizer::minimize(Output loss, Variable* global_step,
                              const std::vector<Variable>& var_list,
                              const std::string& name) {
  return apply_gradients(compute_gradients(loss, var_list), global_step, name);
}
// --8<-- [end:minimize]

}  // namespace minitf::train
