#include "minitf/distributed/training/scaffold.h"

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/tensor/errors.h"
#include "minitf/train/ops/state_ops.h"
#include "minitf/train/summary/summary_ops.h"

namespace minitf::train {

// --8<-- [start:report_uninitialized]
UninitializedVariables report_uninitialized_variables(
    const std::vector<Variable>& var_list, const std::string& name) {
  UninitializedVariables report;
  name_scope scope(name);
  if (var_list.empty()) {
    report.op = constant(Tensor(DT_BOOL, TensorShape({0})));
    return report;
  }
  std::vector<Output> initialized;
  for (const Variable& v : var_list) {
    initialized.push_back(is_variable_initialized(v));
    report.names.push_back(v.op().name());
  }
  report.op = logical_not(stack(initialized));
  return report;
}
// --8<-- [end:report_uninitialized]

std::vector<std::string> UninitializedVariables::uninitialized(
    const Tensor& value) const {
  if (value.dtype() != DT_BOOL || value.dims() != 1 ||
      value.dim_size(0) != static_cast<int64_t>(names.size())) {
    throw errors::InvalidArgumentError("Expected a bool tensor of shape [" +
                                       std::to_string(names.size()) +
                                       "] from report_uninitialized_variables");
  }
  std::vector<std::string> out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (value.data<bool>()[i]) out.push_back(names[i]);
  }
  return out;
}

std::optional<Variable> get_global_step() {
  std::vector<Variable> in_collection =
      get_collection<Variable>(GraphKeys::GLOBAL_STEP);
  if (!in_collection.empty()) return in_collection.front();
  for (const Variable& v : global_variables()) {
    if (v.op().name() == "global_step") return v;
  }
  return std::nullopt;
}

void Scaffold::finalize() {
  if (finalized_) return;
  graph_ = get_default_graph();
  const std::vector<Variable> globals = global_variables();
  const std::vector<Variable> locals =
      get_collection<Variable>(GraphKeys::LOCAL_VARIABLES);
  if (!o_.init_op.valid()) o_.init_op = global_variables_initializer();
  if (!o_.ready_op) {
    std::vector<Variable> all = globals;
    all.insert(all.end(), locals.begin(), locals.end());
    o_.ready_op = report_uninitialized_variables(all);
  }
  if (!o_.ready_for_local_init_op) {
    o_.ready_for_local_init_op = report_uninitialized_variables(globals);
  }
  if (!o_.local_init_op.valid()) {
    o_.local_init_op = variables_initializer(locals, "local_init");
  }
  // TensorFlow's Saver(allow_empty=True): no variables, no saver.
  if (!o_.saver && !globals.empty()) o_.saver = std::make_shared<Saver>();
  if (!o_.summary_op.valid()) o_.summary_op = summary::merge_all();
  finalized_ = true;
}

}  // namespace minitf::train
