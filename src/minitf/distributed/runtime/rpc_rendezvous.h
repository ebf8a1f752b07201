// RpcRendezvous: the rendezvous of one step on one task, reaching the others.
//
// Chapter 4's rendezvous met a _Send and a _Recv inside one process. When a
// graph spans several tasks, the master cuts it by task (graph_partition.h's
// node_to_loc), so an edge between tasks becomes a _Send in the producer's
// task and a _Recv in the consumer's, with the two devices' full names in
// the key:
//
//   /job:ps/replica:0/task:0/device:CPU:0;<incarnation>;
//   /job:worker/replica:0/task:1/device:CPU:0;v/read:0;0:0
//
// The design is TensorFlow's: a value is always sent locally, into the
// sending task's table, and the *receiver* fetches it. A _Recv whose key
// names a device of this task waits in the local table (an
// IntraProcessRendezvous, which copies between this task's device memories);
// one whose key names another task's device asks the worker cache for that
// task's worker (worker_interface.h) and makes a RecvTensor call to it; the
// worker waits in *its* step's table for the value and answers with it. The
// executor does not change: it sees one Rendezvous. Over gRPC, the answer's
// bytes are the tensor's own buffer on the sending side and are copied
// once, into the received tensor, on this one (tensor_coding.h).
//
// Every task keeps one RpcRendezvous per step, by step id, in its
// RendezvousMgr: a RecvTensor may arrive before the task's own RunGraph of
// that step, so whichever comes first creates it. CleanupGraph ends it.
//
//   RendezvousMgr mgr("/job:ps/replica:0/task:0", &devices, &worker_cache);
//   std::shared_ptr<RpcRendezvous> r = mgr.Find(step_id);
//   ... run the step's executors with r.get() ...
//   mgr.Cleanup(step_id);   // aborts waiters with Aborted "Cleanup <id>"
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "minitf/device/devices/device.h"
#include "minitf/device/devices/device_mgr.h"
#include "minitf/device/partition/intra_process_rendezvous.h"
#include "minitf/device/partition/rendezvous.h"
#include "minitf/distributed/runtime/worker_cache.h"

namespace minitf {

/// One step's rendezvous on one task.
///
/// Invariants: Send is always local; a RecvAsync for a key whose source is
/// another task makes exactly one RecvTensor call and calls `done` once;
/// after StartAbort every call in flight is cancelled (through its
/// CallOptions).
///
/// Thread safety: every method may be called from any thread.
class RpcRendezvous : public Rendezvous {
 public:
  /// `devices` and `workers` must outlive the rendezvous. `rpc_timeout_ms`
  /// bounds each RecvTensor call (0: no bound).
  RpcRendezvous(int64_t step_id, std::string local_task,
                const DeviceMgr* devices, WorkerCache* workers,
                int64_t rpc_timeout_ms);
  ~RpcRendezvous() override;

  Status Send(const ParsedKey& key, const Args& send_args, const Tensor& value,
              bool is_dead) override;
  /// Local keys wait in the local table; others are fetched with
  /// RecvTensor. The fetched value lands in host memory and is copied into
  /// the receiving device's memory when that is not host memory. The
  /// remote task's error (its step aborted) is this call's error.
  void RecvAsync(const ParsedKey& key, const Args& recv_args,
                 DoneCallback done) override;
  void StartAbort(const Status& status) override;

  /// The local table, for the worker's RecvTensor: a value sent here,
  /// copied to host memory.
  void RecvLocalAsync(const ParsedKey& key, DoneCallback done);

  int64_t step_id() const { return step_id_; }
  /// What the step's receives wait for now, sorted, for an error that says
  /// why a step did not finish: "dequeue on <queue>" or "take_grad on
  /// <accumulator>" for a kernel waiting on its resource (wait_list.h),
  /// "<tensor> from <task>" for a value another task has not sent,
  /// "<tensor>" for one this task has not.
  std::vector<std::string> Waiting() const;

 private:
  struct Call;
  void RecvRemote(const ParsedKey& key, const Args& recv_args,
                  DoneCallback done);
  // Cancels every call in flight.
  void CancelCalls();

  const int64_t step_id_;
  const std::string local_task_;
  const DeviceMgr* const devices_;
  Device* const host_;  // the task's CPU, where fetched values land
  WorkerCache* const workers_;
  const int64_t rpc_timeout_ms_;
  // The receives waiting, by id, as Waiting() names them. Declared before
  // local_, whose destructor may still end waiters that erase from it.
  mutable std::mutex waiting_mu_;
  uint64_t next_waiting_ = 0;                // guarded by waiting_mu_
  std::map<uint64_t, std::string> waiting_;  // guarded by waiting_mu_
  IntraProcessRendezvous local_;

  std::mutex mu_;
  std::condition_variable calls_done_;
  std::set<std::shared_ptr<Call>> calls_;  // in flight; guarded by mu_
  Status status_;                          // the abort status; guarded by mu_
};

/// The rendezvous of the steps a task takes part in, by step id.
/// Thread safety: every method may be called from any thread.
class RendezvousMgr {
 public:
  RendezvousMgr(std::string local_task, const DeviceMgr* devices,
                WorkerCache* workers)
      : local_task_(std::move(local_task)),
        devices_(devices),
        workers_(workers) {}

  /// The step's rendezvous, made on first use. A step already cleaned up
  /// gets a fresh rendezvous that is aborted at once with Aborted "Cleanup
  /// <step_id>", so a call for it that comes late fails instead of waiting.
  std::shared_ptr<RpcRendezvous> Find(int64_t step_id,
                                      int64_t rpc_timeout_ms = 0);
  /// Ends the step: aborts its rendezvous with Aborted "Cleanup <step_id>"
  /// (TensorFlow's text), which fails whatever still waits in it, and
  /// forgets it.
  void Cleanup(int64_t step_id);
  /// Ends every step.
  void CleanupAll();

 private:
  // How many ended steps are remembered, to fail late calls for them.
  static constexpr size_t kRememberedSteps = 4096;

  const std::string local_task_;
  const DeviceMgr* const devices_;
  WorkerCache* const workers_;
  std::mutex mu_;
  std::map<int64_t, std::shared_ptr<RpcRendezvous>> steps_;  // guarded by mu_
  std::set<int64_t> ended_;                                  // guarded by mu_
  std::deque<int64_t> ended_order_;                          // guarded by mu_
};

}  // namespace minitf
