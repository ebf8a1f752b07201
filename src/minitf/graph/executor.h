// The executor: turns "fetch these, feed those" into a flat list of kernel
// calls, and runs it.
//
// A Session::run names what it wants (fetches), what it supplies (feeds)
// and what must merely happen (targets). Planning answers three questions
// once per such signature: which nodes are needed at all (pruning: walk back
// from fetches and targets, stopping at fed tensors), in what order they can
// run (a topological sort over data and control edges), and where each value
// lives (a slot in a flat array of tensors, with the step after which no one
// reads it again). Running a plan is then a loop over steps that hands each
// kernel pointers into that array: no lookups, no strings, no allocation but
// the kernels' own outputs. This is TensorFlow's DirectSession and executor
// with the parallelism taken out; chapter 4 runs one plan per device.
//
//   TF_ASSIGN_OR_RETURN(std::unique_ptr<ExecutionPlan> plan,
//                       BuildPlan(graph, {x}, {y}, {}, kernel_for_node));
//   std::vector<Tensor> fetched;
//   TF_RETURN_IF_ERROR(RunPlan(*plan, {x_value}, step, &fetched));
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "minitf/graph/graph.h"
#include "minitf/graph/kernel.h"
#include "minitf/tensor/status.h"

namespace minitf {

/// One kernel call. Indices point into the plan's tables and the run's
/// value array; none of them changes after planning.
struct PlanStep {
  OpKernel* kernel = nullptr;
  const Node* node = nullptr;  ///< For error messages only.
  /// Inputs are input_slots[inputs_begin, inputs_begin + num_inputs).
  int32_t inputs_begin = 0;
  int32_t num_inputs = 0;
  /// Outputs are written to value slots [output_slot, + num_outputs).
  int32_t output_slot = 0;
  int32_t num_outputs = 0;
  /// After the call, the values releases[release_begin, release_end) are
  /// dropped: this step was their last reader.
  int32_t release_begin = 0;
  int32_t release_end = 0;
};

/// What is fed: the tensor, whose dtype a fed value has once converted
/// (feed_value.h), and whose shape it fits.
struct PlanFeed {
  Output tensor;
  int32_t slot = 0;
};

/// A compiled run signature.
///
/// Invariants: steps are in an order where every step's data and control
/// predecessors come earlier; every slot a step reads was written by an
/// earlier step or is a fed slot; a fetched slot is never released.
/// Immutable once built, so one plan serves concurrent runs.
struct ExecutionPlan {
  std::vector<PlanStep> steps;
  std::vector<int32_t> input_slots;  ///< Value slot of each step input.
  std::vector<int32_t> releases;     ///< Value slots to drop, by step.
  std::vector<PlanFeed> feeds;       ///< In the order values are passed.
  std::vector<int32_t> fetch_slots;  ///< In the order fetches were asked.
  std::vector<Output> fetches;       ///< The tensors, for error messages.
  /// Per fetch: the step whose kernel reads it again when the steps are
  /// done (RereadRef), for a reference that is not fed; else -1.
  std::vector<int32_t> fetch_reread_steps;
  int32_t num_values = 0;
};

/// Supplies the kernel of a node; the session creates each one once.
using KernelProvider = std::function<StatusOr<OpKernel*>(const Node&)>;

/// Marks the nodes a run needs: the producers of `fetches`, the `targets`,
/// and recursively their data and control inputs, except that a fed tensor
/// is not computed, so the walk stops there (its producer is still needed if
/// something reaches it another way). A fetch that is also fed needs nothing.
/// Returns a flag per node id.
std::vector<bool> PruneForFetches(const Graph& graph,
                                  const std::vector<Output>& feeds,
                                  const std::vector<Output>& fetches,
                                  const std::vector<const Node*>& targets);

/// Of the nodes PruneForFetches keeps, the ones whose kernels must run. A
/// node whose value the run never reads, because it is reached only through
/// control edges (or through the data inputs of such nodes), is not fetched,
/// not a target and has no effect (its op is not stateful, has outputs and
/// no reference argument), only orders: its kernel need not run, and its
/// successors need only follow its own inputs. The gradient graph's gates
/// make such nodes: the product dx of a layer whose input x is a placeholder.
/// TensorFlow's Grappler does the same (its dependency optimizer turns the
/// node into a NoOp and then removes it). Returns a flag per node id; a node
/// needed only to order others is false.
std::vector<bool> NodesToRun(const Graph& graph,
                             const std::vector<Output>& feeds,
                             const std::vector<Output>& fetches,
                             const std::vector<const Node*>& targets);

/// Kahn's algorithm on nodes 0..n-1, where `preds[i]` lists the nodes that
/// must run before node i (repeats allowed). Ties are broken by index, so the
/// order is deterministic: the graph's creation order where it is free.
/// InvalidArgument in TensorFlow's words when there is a cycle:
/// "Graph is invalid, contains a cycle with 2 nodes, including: a, b",
/// naming nodes by `name_of`.
StatusOr<std::vector<int>> TopologicalSort(
    const std::vector<std::vector<int>>& preds,
    const std::function<std::string(int)>& name_of);

/// Plans a run of `graph`. REQUIRES: every Output and Node is in `graph`;
/// feeds are distinct. Errors: a placeholder the run needs but is not fed
/// (InvalidArgument, TensorFlow's "You must feed a value for placeholder
/// tensor ..."), a node without a kernel (NotFound), a kernel whose
/// constructor fails, a cycle.
StatusOr<std::unique_ptr<ExecutionPlan>> BuildPlan(
    const Graph& graph, const std::vector<Output>& feeds,
    const std::vector<Output>& fetches, const std::vector<const Node*>& targets,
    const KernelProvider& kernel_for);

/// What a run passes every kernel besides its tensors.
struct RunEnv {
  Allocator* allocator = nullptr;
  ResourceMgr* resource_manager = nullptr;
  int64_t step_id = 0;
  StepExtension* step_extension = nullptr;
};

/// Runs `plan` with `feed_values` (one per plan.feeds, same order, already
/// checked against them) and returns the fetched tensors in `fetched`. A
/// fetched reference (HasRefType) is read again once every step has run
/// (OpKernel::RereadRef), so `sess.run({train_op, w})` returns `w` after
/// the update, as TensorFlow does. A
/// kernel's error comes back with "\n\t [[{{node NAME}}]]" appended, as
/// TensorFlow 1.14 reports it. A step given an input that holds no value (an
/// uninitialized variable), unless its op allows that, and a fetch of such a
/// value, fail with FailedPrecondition "Attempting to use uninitialized value
/// NAME", NAME being the tensor as TensorFlow names an input ("weight"). Thread
/// safety: concurrent calls on one plan are safe; each keeps its values on its
/// own.
Status RunPlan(const ExecutionPlan& plan,
               const std::vector<Tensor>& feed_values, const RunEnv& env,
               std::vector<Tensor>* fetched);

/// True when `t` is a reference: its op's OpDef declares it Ref(T), as
/// VariableV2's output is.
bool HasRefType(const Output& t);

/// `status` with the node attached, as the executor reports kernel errors.
Status AttachNodeName(const Status& status, const Node& node);

/// FailedPrecondition "Attempting to use uninitialized value NAME": an input
/// or a fetch that holds no value. NAME is the tensor as TensorFlow names an
/// input, "weight" for output 0 and "split:1" otherwise; the overload on a
/// name takes it spelled so already.
Status UninitializedValueError(const Output& t);
Status UninitializedValueError(std::string_view input_name);

/// The placeholder kernel's own complaint, InvalidArgument "You must feed a
/// value for placeholder tensor 'x' with dtype float and shape [?]" with the
/// node attached: what a planner reports when a run needs an unfed
/// placeholder, before any kernel has run.
Status UnfedPlaceholderError(const Node& node);

}  // namespace minitf
