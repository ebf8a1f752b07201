// The parallel executor: runs one device's graph, many ops at once.
//
// Chapter 2's executor sorts the graph and calls one kernel after another.
// That wastes a machine with several cores, or several devices: two matmuls
// that do not depend on each other could run at the same time. This
// executor, TensorFlow's, keeps for every node a count of the inputs it
// still waits for (data and control edges). A node whose count is zero is
// ready; when a node finishes, each successor's count drops by one, and
// those that reach zero are ready in turn. Handing a node to another thread
// of the inter-op pool costs microseconds, so, as in TensorFlow, a thread
// keeps what is cheap (constants, _Recv, _Send, Identity) and one other
// ready node when it has nothing else to do, and hands the rest to the
// pool: a chain runs on one thread without a hand-off, and independent
// branches spread over the pool. A _Recv is asynchronous
// (async_op_kernel.h): it frees its thread while it waits, and its
// successors become ready when the value arrives.
//
// Around each kernel it runs, the executor makes the device's kernel
// allocator the thread's default (ScopedDefaultAllocator, allocator.h), so
// that what the kernel makes, through layer 1's functions too, lies in the
// device's memory: a virtual GPU's limit refuses it with TensorFlow's OOM
// error, naming the node, and its statistics count it.
//
// A DirectSession runs one executor per device partition of a step, all at
// once, sharing the step's rendezvous; an ExecutorBarrier joins them. The
// first error of any executor is the step's: it is recorded, the rendezvous
// is aborted with it (so a _Recv waiting on another device fails at once
// instead of waiting for ever), and every executor stops starting nodes.
// Nodes already running finish; then each executor reports, and the step
// fails with that first error, reported once.
//
//   TF_ASSIGN_OR_RETURN(auto exec, tf::ParallelExecutor::Create(
//                                      graph, device, kernel_for));
//   tf::ParallelExecutor::Args args;
//   args.rendezvous = &rendezvous;
//   args.runner = [&](std::function<void()> fn) { pool.Schedule(fn); };
//   TF_RETURN_IF_ERROR(exec->Run(args));
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "minitf/device/devices/device.h"
#include "minitf/device/devices/device_context.h"
#include "minitf/device/partition/rendezvous.h"
#include "minitf/device/session/step_stats_collector.h"
#include "minitf/graph/executor.h"
#include "minitf/graph/graph.h"
#include "minitf/graph/resource_mgr.h"

namespace minitf {

class AsyncOpKernel;

/// Runs a closure, now or later, on some thread (an inter-op pool's).
using Runner = std::function<void(std::function<void()>)>;

/// TensorFlow's ExecutorBarrier: what the executors of one step share.
///
/// Invariants: status() is the first error reported (Abort or
/// ExecutorDone), never replaced; once aborted() is true it stays true;
/// `done` is called once, after the last of the `num_executors` calls to
/// ExecutorDone.
///
/// Thread safety: every method may be called from any thread. `done` is
/// called without the barrier's lock held; the barrier may be destroyed as
/// soon as `done` has been called.
class ExecutorBarrier {
 public:
  /// `rendezvous` (may be null) is aborted at the first error.
  ExecutorBarrier(int num_executors, Rendezvous* rendezvous,
                  StatusCallback done);

  /// Records `status` if it is the step's first error, then aborts the
  /// rendezvous with it and marks the step aborted. An executor calls this
  /// at its failing node, before it has finished: waiting for its own end
  /// could wait for a _Recv that only the abort releases.
  /// REQUIRES: !status.ok().
  void Abort(const Status& status);
  /// True once any error was reported: executors start no more nodes.
  bool aborted() const { return aborted_.load(std::memory_order_acquire); }
  /// One executor has finished, with its own first error or OK.
  void ExecutorDone(const Status& status);

 private:
  Rendezvous* const rendezvous_;
  StatusCallback done_;
  std::atomic<bool> aborted_{false};
  std::mutex mu_;
  int pending_;    // guarded by mu_
  Status status_;  // guarded by mu_
};

/// The kernel of `node` for `device`, as every session makes one: from the
/// kernel registry for the device's type, with what the kernel keeps from
/// its construction (a Const's value) in the device's memory. A kernel
/// borrowed from the CPU (chapter 4's aliases) reads and writes its tensors
/// as host memory: where the CPU cannot read the device's memory (a real
/// GPU's) it is made under the CPU's allocator, and the device adopts it
/// (Device::AdoptCpuKernel) or refuses it. Errors: the registry's, the
/// device's refusal.
StatusOr<std::unique_ptr<OpKernel>> CreateKernelOnDevice(const Node& node,
                                                         Device* device);

/// The executor of one device's graph.
///
/// Invariants (after Create): every node has a kernel; a node's predecessor
/// count is its number of data inputs plus control inputs, not counting
/// those from the preamble; each output has a value slot, and each slot
/// knows how many inputs read it, so a value is freed as soon as its last
/// reader has run (a preamble value at the end of the step). Immutable, so one
/// executor serves concurrent steps, each with its own values and counts.
///
/// Algorithm of a step: first the preamble, the constants and variables,
/// which no other node counts as a predecessor; then the other nodes
/// without predecessors are ready. Running a
/// node: unless the step is aborted, check its inputs hold values (or that
/// its op allows them not to), call its kernel (ComputeAsync for an
/// AsyncOpKernel), check its outputs, free the inputs it was the last
/// reader of, and decrement its successors' counts; the successors that
/// reach zero are ready: kept by this thread or handed to the runner as
/// the file comment says. The executor counts nodes ready or running; when
/// that count reaches zero the step is over on this device.
///
/// Thread safety: RunAsync may be called from many threads at once.
class ParallelExecutor {
 public:
  /// Compiles `graph`, whose nodes all run on `device`, taking each node's
  /// kernel from `kernel_for`. REQUIRES: `graph`, `device` and the kernels
  /// outlive the executor. Errors: a kernel that cannot be made, a cycle.
  static StatusOr<std::unique_ptr<ParallelExecutor>> Create(
      const Graph* graph, Device* device, const KernelProvider& kernel_for);

