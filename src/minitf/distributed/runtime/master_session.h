// MasterSession: one client session, as the master it was made on runs it.
//
// A client's session on "grpc://host:port" lives in the master of that
// task. The master session holds the client's graph (sent with
// CreateSession and grown with ExtendSession), and for each run signature
// (feeds, fetches, targets) it does once what chapter 4's DirectSession
// does in one process, over the whole cluster:
//   1. place every node on a device of the cluster (RemoteDevice per device
//      the tasks reported), with the master's own task preferred for nodes
//      that ask for no device, as in TensorFlow;
//   2. rewrite feeds and fetches into _Recv and _Send nodes on the client
//      device, the CPU of the master's task;
//   3. cut the graph by *task* (Partition with node_to_loc), and register
//      each task's part with that task's worker (RegisterGraph), which cuts
//      it again by device.
// A step is then one RunGraph per task, all at once and with one step id;
// the task of the client device also gets the fed values and returns the
// fetched ones. CleanupGraph on every task ends the step; the master sends
// it and does not wait for the answers, as TensorFlow's does. Every call
// goes through the worker cache's WorkerInterface of its task
// (worker_interface.h), which is the task's own Worker, called directly,
// for the master's task, and a gRPC remote worker for the others: the
// session holds no transport of its own.
//
//   TF_ASSIGN_OR_RETURN(auto session,
//                       MasterSession::Create("sess_1", request, devices,
//                                             tasks, master_task,
//                                             &worker_cache));
//   TF_RETURN_IF_ERROR(session->Run(run_request, &run_response));
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "minitf/device/devices/device_set.h"
#include "minitf/distributed/runtime/proto/master.pb.h"
#include "minitf/distributed/runtime/proto/worker.pb.h"
#include "minitf/distributed/runtime/remote_device.h"
#include "minitf/distributed/runtime/worker_cache.h"
#include "minitf/distributed/runtime/worker_interface.h"
#include "minitf/graph/config.h"
#include "minitf/graph/graph.h"

namespace minitf {

/// Invariants: graph_ holds every node the client sent, those placed
/// keep their device; a cached plan's graphs stay registered until Close.
/// Thread safety: Run may be called from many threads at once; Extend is
/// serialized with planning.
class MasterSession {
 public:
  /// A session on `request.graph_def()` over `devices` (the devices of
  /// `tasks`, as they reported them). Makes a worker session on every one
  /// of `tasks`, the cluster's tasks that the session's device filters name.
  /// Errors: the graph's import errors; InvalidArgument when the master's task
  /// has no CPU; DeadlineExceeded (in minitf's words) when a task does not
  /// answer CreateWorkerSession within the session's operation_timeout_in_ms.
  static StatusOr<std::unique_ptr<MasterSession>> Create(
      std::string handle, const proto::CreateSessionRequest& request,
      const std::vector<DeviceAttributes>& devices,
      const std::vector<std::string>& tasks, const std::string& master_task,
      WorkerCache* workers);
  ~MasterSession();

  /// Adds the nodes of `request.graph_def()`. Aborted when the client's
  /// version is not the session's (another client extended it).
  Status Extend(const proto::ExtendSessionRequest& request,
                proto::ExtendSessionResponse* response);
  /// One step. Errors as DirectSession::Run's, and any task's; Cancelled
  /// when the session is closed under it; DeadlineExceeded (in minitf's
  /// words)
  /// when the first run of a signature cannot register its parts within
  /// the smaller of its RunOptions timeout and operation_timeout_in_ms, or
  /// another run of the signature does not within that time ("Timed out
  /// after <n> ms waiting for another run to register the same fetches,
  /// feeds and targets").
  /// A cancellation of `caller` (when given) while the parts run cancels
  /// them, as Close does, and the step fails with Cancelled.
  Status Run(const proto::RunStepRequest& request,
             proto::RunStepResponse* response, CallOptions* caller = nullptr);
  /// Cancels the steps running now: their RunGraph and RegisterGraph calls
  /// to other tasks are cancelled and their parts on this task's worker
  /// cleaned up, and each fails with Cancelled, in TensorFlow's words (the
  /// step "was cancelled by an explicit call to" the session's close). Then
  /// waits until they are over and their CleanupGraph and DeregisterGraph
  /// calls answered, and
  /// deletes the worker sessions, waiting for no task longer than
  /// TidyDeadline allows. Idempotent.
  Status Close();

  const std::string& handle() const { return handle_; }
  const ConfigProto& config() const { return config_; }

