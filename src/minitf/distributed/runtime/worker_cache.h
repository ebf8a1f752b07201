// WorkerCache: how one task reaches the worker service of every task.
//
// A master drives every task of the cluster, and a worker asks other tasks
// for the tensors its graph receives from them (RecvTensor). Both need a
// gRPC stub per task; the cache makes each one on first use, over one
// channel per task, from the addresses of the ClusterSpec, and keeps it for
// the life of the server. Tasks are named as TensorFlow names them,
// "/job:ps/replica:0/task:0", which is also the start of each of their
// devices' names.
//
//   WorkerCache cache(cluster, "/job:worker/replica:0/task:0", 2223);
//   TF_ASSIGN_OR_RETURN(auto* ps0, cache.GetStub("/job:ps/replica:0/task:0"));
//   grpc::ClientContext context;
//   ps0->GetStatus(&context, request, &response);
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "minitf/distributed/runtime/cluster_spec.h"
#include "minitf/distributed/runtime/proto/worker_service.grpc.pb.h"
#include "minitf/tensor/status.h"

namespace minitf {

class Worker;

/// "/job:ps/replica:0/task:0".
std::string TaskName(std::string_view job, int task_index);
/// The task part of a full device name: "/job:ps/replica:0/task:0" for
/// "/job:ps/replica:0/task:0/device:CPU:0"; InvalidArgument when the name
/// has no job or task.
StatusOr<std::string> TaskOfDevice(std::string_view device_name);

/// Stubs to the worker services of a cluster's tasks.
/// Invariants: one channel per task, made on first use and kept.
/// Thread safety: every method may be called from any thread.
class WorkerCache {
 public:
  /// The tasks of `cluster`; the task `local_task` is reached at localhost
  /// and `local_port` (the port its server listens on, which the cluster may
  /// give as 0).
  WorkerCache(train::ClusterSpec cluster, std::string local_task,
              int local_port);

  /// Every task of the cluster, sorted by job and index.
  std::vector<std::string> ListWorkers() const;
  /// The address a task is reached at ("localhost:2222").
  StatusOr<std::string> Address(const std::string& task) const;
  /// The stub of `task`; InvalidArgument "Invalid target: <task>" for a task
  /// not in the cluster. The stub lives as long as the cache.
  StatusOr<tensorflow::WorkerService::Stub*> GetStub(const std::string& task);
  /// The channel GetStub's stub of `task` uses, for calls made with raw
  /// bytes (RpcRendezvous's RecvTensor); errors as GetStub's.
  StatusOr<std::shared_ptr<grpc::Channel>> GetChannel(const std::string& task);

  const std::string& local_task() const { return local_task_; }
  /// The local task's worker, which its master calls directly for a step's
  /// RunGraph and CleanupGraph rather than through gRPC, as TensorFlow's
  /// worker cache hands out its local worker (whose other calls minitf
  /// still makes through gRPC); null until set. REQUIRES: `worker`
  /// outlives the cache's users.
  Worker* local_worker() const { return local_worker_; }
  void set_local_worker(Worker* worker) { local_worker_ = worker; }
  /// The port the local task listens on, once its server has bound one.
  /// REQUIRES: no stub of the local task made yet.
  void set_local_port(int port);

 private:
  const train::ClusterSpec cluster_;
  const std::string local_task_;
  Worker* local_worker_ = nullptr;  // set once, before any call
  mutable std::mutex mu_;
  int local_port_;  // guarded by mu_
  struct Peer {
    std::shared_ptr<grpc::Channel> channel;
    std::unique_ptr<tensorflow::WorkerService::Stub> stub;
  };
  // The peer of `task`, made on first use.
  StatusOr<Peer*> GetPeer(const std::string& task);

  std::mutex stubs_mu_;
  std::map<std::string, Peer> stubs_;  // guarded by stubs_mu_
};

/// The channel arguments minitf's clients use: no limit on message size (a
/// tensor may be as large as a protobuf allows), as TensorFlow's.
std::shared_ptr<grpc::Channel> NewChannel(const std::string& address);

}  // namespace minitf
