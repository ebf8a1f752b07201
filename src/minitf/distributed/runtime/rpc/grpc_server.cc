#include "minitf/distributed/runtime/rpc/grpc_server.h"

#include <grpcpp/grpcpp.h>

#include <charconv>
#include <chrono>
#include <climits>
#include <iostream>
#include <map>
#include <thread>

#include "minitf/distributed/runtime/local_master.h"
#include "minitf/distributed/runtime/master.h"
#include "minitf/distributed/runtime/rpc/master_service.h"
#include "minitf/distributed/runtime/rpc/worker_service.h"
#include "minitf/distributed/runtime/worker.h"
#include "minitf/distributed/runtime/worker_cache.h"

namespace minitf {
namespace {

// The port of "host:port": what follows the last ':'. An IPv6 address is
// written "[::1]:2222", so its own colons come before the last one.
StatusOr<int> ParsePort(const std::string& address) {
  const size_t colon = address.rfind(':');
  int port = -1;
  if (colon != std::string::npos) {
    const char* begin = address.data() + colon + 1;
    const char* end = address.data() + address.size();
    auto [last, ec] = std::from_chars(begin, end, port);
    if (ec != std::errc() || last != end || begin == end) port = -1;
  }
  if (port < 0 || port > 65535) {
    return errors::InvalidArgument(
        "Could not parse port for local server from \"", address, "\".");
  }
  return port;
}

}  // namespace

StatusOr<std::unique_ptr<GrpcServer>> GrpcServer::Create(
    const train::ClusterSpec& cluster, const std::string& job_name,
    int task_index, const ConfigProto& config,
    const GrpcServerOptions& options) {
  const train::JobTasks* job = nullptr;
  for (const auto& [name, tasks] : cluster.as_dict()) {
    if (name == job_name) job = &tasks;
  }
  if (job == nullptr) {
    return errors::Internal("Job \"", job_name,
                            "\" was not defined in cluster");
  }
  auto address = job->tasks().find(task_index);
  if (address == job->tasks().end()) {
    return errors::Internal("Task ", task_index, " was not defined in job \"",
                            job_name, "\"");
  }
  std::unique_ptr<GrpcServer> server(new GrpcServer);
  TF_ASSIGN_OR_RETURN(server->requested_port_, ParsePort(address->second));
  server->cluster_ = cluster;
  server->job_name_ = job_name;
  server->task_index_ = task_index;
  server->options_ = options;
  const std::string prefix =
      "/job:" + job_name + "/replica:0/task:" + std::to_string(task_index);
  TF_ASSIGN_OR_RETURN(
      server->devices_,
      DeviceMgr::Create(SessionOptions{.config = config}, prefix));
  const std::string task = TaskName(job_name, task_index);
  server->worker_cache_ =
      std::make_unique<WorkerCache>(cluster, task, server->requested_port_);
  const int threads =
      config.inter_op_parallelism_threads > 0
          ? config.inter_op_parallelism_threads
          : static_cast<int>(std::thread::hardware_concurrency());
  server->worker_ = std::make_unique<Worker>(
      task, server->devices_.get(), server->worker_cache_.get(), threads);
  server->worker_cache_->set_local_worker(server->worker_.get());
  server->master_ = std::make_unique<Master>(
      task, server->devices_.get(), server->worker_cache_.get(),
      MasterOptions{options.still_waiting_interval, options.log_stream});
  server->call_watch_ = std::make_unique<CallWatch>();
  server->worker_service_ = std::make_unique<WorkerServiceImpl>(
      server->worker_.get(), server->call_watch_.get());
  server->master_service_ = std::make_unique<MasterServiceImpl>(
      server->master_.get(), server->call_watch_.get());
  return server;
}

GrpcServer::~GrpcServer() { Stop(); }

std::ostream& GrpcServer::log() const {
  return options_.log_stream != nullptr ? *options_.log_stream : std::cerr;
}

std::string GrpcServer::ChannelCacheLine(const std::string& job,
                                         const train::JobTasks& tasks) const {
  std::string line = "Initialize GrpcChannelCache for job " + job + " -> {";
  const char* separator = "";
  for (const auto& [index, address] : tasks.tasks()) {
    const bool self = job == job_name_ && index == task_index_;
    line += separator + std::to_string(index) + " -> " +
            (self ? "localhost:" + std::to_string(bound_port_) : address);
    separator = ", ";
  }
  return line + "}";
}

Status GrpcServer::Start() {
  std::lock_guard<std::mutex> lock(mu_);
  if (state_ == State::kStopping || state_ == State::kStopped) {
    return errors::FailedPrecondition("Server has been stopped");
  }
  if (state_ == State::kStarted) {
    log() << "Server already started (target: grpc://localhost:" << bound_port_
          << ")\n";
    return Status::OK();
  }
  // --8<-- [start:listen]
  grpc::ServerBuilder builder;
  builder.AddListeningPort(
      options_.bind_host + ":" + std::to_string(requested_port_),
      grpc::InsecureServerCredentials(), &bound_port_);
  // gRPC lets a second server share a port (SO_REUSEPORT), which would hide
  // a port that is taken: calls would go to either server. TensorFlow turns
  // it off for the same reason.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  // A tensor may be as large as a protobuf may be; TensorFlow lifts gRPC's
  // default limit (4 MiB) to the same bound.
  builder.SetMaxMessageSize(INT_MAX);
  builder.RegisterService(master_service_.get());
  builder.RegisterService(worker_service_.get());
  server_ = builder.BuildAndStart();
  // --8<-- [end:listen]
  if (server_ == nullptr || bound_port_ == 0) {
    server_.reset();
    return errors::Unknown("Could not start gRPC server");
  }
  state_ = State::kStarted;
  worker_cache_->set_local_port(bound_port_);
  // Sessions of this process on this target call the master directly.
  local_master_ = LocalMaster::Register(
      "grpc://localhost:" + std::to_string(bound_port_), master_.get());
  // One line per job, in the order of their names, as TensorFlow logs them.
  std::map<std::string, const train::JobTasks*> sorted;
  for (const auto& [name, tasks] : cluster_.as_dict()) sorted[name] = &tasks;
  for (const auto& [name, tasks] : sorted) {
    log() << ChannelCacheLine(name, *tasks) << "\n";
  }
  log() << "Started server with target: grpc://localhost:" << bound_port_
        << "\n";
  return Status::OK();
}

void GrpcServer::Join() {
  std::unique_lock<std::mutex> lock(mu_);
  stopped_.wait(lock, [this] { return state_ == State::kStopped; });
}

void GrpcServer::Stop() {
  std::unique_ptr<grpc::Server> server;
  std::unique_ptr<LocalMaster::Registration> local_master;
  {
    std::unique_lock<std::mutex> lock(mu_);
    // A second Stop returns once the first has finished, so that its caller
    // may destroy the server.
    if (state_ == State::kStopping || state_ == State::kStopped) {
      stopped_.wait(lock, [this] { return state_ == State::kStopped; });
      return;
    }
    state_ = State::kStopping;
    server = std::move(server_);
    local_master = std::move(local_master_);
  }
  if (server != nullptr) {
    server->Shutdown(std::chrono::system_clock::now() +
                     std::chrono::seconds(1));
    server->Wait();
  }
  // Waits, as server->Wait() does for calls over gRPC, for the local
  // sessions' calls in progress.
  local_master.reset();
  {
    std::lock_guard<std::mutex> lock(mu_);
    state_ = State::kStopped;
  }
  stopped_.notify_all();
}

std::string GrpcServer::target() const {
  std::lock_guard<std::mutex> lock(mu_);
  return "grpc://localhost:" +
         std::to_string(state_ == State::kNew ? requested_port_ : bound_port_);
}

}  // namespace minitf
