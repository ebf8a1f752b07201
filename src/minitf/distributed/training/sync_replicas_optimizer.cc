#include "minitf/distributed/training/sync_replicas_optimizer.h"

#include <algorithm>
#include <iostream>
#include <stdexcept>
#include <utility>

#include "minitf/graph/node_builder.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/tensor/errors.h"

namespace minitf::train {
namespace {

// tf.fill([n], value) with a value computed by the graph: "Fill" with its
// "Fill/dims".
Output FillWith(int64_t n, Output value) {
  ops::OpScope scope("", "Fill", {value});
  Output dims = constant(Tensor({static_cast<int32_t>(n)}), "dims");
  return ops::AddOp(
      NodeBuilder("Fill", scope.op_name()).ExactName().Input(dims).Input(value),
      {dims, value});
}

// TensorFlow's _SyncReplicasOptimizerHook.
class SyncReplicasHook : public SessionRunHook {
 public:
  SyncReplicasHook(SyncReplicasOptimizer* opt, bool is_chief, int num_tokens)
      : opt_(opt), is_chief_(is_chief), num_tokens_(num_tokens) {}

  void begin() override {
    if (is_chief_) {
      local_init_op_ = opt_->chief_init_op();
      queue_runner_ = &opt_->get_chief_queue_runner();
      init_tokens_op_ = opt_->get_init_tokens_op(num_tokens_);
    } else {
      local_init_op_ = opt_->local_step_init_op();
    }
  }

  // --8<-- [start:after_create_session]
  void after_create_session(Session* session, Coordinator* coord) override {
    // The variables must be initialized (by the chief) before the local
    // step can be read from global_step.
    std::vector<Fetch> checks;
    for (const auto& [name, check] : opt_->ready_for_local_init()) {
      checks.emplace_back(check);
    }
    std::vector<Tensor> ready = session->run(checks);
    std::string missing;
    for (size_t i = 0; i < ready.size(); ++i) {
      if (ready[i].scalar<bool>()) continue;
      missing +=
          (missing.empty() ? "" : ", ") + opt_->ready_for_local_init()[i].first;
    }
    if (!missing.empty()) {
      throw std::runtime_error(
          "Init operations did not make model ready for "
          "SyncReplicasOptimizer local_init. Init op: " +
          local_init_op_.name() +
          ", error: Variables not initialized: " + missing);
    }
    session->run(local_init_op_);
    if (init_tokens_op_.valid()) session->run(init_tokens_op_);
    if (queue_runner_ != nullptr) queue_runner_->create_threads(session, coord);
  }
  // --8<-- [end:after_create_session]

