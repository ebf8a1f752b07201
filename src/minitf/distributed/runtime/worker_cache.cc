#include "minitf/distributed/runtime/worker_cache.h"

#include "minitf/distributed/runtime/rpc/grpc_channel.h"
#include "minitf/distributed/runtime/rpc/grpc_remote_worker.h"
#include "minitf/distributed/runtime/rpc_trace.h"
#include "minitf/tensor/errors.h"

namespace minitf {

// A task reached over gRPC: its worker, and the worker as the trace
// records it.
struct WorkerCache::Peer {
  std::unique_ptr<WorkerInterface> remote;
  std::unique_ptr<WorkerInterface> traced;
};

WorkerCache::WorkerCache(train::ClusterSpec cluster, std::string local_task,
                         int local_port)
    : cluster_(std::move(cluster)),
      local_task_(std::move(local_task)),
      local_port_(local_port) {}

WorkerCache::~WorkerCache() = default;

void WorkerCache::set_local_worker(WorkerInterface* worker) {
  local_worker_ =
      std::make_unique<TracingWorker>(local_task_, local_task_, worker);
}

std::vector<std::string> WorkerCache::ListWorkers() const {
  std::map<std::string, const train::JobTasks*> sorted;
  for (const auto& [name, tasks] : cluster_.as_dict()) sorted[name] = &tasks;
  std::vector<std::string> out;
  for (const auto& [name, tasks] : sorted) {
    for (const auto& [index, address] : tasks->tasks()) {
      out.push_back(TaskName(name, index));
    }
  }
  return out;
}

void WorkerCache::set_local_port(int port) {
  std::lock_guard<std::mutex> lock(mu_);
  local_port_ = port;
}

StatusOr<std::string> WorkerCache::Address(const std::string& task) const {
  if (task == local_task_) {
    std::lock_guard<std::mutex> lock(mu_);
    return StrCat("localhost:", local_port_);
  }
  for (const auto& [name, tasks] : cluster_.as_dict()) {
    for (const auto& [index, address] : tasks.tasks()) {
      if (TaskName(name, index) == task) return address;
    }
  }
  return errors::InvalidArgument("Invalid target: ", task);
}

StatusOr<WorkerInterface*> WorkerCache::GetWorker(const std::string& task) {
  if (task == local_task_ && local_worker_ != nullptr) {
    return local_worker_.get();
  }
  TF_ASSIGN_OR_RETURN(std::string address, Address(task));
  std::lock_guard<std::mutex> lock(peers_mu_);
  std::unique_ptr<Peer>& peer = peers_[task];
  if (peer == nullptr) {
    peer = std::make_unique<Peer>();
    peer->remote = std::make_unique<GrpcRemoteWorker>(NewChannel(address));
    peer->traced =
        std::make_unique<TracingWorker>(local_task_, task, peer->remote.get());
  }
  return peer->traced.get();
}

}  // namespace minitf
