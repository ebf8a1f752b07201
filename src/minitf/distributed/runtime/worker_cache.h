// WorkerCache: how one task reaches the worker of every task.
//
// A master drives every task of the cluster, and a worker asks other tasks
// for the tensors its graph receives from them (RecvTensor). The cache
// hands out, by task name, the WorkerInterface (worker_interface.h) that
// reaches a task: the task's own Worker, called directly, for the local
// task once the server has set it, and a gRPC remote worker for every
// other task, over one channel per task, made on first use from the
// addresses of the ClusterSpec and kept for the life of the server. Each
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

// The channels are gRPC's; only the files that open them need its headers.
namespace grpc {
class Channel;
}  // namespace grpc

namespace minitf {

/// The workers of a cluster's tasks.
/// Invariants: one channel per task, made on first use and kept; one
/// WorkerInterface per task, kept as long as the cache.
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
  /// The channel to `task`'s worker service, for calls made with raw bytes
  /// (RpcRendezvous's RecvTensor); errors as GetWorker's.
  StatusOr<std::shared_ptr<grpc::Channel>> GetChannel(const std::string& task);

  const std::string& local_task() const { return local_task_; }
  /// The local task's worker, which GetWorker hands out for the local task
  /// from now on, as TensorFlow's worker cache hands out its local worker:
  /// the master's calls to its own task are then direct calls. REQUIRES:
  /// called before any GetWorker of the local task; `worker` outlives the
  /// cache's users.
  void set_local_worker(WorkerInterface* worker);
  /// The port the local task listens on, once its server has bound one.
  /// REQUIRES: no channel to the local task made yet.
  void set_local_port(int port);

 private:
  struct Peer;
  // The peer of `task`, made on first use.
  StatusOr<Peer*> GetPeer(const std::string& task);

  const train::ClusterSpec cluster_;
  const std::string local_task_;
  std::unique_ptr<WorkerInterface> local_worker_;  // set once, before any call
  mutable std::mutex mu_;
  int local_port_;  // guarded by mu_
  std::mutex peers_mu_;
  std::map<std::string, std::unique_ptr<Peer>> peers_;  // guarded by peers_mu_
};

/// The channel arguments minitf's clients use: no limit on message size (a
/// tensor may be as large as a protobuf allows), as TensorFlow's.
std::shared_ptr<grpc::Channel> NewChannel(const std::string& address);

}  // namespace minitf
