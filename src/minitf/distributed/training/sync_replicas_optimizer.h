// SyncReplicasOptimizer: synchronous training across workers.
//
// With the asynchronous training of part 1, each worker applies its
// gradient to the parameter servers as soon as it has it, computed from
// variables that other workers may have changed meanwhile. SyncReplicas-
// Optimizer wraps any optimizer so that the variables change once per
// global step, by the mean of `replicas_to_aggregate` gradients:
//
//   every worker's train_op:  apply_grad(g, local_step) to each variable's
//       ConditionalAccumulator (on the variable's ps task), then dequeue a
//       token from the sync token queue (on global_step's task), and set
//       its local step to the token: it waits here until the step is over;
//   the chief's queue runner: take_grad(replicas_to_aggregate) from each
//       accumulator (waiting for enough gradients), apply their mean with
//       the wrapped optimizer, add one to global_step, and enqueue one token
//       per worker holding the new global_step: that releases the workers.
//
// A gradient computed at a local step below the accumulator's step is
// stale (its worker was late: the update it belonged to has happened) and
// the accumulator drops it. With total_num_replicas above
// replicas_to_aggregate, the extra workers are backups: each update takes
// the first gradients to arrive, so one slow or dead worker does not hold
// up the others.
//
// The graph is TensorFlow 1.x's, node for node (conditional_accumulator.h
// and fifo_queue.h say where the ops differ), so chapter 7 §2 draws it.
//
//   tf::train::GradientDescentOptimizer gd(0.5);
//   tf::train::SyncReplicasOptimizer opt(gd, /*replicas_to_aggregate=*/2,
//                                        /*total_num_replicas=*/2);
//   auto train_op = opt.minimize(loss, &global_step);
//   auto hook = opt.make_session_run_hook(is_chief);
//   hook->begin();
//   hook->after_create_session(&sess, &coord);  // tokens, chief's runner
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "minitf/distributed/training/conditional_accumulator.h"
#include "minitf/distributed/training/fifo_queue.h"
#include "minitf/distributed/training/queue_runner.h"
#include "minitf/distributed/training/session_run_hook.h"
#include "minitf/train/optimizers/optimizer.h"

namespace minitf::train {

/// tf.train.SyncReplicasOptimizer.
///
/// Invariants (after apply_gradients): one accumulator per variable with a
/// gradient, on that variable's device, shared by the name
/// "<var>:0/grad_accum"; the token queue "sync_token_q" on global_step's
/// device; the local step "sync_rep_local_step", a local variable on the
/// worker; tokens_per_step() = max(total_num_replicas,
/// replicas_to_aggregate).
///
/// Thread safety: build on one thread; the ops run from any number.
class SyncReplicasOptimizer {
 public:
  using GradsAndVars = Optimizer::GradsAndVars;

  /// SyncReplicasOptimizer(opt, replicas_to_aggregate, total_num_replicas).
  /// `opt` is not owned and must outlive this object. total_num_replicas
  /// -1 means replicas_to_aggregate.
  SyncReplicasOptimizer(Optimizer& opt, int replicas_to_aggregate,
                        int total_num_replicas = -1,
                        const std::string& name = "sync_replicas");

  /// The wrapped optimizer's gradients.
  GradsAndVars compute_gradients(Output loss,
                                 const std::vector<Variable>& var_list = {});
  /// Builds the graph described in the file comment and returns the
  /// workers' train_op (the Assign of the token to the local step).
  /// InvalidArgumentError "Global step is required to check staleness"
  /// without global_step (TensorFlow's ValueError).
  Operation apply_gradients(const GradsAndVars& grads_and_vars,
                            Variable* global_step,
                            const std::string& name = "");
  /// compute_gradients then apply_gradients.
  Operation minimize(Output loss, Variable* global_step,
                     const std::vector<Variable>& var_list = {},
                     const std::string& name = "");

  /// The op that puts the first step's tokens in the queue: `num_tokens`,
  /// -1 for replicas_to_aggregate. InvalidArgumentError before
  /// apply_gradients, and "Too few tokens to finish the first step: 0
  /// (given) vs 1 (needed)" below replicas_to_aggregate - total_num_replicas.
  Operation get_init_tokens_op(int num_tokens = -1);
  /// The chief's runner of the update-and-refill op.
  QueueRunner& get_chief_queue_runner();
  /// The hook that initializes a worker's session for synchronous steps
  /// (the chief's: its accumulators' steps, the first tokens, its runner).
  std::unique_ptr<SessionRunHook> make_session_run_hook(bool is_chief,
                                                        int num_tokens = -1);

  /// Sets the local step to global_step (every worker, at the start).
  Operation local_step_init_op() const { return local_step_init_op_; }
  /// local_step_init_op and each accumulator's set_global_step.
  Operation chief_init_op() const { return chief_init_op_; }
  /// Whether each global variable is initialized, in global_variables()
  /// order (TensorFlow's report_uninitialized_variables, unreduced).
  const std::vector<std::pair<std::string, Output>>& ready_for_local_init()
      const {
    return ready_;
  }
  Variable local_step() const { return local_step_; }
  int tokens_per_step() const { return tokens_per_step_; }
  int replicas_to_aggregate() const { return replicas_to_aggregate_; }
  int total_num_replicas() const { return total_num_replicas_; }

 private:
  // The gradients of apply_gradients, as the accumulators hand them on.
  struct Accumulated {
    std::vector<Operation> apply_ops;  // each worker's apply_grad
    GradsAndVars taken;                // the means, for the wrapped optimizer
    std::vector<std::pair<ConditionalAccumulator, std::string>> accumulators;
  };
  // The local step, on this worker, and the op that sets it.
  void MakeLocalStep(const Variable& global_step);
  // Per variable, on its device: an accumulator, the worker's
  // apply_grad, and the take of replicas_to_aggregate gradients.
  Accumulated Accumulate(const GradsAndVars& grads_and_vars);
  // The token queue on global_step's device: the workers' train_op
  // (a dequeue after the apply_grads) and the chief's runner of the
  // refill after `update_op`.
  void MakeTokenQueue(const Variable& global_step,
                      const std::vector<Operation>& apply_ops,
                      Operation update_op);

  Optimizer& opt_;
  const int replicas_to_aggregate_;
  const int total_num_replicas_;
  const int tokens_per_step_;
  const std::string name_;
  bool gradients_applied_ = false;
  Variable global_step_;
  Variable local_step_;
  Operation train_op_;
  Operation local_step_init_op_;
  Operation chief_init_op_;
  std::vector<std::pair<std::string, Output>> ready_;
  std::unique_ptr<FIFOQueue> sync_token_queue_;
  std::unique_ptr<QueueRunner> chief_queue_runner_;
};

}  // namespace minitf::train
