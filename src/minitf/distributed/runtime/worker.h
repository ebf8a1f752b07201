// Worker: what a task does for the masters of its cluster.
//
// A master cuts a client's graph by task and hands each task its part
// (RegisterGraph). The worker cuts that part again, by device, exactly as
// chapter 4's DirectSession cuts a graph (Partition), and builds one
// executor per device. Each step of the client's session is then one
// RunGraph per task, all with the step's id: the worker puts the fed values
// into the step's rendezvous, runs its executors, and answers with the
// values the master asked for. Tensors that cross to another task are
// fetched by the receiving task (RecvTensor, rpc_rendezvous.h); CleanupGraph
// ends the step.
//
// Variables live in the worker's resource managers, one per device, which
// belong to the task and not to a session: a second client session sees the
// values the first one trained, as in TensorFlow, until a Reset clears them
// (CleanupAll).
//
// This class holds the logic; the gRPC service (worker_service.h) only
// translates calls. Every method is one RPC of worker_service.proto. The
// worker is also the WorkerInterface (worker_interface.h) of its own task:
// its master calls it directly, with no gRPC in between, and each such
// call runs on the caller's thread and answers before it returns.
//
//   Worker worker("/job:ps/replica:0/task:0", &devices, &worker_cache);
//   proto::RegisterGraphResponse registered;
//   TF_RETURN_IF_ERROR(worker.RegisterGraph(request, &registered));
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unsupported/Eigen/CXX11/ThreadPool>

#include "minitf/device/devices/device_mgr.h"
#include "minitf/distributed/runtime/proto/worker.pb.h"
#include "minitf/distributed/runtime/rpc_rendezvous.h"
#include "minitf/distributed/runtime/worker_cache.h"
#include "minitf/distributed/runtime/worker_interface.h"
#include "minitf/graph/resource_mgr.h"
#include "minitf/tensor/status.h"

namespace minitf {

/// The worker of one task.
///
/// Invariants: every registered graph has one executor per device of this
/// task it uses; a device's ResourceMgr lives as long as the worker.
///
/// Thread safety: every method may be called from any thread, at once (gRPC
/// calls them from its threads); graphs are built under a lock and then
/// only read.
class Worker final : public WorkerInterface {
 public:
  /// `devices` and `workers` must outlive the worker. `inter_op_threads`
  /// run the executors' nodes.
  Worker(std::string task, const DeviceMgr* devices, WorkerCache* workers,
         int inter_op_threads);
  ~Worker() override;