 private:
  struct Plan;
  // A limit on a run's waits: `ms` from the run's start (`ms` <= 0: none).
  // Every wait of one run counts against the same deadline, so that the run
  // as a whole keeps to its timeout.
  struct Limit {
    int64_t ms = 0;
    std::chrono::system_clock::time_point deadline;
    bool limited() const { return ms > 0; }
  };
  // What one RunStep asks for, and the limits of its waits.
  struct Step;
  using RunGraphCalls = std::vector<std::unique_ptr<
      WorkerCall<proto::RunGraphRequest, proto::RunGraphResponse>>>;
  // Counts a step in running_ while it lives (defined in the .cc file).
  class Counted;
  // Holds calls where Close can cancel them (defined in the .cc file).
  class Cancellable;

  MasterSession(std::string handle, ConfigProto config, WorkerCache* workers);
  // A worker session on every task, all asked at once, each given up on at
  // the session's operation timeout.
  Status CreateWorkerSessions(const proto::ConfigProto& config_proto);
  // Places the nodes not placed yet. REQUIRES: mu_ held.
  Status PlaceNewNodes();
  // DeregisterGraph of `graph_handle` on `task`, without waiting for the
  // answer. REQUIRES: called within a counted Run (running_), so that Close
  // waits for the answer (cleanups_).
  void DeregisterUnawaited(const std::string& task,
                           const std::string& graph_handle);
  // Sends `call` with `method` and returns without waiting for the answer;
  // cleanups_ counts the call until its answer, so that Close can wait for
  // it.
  template <typename Request, typename Response>
  void SendUnawaited(std::shared_ptr<WorkerCall<Request, Response>> call,
                     WorkerMethod<Request, Response> method);
  // The deadline of a call that only tidies up (CleanupGraph,
  // DeregisterGraph, DeleteWorkerSession): 10 s from now, or the session's
  // operation_timeout_in_ms when that is shorter.
  std::chrono::system_clock::time_point TidyDeadline() const;
  // Sends CleanupGraph for `step_id` to every task of `plan`, and returns
  // without waiting for the answers.
  void CleanupStep(const Plan& plan, int64_t step_id);
  // The feeds, fetches, targets and limits of `request`.
  StatusOr<Step> ReadStep(const proto::RunStepRequest& request) const;
  // Places and cuts the graph for one run signature, and registers each
  // task's part with it, giving up at `limit`.
  StatusOr<std::shared_ptr<const Plan>> CreatePlan(const Step& step);
  // The RegisterGraph request of each task's part of the graph for `step`,
  // and the rendezvous keys of its feeds and fetches, into `plan`.
  // REQUIRES: mu_ held.
  StatusOr<std::vector<std::pair<std::string, proto::RegisterGraphRequest>>>
  CutParts(const Step& step, Plan* plan);
  // RegisterGraph of each (task, request), all at once: the graph handles,
  // in order. Close cancels the calls. REQUIRES: mu_ not held; called within
  // a counted Run (running_), so that Close waits for what it sends.
  StatusOr<std::vector<std::string>> RegisterParts(
      std::vector<std::pair<std::string, proto::RegisterGraphRequest>> parts,
      const Limit& limit);
  // The RunGraph call of each task's part of `plan` for step `step_id`; the
  // client task's carries the fed values and asks for the fetched ones.
  StatusOr<RunGraphCalls> PrepareParts(const Plan& plan, int64_t step_id,
                                       const Step& step) const;
  // Sends every call of `calls` at once and waits for all of them; the
  // first error ends the step on every task. The step's error, in
  // TensorFlow's choice (StepError), or Cancelled when Close came first.
  Status RunParts(const Plan& plan, int64_t step_id, RunGraphCalls& calls,
                  CallOptions* caller);
  // The fetched values, from the client task's answer, in the order asked.
  Status CollectFetches(const Plan& plan, const RunGraphCalls& calls,
                        const Step& step,
                        proto::RunStepResponse* response) const;

  const std::string handle_;
  const ConfigProto config_;
  WorkerCache* const workers_;
  std::vector<std::unique_ptr<RemoteDevice>> devices_;
  DeviceSet device_set_;
  Device* client_device_ = nullptr;
  std::vector<std::string> tasks_;  // every task of the cluster

  std::mutex mu_;  // guards the graph, its placement and closed_
  Graph graph_;
  int num_placed_ = 0;
  int64_t graph_version_ = 0;
  bool closed_ = false;
  // The RunGraph and RegisterGraph calls of the steps running now, which
  // Close cancels.
  std::set<CallOptions*> in_flight_;  // guarded by mu_
  int running_ = 0;                   // steps in Run; guarded by mu_
  std::condition_variable idle_;      // running_ reached 0
  // The plans by run signature (defined in the .cc file).
  class PlanTable;
  const std::unique_ptr<PlanTable> plans_;

  // Counts calls down to none (defined in the .cc file).
  class CallGroup;
  // The CleanupGraph and DeregisterGraph calls sent and not yet answered.
  // Each call's callback shares it, and may run after the session is gone.
  const std::shared_ptr<CallGroup> cleanups_;
};

}  // namespace minitf