 private:
  SyncReplicasOptimizer* opt_;
  const bool is_chief_;
  const int num_tokens_;
  Operation local_init_op_;
  Operation init_tokens_op_;
  QueueRunner* queue_runner_ = nullptr;
};

}  // namespace

SyncReplicasOptimizer::SyncReplicasOptimizer(Optimizer& opt,
                                             int replicas_to_aggregate,
                                             int total_num_replicas,
                                             const std::string& name)
    : opt_(opt),
      replicas_to_aggregate_(replicas_to_aggregate),
      total_num_replicas_(total_num_replicas < 0 ? replicas_to_aggregate
                                                 : total_num_replicas),
      tokens_per_step_(std::max(total_num_replicas_, replicas_to_aggregate)),
      name_(name) {
  std::cerr << "SyncReplicasV2: replicas_to_aggregate="
            << replicas_to_aggregate_
            << "; total_num_replicas=" << total_num_replicas_ << "\n";
}

SyncReplicasOptimizer::GradsAndVars SyncReplicasOptimizer::compute_gradients(
    Output loss, const std::vector<Variable>& var_list) {
  return opt_.compute_gradients(loss, var_list);
}

Operation SyncReplicasOptimizer::minimize(Output loss, Variable* global_step,
                                          const std::vector<Variable>& var_list,
                                          const std::string& name) {
  return apply_gradients(compute_gradients(loss, var_list), global_step, name);
}

// --8<-- [start:apply_gradients]
Operation SyncReplicasOptimizer::apply_gradients(
    const GradsAndVars& grads_and_vars, Variable* global_step,
    const std::string& /*name*/) {
  if (grads_and_vars.empty()) {
    errors::ThrowIfError(
        errors::InvalidArgument("Must supply at least one variable"));
  }
  if (global_step == nullptr || !global_step->valid()) {
    errors::ThrowIfError(
        errors::InvalidArgument("Global step is required to check staleness"));
  }
  global_step_ = *global_step;
  graph_scope use(*global_step->graph());
  MakeLocalStep(*global_step);
  std::vector<Operation> chief_init_ops = {local_step_init_op_};
  {
    name_scope scope(name_);
    Accumulated accumulated = Accumulate(grads_and_vars);
    // The update runs where global_step is, outside any name scope.
    Operation update_op;
    {
      device_scope on(global_step->op().device());
      name_scope top("");
      update_op = opt_.apply_gradients(accumulated.taken, global_step);
    }
    MakeTokenQueue(*global_step, accumulated.apply_ops, update_op);
    for (auto& [accum, device] : accumulated.accumulators) {
      device_scope on(device);
      chief_init_ops.push_back(
          accum.set_global_step(global_step->value(), "SetGlobalStep"));
    }
    chief_init_op_ = group(chief_init_ops);
  }
  gradients_applied_ = true;
  return train_op_;
}

void SyncReplicasOptimizer::MakeLocalStep(const Variable& global_step) {
  // The local step lives on this worker: colocated with an op made here,
  // it stays off the ps that the device function would pick for a variable.
  Operation local_anchor = no_op();
  {
    colocate_with near(local_anchor);
    const DType dtype = global_step.dtype();
    local_step_ =
        Variable([dtype] { return cast(constant(Tensor(int64_t{0})), dtype); },
                 "sync_rep_local_step", /*trainable=*/false,
                 {GraphKeys::LOCAL_VARIABLES});
  }
  local_step_init_op_ = local_step_.assign(global_step.value()).op();
  for (const Variable& v : global_variables()) {
    ready_.emplace_back(v.op().name(), is_variable_initialized(v));
  }
}

SyncReplicasOptimizer::Accumulated SyncReplicasOptimizer::Accumulate(
    const GradsAndVars& grads_and_vars) {
  Accumulated out;
  for (const auto& [grad, var] : grads_and_vars) {
    device_scope on(var.op().device());
    if (!grad.valid()) {
      out.taken.emplace_back(Output(), var);  // None passes through
      continue;
    }
    ConditionalAccumulator accum(grad.dtype(), var.shape(),
                                 var.name() + "/grad_accum");
    Output step = local_step_.value();
    if (step.dtype() != DT_INT64) step = cast(step, DT_INT64);
    out.apply_ops.push_back(accum.apply_grad(grad, step));
    out.taken.emplace_back(accum.take_grad(replicas_to_aggregate_), var);
    out.accumulators.emplace_back(accum, var.op().device());
  }
  return out;
}

void SyncReplicasOptimizer::MakeTokenQueue(
    const Variable& global_step, const std::vector<Operation>& apply_ops,
    Operation update_op) {
  device_scope on(global_step.op().device());
  name_scope top("");
  sync_token_queue_ =
      std::make_unique<FIFOQueue>(-1, std::vector<DType>{global_step.dtype()},
                                  std::vector<TensorShape>{TensorShape({})},
                                  "sync_token_q", "sync_token_q");
  // The barrier: a worker's step ends only when it gets a token.
  Output token;
  {
    control_dependencies after(apply_ops);
    token = sync_token_queue_->dequeue();
  }
  train_op_ = local_step_.assign(token).op();
  // The chief's step: once updated, one token per worker for the next.
  Operation sync_op;
  {
    control_dependencies after(std::vector<Operation>{update_op});
    // The step as the update leaves it. TensorFlow's Fill reads
    // global_step/read, whose buffer the update changes in place; a
    // minitf variable is copy-on-write (var.h), and its read holds the
    // value the step started with. The update (the AssignAdd of
    // global_step) outputs the new value: the tokens take that.
    Output step_now = update_op.output(0);
    Output tokens = FillWith(tokens_per_step_, step_now);
    sync_op = sync_token_queue_->enqueue_many(tokens);
  }
  chief_queue_runner_ = std::make_unique<QueueRunner>(
      *sync_token_queue_, std::vector<Operation>{sync_op});
}
// --8<-- [end:apply_gradients]

// --8<-- [start:init_tokens]
Operation SyncReplicasOptimizer::get_init_tokens_op(int num_tokens) {
  if (!gradients_applied_) {
    errors::ThrowIfError(errors::InvalidArgument(
        "get_init_tokens_op() should be called after apply_gradients()."));
  }
  const int tokens_needed = replicas_to_aggregate_ - total_num_replicas_;
  if (num_tokens == -1) {
    num_tokens = replicas_to_aggregate_;
  } else if (num_tokens < tokens_needed) {
    errors::ThrowIfError(errors::InvalidArgument(
        "Too few tokens to finish the first step: ", num_tokens, " (given) vs ",
        tokens_needed, " (needed)"));
  }
  graph_scope use(*global_step_.graph());
  if (num_tokens <= 0) return no_op("no_init_tokens");
  device_scope on(global_step_.op().device());
  name_scope top("");
  return sync_token_queue_->enqueue_many(
      FillWith(num_tokens, global_step_.value()));
}
// --8<-- [end:init_tokens]

QueueRunner& SyncReplicasOptimizer::get_chief_queue_runner() {
  if (!gradients_applied_) {
    errors::ThrowIfError(
        errors::InvalidArgument("Should be called after apply_gradients()."));
  }
  return *chief_queue_runner_;
}

std::unique_ptr<SessionRunHook> SyncReplicasOptimizer::make_session_run_hook(
    bool is_chief, int num_tokens) {
  if (!gradients_applied_) {
    errors::ThrowIfError(errors::InvalidArgument(
        "SyncReplicasOptimizer.apply_gradient should be called before using "
        "the hook."));
  }
  return std::make_unique<SyncReplicasHook>(this, is_chief, num_tokens);
}

}  // namespace minitf::train