  /// The attributes of every device of the task.
  Status GetStatus(const proto::GetStatusRequest& request,
                   proto::GetStatusResponse* response) const;
  /// Remembers the session; its graphs are registered under it.
  Status CreateWorkerSession(const proto::CreateWorkerSessionRequest& request);
  /// Forgets the session and deregisters its graphs.
  Status DeleteWorkerSession(const proto::DeleteWorkerSessionRequest& request);
  /// Imports this task's part of a graph (every node with a full device
  /// name of this task), cuts it by device and builds the executors.
  /// Errors: Aborted "Session handle is not found: <h>. Possibly this worker
  /// just restarted." for an unknown session (when the request says it was
  /// created); InvalidArgument for a graph that does not import, or a node
  /// on a device this task does not have.
  Status RegisterGraph(const proto::RegisterGraphRequest& request,
                       proto::RegisterGraphResponse* response);
  /// Forgets a graph; NotFound for an unknown handle.
  Status DeregisterGraph(const proto::DeregisterGraphRequest& request);
  /// Runs a registered graph once, as step request.step_id. `timeout_ms`,
  /// when above 0, is the caller's own deadline, which a master calling its
  /// own task's worker directly passes where gRPC would carry it. Errors:
  /// Aborted "Graph handle is not found: <h>. Possibly, this worker just
  /// restarted." (TensorFlow's text); InvalidArgument for a malformed key
  /// or tensor; DeadlineExceeded "Operation timed out." at `timeout_ms`
  /// when that comes before the session's operation timeout;
  /// DeadlineExceeded "Step <id> on <task> did not finish within
  /// operation_timeout_in_ms (<n> ms); still waiting for: <what>" at the
  /// session's timeout (RpcRendezvous::Waiting names what); the step's
  /// first error.
  Status RunGraph(const proto::RunGraphRequest& request,
                  proto::RunGraphResponse* response, int64_t timeout_ms = 0);
  /// Ends a step: its rendezvous aborts what still waits in it.
  Status CleanupGraph(const proto::CleanupGraphRequest& request);
  /// Reset: frees the variables of `request.container` (all of them when
  /// none is named) on every device, and ends every step.
  Status CleanupAll(const proto::CleanupAllRequest& request);
  // WorkerInterface: each call runs the method above on the calling thread
  // and answers before it returns. RunGraph takes the options' deadline as
  // its `timeout_ms`, and a cancellation of the options ends the step as
  // CleanupGraph does; the others ignore the options (they do not wait).
  // RecvTensor alone has no method above: it waits for the value.
  void GetStatusAsync(CallOptions* opts, const proto::GetStatusRequest* request,
                      proto::GetStatusResponse* response,
                      StatusCallback done) override;
  void CreateWorkerSessionAsync(
      CallOptions* opts, const proto::CreateWorkerSessionRequest* request,
      proto::CreateWorkerSessionResponse* response,
      StatusCallback done) override;
  void DeleteWorkerSessionAsync(
      CallOptions* opts, const proto::DeleteWorkerSessionRequest* request,
      proto::DeleteWorkerSessionResponse* response,
      StatusCallback done) override;
  void RegisterGraphAsync(CallOptions* opts,
                          const proto::RegisterGraphRequest* request,
                          proto::RegisterGraphResponse* response,
                          StatusCallback done) override;
  void DeregisterGraphAsync(CallOptions* opts,
                            const proto::DeregisterGraphRequest* request,
                            proto::DeregisterGraphResponse* response,
                            StatusCallback done) override;
  void RunGraphAsync(CallOptions* opts, const proto::RunGraphRequest* request,
                     proto::RunGraphResponse* response,
                     StatusCallback done) override;
  void CleanupGraphAsync(CallOptions* opts,
                         const proto::CleanupGraphRequest* request,
                         proto::CleanupGraphResponse* response,
                         StatusCallback done) override;
  void CleanupAllAsync(CallOptions* opts,
                       const proto::CleanupAllRequest* request,
                       proto::CleanupAllResponse* response,
                       StatusCallback done) override;
  /// Answers with the value the step sent under the key once it is sent,
  /// on the sending thread, possibly before this returns: the Tensor
  /// itself, sharing its buffer, in host memory (response->allocator is not
  /// used). Answers when the step ends first (Aborted "Cleanup <id>"), and
  /// a cancellation of `opts` ends the step's wait (Cancelled "RecvTensor
  /// cancelled"), as TensorFlow aborts the step, rather than keep a waiter
  /// nobody answers. Errors: InvalidArgument for a malformed key or one
  /// whose source is not a device of this task; Aborted "RecvTensor expects
  /// a different device incarnation: ..." when the key was made for an
  /// earlier incarnation of the device; FailedPrecondition for a variable
  /// sent before it was initialized.
  void RecvTensorAsync(CallOptions* opts,
                       const proto::RecvTensorRequest* request,
                       TensorResponse* response, StatusCallback done) override;

  /// The variables of `device`, a device of this task.
  ResourceMgr* resource_manager(const Device* device) const;
  const std::string& task() const { return task_; }
  /// How many RunGraph calls are running now: what a health check reads,
  /// and what shows that a step whose caller went away has ended.
  int steps_running() const { return steps_running_.load(); }

 private:
  struct Item;

  Status CheckSession(const std::string& handle, bool created) const;
  // The registered graph of `handle`; Aborted "Graph handle is not found".
  StatusOr<std::shared_ptr<const Item>> FindGraph(
      const std::string& handle) const;
  // Runs the executors of `item`'s parts as step `step_id`, and waits for
  // them, ending the step at the smaller of `timeout_ms` (above 0) and the
  // session's operation timeout: the step's status.
  Status RunExecutors(const Item& item, int64_t step_id,
                      RpcRendezvous* rendezvous, int64_t timeout_ms);

  const std::string task_;
  const DeviceMgr* const devices_;
  WorkerCache* const workers_;
  std::map<const Device*, std::unique_ptr<ResourceMgr>> resource_mgrs_;
  std::unique_ptr<Eigen::ThreadPool> pool_;
  RendezvousMgr rendezvous_;
  std::atomic<int> steps_running_{0};

  mutable std::mutex mu_;
  std::set<std::string> sessions_;                             // guarded by mu_
  std::map<std::string, std::shared_ptr<const Item>> graphs_;  // guarded
  int64_t next_graph_ = 0;                                     // guarded by mu_
};

}  // namespace minitf
