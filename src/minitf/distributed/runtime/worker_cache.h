// WorkerCache: how one task reaches the worker of every task.
//
// A master drives every task of the cluster, and a worker asks other tasks
// for the tensors its graph receives from them (RecvTensor). The cache
// hands out, by task name, the WorkerInterface (worker_interface.h) that
// reaches a task: the task's own Worker, called directly, for the local
// task once the server has set it, and a gRPC remote worker
// (grpc_remote_worker.h) for every other task, over one channel per task,
// made on first use from the addresses of the ClusterSpec and kept for the
// life of the server. Its callers see workers only, never a channel. Each
// comes wrapped in the RPC trace's recorder (rpc_trace.h), so that a step's
// calls are recorded where they are made. Tasks are named as TensorFlow
// names them, "/job:ps/replica:0/task:0", which is also the start of each
// of their devices' names.
//
//   WorkerCache cache(cluster, "/job:worker/replica:0/task:0", 2223);
//   TF_ASSIGN_OR_RETURN(WorkerInterface* ps0,
//                       cache.GetWorker("/job:ps/replica:0/task:0"));
//   CallOptions opts;
//   Status s = CallAndWait([&](StatusCallback done) {
//     ps0->GetStatusAsync(&opts, &request, &response, std::move(done));
//   });
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "minitf/distributed/runtime/cluster_spec.h"
#include "minitf/distributed/runtime/task_name.h"
#include "minitf/distributed/runtime/worker_interface.h"
#include "minitf/tensor/status.h"

namespace minitf {

/// The workers of a cluster's tasks.
/// Invariants: one WorkerInterface per task, made on first use and kept as
/// long as the cache; for a task reached over gRPC, one channel.
/// Thread safety: every method may be called from any thread.
class WorkerCache {
 public:
  /// The tasks of `cluster`; the task `local_task` is reached at localhost
  /// and `local_port` (the port its server listens on, which the cluster may
  /// give as 0).
  WorkerCache(train::ClusterSpec cluster, std::string local_task,
              int local_port);
  ~WorkerCache();

  /// Every task of the cluster, sorted by job and index.
  std::vector<std::string> ListWorkers() const;
  /// The address a task is reached at ("localhost:2222").
  StatusOr<std::string> Address(const std::string& task) const;
  /// The worker of `task`: the local worker, when `task` is the local task
  /// and one is set; otherwise the task's worker service over gRPC.
  /// InvalidArgument "Invalid target: <task>" for a task not in the
  /// cluster. The worker lives as long as the cache.
  StatusOr<WorkerInterface*> GetWorker(const std::string& task);

  const std::string& local_task() const { return local_task_; }
  /// The local task's worker, which GetWorker hands out for the local task
  /// from now on, as TensorFlow's worker cache hands out its local worker:
  /// the master's calls to its own task are then direct calls. REQUIRES:
  /// called before any GetWorker of the local task; `worker` outlives the
  /// cache's users.
  void set_local_worker(WorkerInterface* worker);
  /// The port the local task listens on, once its server has bound one.
  /// REQUIRES: no remote worker of the local task made yet.
  void set_local_port(int port);

 private:
  struct Peer;

  const train::ClusterSpec cluster_;
  const std::string local_task_;
  std::unique_ptr<WorkerInterface> local_worker_;  // set once, before any call
  mutable std::mutex mu_;
  int local_port_;  // guarded by mu_
  std::mutex peers_mu_;
  std::map<std::string, std::unique_ptr<Peer>> peers_;  // guarded by peers_mu_
};

}  // namespace minitf