  ~ParallelExecutor();

  /// What one step gives the executor. Pointers are not owned and must
  /// outlive the step on this executor.
  struct Args {
    int64_t step_id = 0;
    Rendezvous* rendezvous = nullptr;  ///< For _Send and _Recv.
    ResourceMgr* resource_manager = nullptr;
    /// Where errors go; RunAsync requires one.
    ExecutorBarrier* barrier = nullptr;
    /// Per-node timings when not null (a traced run).
    StepStatsCollector* stats = nullptr;
    /// Where ready nodes beyond the first go. REQUIRED.
    Runner runner;
    /// The session's ConfigProto::operation_timeout_in_ms, handed to the
    /// kernels through their RendezvousStepExtension.
    int64_t operation_timeout_in_ms = 0;
  };

  /// Runs the graph once; calls `done` with this executor's first error, or
  /// OK, when every started node has finished. The nodes ready at the start
  /// run in the calling thread (one) and on the runner (the rest).
  void RunAsync(const Args& args, StatusCallback done) const;
  /// RunAsync for callers that wait, with a barrier of its own when
  /// args.barrier is null; returns the step's first error.
  Status Run(Args args) const;

  const Graph& graph() const { return *graph_; }
  Device* device() const { return device_; }

 private:
  struct Item;
  struct RunState;

  ParallelExecutor(const Graph* graph, Device* device);

  // Runs node `id`'s kernel, checked and timed; the status to pass
  // NodeDone, unless `*later`: an asynchronous kernel still running, whose
  // callback will finish the node.
  Status RunNode(RunState* s, int32_t id, bool* later) const;
  // What node `item`'s kernel is called with: its inputs and outputs among
  // the step's values, the device's allocator, the step's resources.
  OpKernelContext::Params KernelParams(RunState* s, const Item& item) const;
  // Calls `item`'s synchronous kernel on the device's memory and intra-op
  // threads; the kernel's status.
  Status Compute(const Item& item, const OpKernelContext::Params& params) const;
  // Starts node `id`'s asynchronous kernel, taking its trace record from
  // `stats`. False when the kernel finished before it returned: then
  // `*status` is its status and `*stats` its record back. True when it
  // finishes later: its callback then finishes the node.
  bool ComputeAsync(RunState* s, int32_t id,
                    const OpKernelContext::Params& params,
                    std::optional<NodeExecStats>* stats, Status* status) const;
  // Runs the nodes of `queue` and then, in this thread, the ready
  // successors it keeps, until none is left.
  void Process(RunState* s, std::vector<int32_t> queue) const;
  // After node `id` finished with `status`: frees inputs, appends the
  // successors made ready to `ready` (none on error). True when the step is
  // over on this executor.
  bool NodeDone(RunState* s, int32_t id, const Status& status,
                std::vector<int32_t>* ready) const;
  // Ready nodes go to `queue`, for this thread, or to the runner: cheap
  // ones to the queue, and one other too when the thread has nothing else
  // to do (`queue_busy` false and nothing cheap). All to the runner when
  // `queue` is null.
  void ScheduleReady(RunState* s, const std::vector<int32_t>& ready,
                     std::vector<int32_t>* queue, bool queue_busy) const;
  // Checks and times a finished kernel call; the status to pass NodeDone.
  Status AfterCompute(RunState* s, const Item& item, Status status) const;
  // Reports the end of the step and frees `s`.
  void Finish(RunState* s) const;
  // The input check of chapter 2's executor: FailedPrecondition for an
  // input that holds no value, naming the tensor as the user wrote it.
  Status CheckInputs(const RunState& s, const Item& item) const;

  const Graph* const graph_;
  Device* const device_;
  // The device's threads for the work inside one op, or nullptr (the
  // process's);
  // named around each kernel (kernels/intra_op.h).
  Eigen::ThreadPoolInterface* const intra_op_pool_;
  std::vector<Item> items_;
  std::vector<int32_t> input_slots_;   // value slot of each node input
  std::vector<int32_t> successors_;    // by node, one entry per edge
  std::vector<int32_t> readers_;       // by value slot
  std::vector<int32_t> predecessors_;  // by node: data and control inputs
  std::vector<int32_t> preamble_;      // cheap sources, run first (see Create)
  std::vector<int32_t> roots_;         // the other nodes with no predecessors
  int32_t num_values_ = 0;
};

}  // namespace minitf
