#include "minitf/distributed/runtime/server.h"

#include "minitf/distributed/runtime/rpc/grpc_server.h"
#include "minitf/tensor/errors.h"

namespace minitf::train {

Server::Server(const ClusterSpec& cluster, const std::string& job_name,
               std::optional<int> task_index, const ConfigProto& config,
               const ServerOptions& options) {
  // tf.train.Server's defaults: a cluster of one job needs no job name, a
  // job of one task no index.
  std::string job = job_name;
  if (job.empty()) {
    const std::vector<std::string> jobs = cluster.jobs();
    if (jobs.size() != 1) {
      throw errors::InvalidArgumentError(
          "Must specify an explicit `job_name`.");
    }
    job = jobs[0];
  }
  int index = 0;
  if (task_index.has_value()) {
    index = *task_index;
  } else {
    std::vector<int> indices;
    for (const auto& [name, tasks] : cluster.as_dict()) {
      if (name == job) indices = cluster.task_indices(name);
    }
    if (indices.size() > 1) {
      throw errors::InvalidArgumentError(
          "Must specify an explicit `task_index`.");
    }
    if (!indices.empty()) index = indices[0];
  }
  impl_ = errors::ValueOrThrow(GrpcServer::Create(
      cluster, job, index, config,
      GrpcServerOptions{
          .bind_host = options.bind_host,
          .log_stream = options.log_stream,
          .still_waiting_interval = options.still_waiting_interval}));
  if (options.start) start();
}

Server::Server(Server&&) noexcept = default;
Server& Server::operator=(Server&&) noexcept = default;
Server::~Server() = default;

Server Server::create_local_server(const ConfigProto& config,
                                   const ServerOptions& options) {
  return Server(ClusterSpec({{"localhost", {"localhost:0"}}}), "localhost", 0,
                config, options);
}

void Server::start() { errors::ThrowIfError(impl_->Start()); }

void Server::join() { impl_->Join(); }

void Server::stop() { impl_->Stop(); }

std::string Server::target() const { return impl_->target(); }

}  // namespace minitf::train
