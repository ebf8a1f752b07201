// GrpcServer: one task of a cluster, serving over gRPC.
//
// A task is one process of the cluster. Its server listens at the task's
// address and answers two services on the one port: the master service,
// which clients make their sessions with, and the worker service, which
// masters run graphs with (master_service.h, worker_service.h). The server
// owns the task's devices, named under the task
// ("/job:worker/replica:0/task:1/device:CPU:0"), which chapter 4's device
// factories create.
//
// As TensorFlow's GrpcServer, it logs one line per job of the cluster, with
// the addresses it will reach that job's tasks at, and one line when it
// serves:
//
//   Initialize GrpcChannelCache for job ps -> {0 -> localhost:2222}
//   Initialize GrpcChannelCache for job worker -> {0 -> localhost:2223}
//   Started server with target: grpc://localhost:2222
//
// Unlike TensorFlow's, it listens on localhost unless told otherwise
// (GrpcServerOptions::bind_host): a server runs any graph a client sends,
// and a graph can read and write files, so it should be reachable from
// other machines only when asked. And it stops cleanly.
//
//   TF_ASSIGN_OR_RETURN(auto server,
//                       GrpcServer::Create(cluster, "ps", 0, config, {}));
//   TF_RETURN_IF_ERROR(server->Start());
//   server->Join();   // until another thread calls Stop()
#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>

#include "minitf/device/devices/device_mgr.h"
#include "minitf/distributed/runtime/cluster_spec.h"
#include "minitf/distributed/runtime/local_master.h"
#include "minitf/graph/config.h"
#include "minitf/tensor/status.h"

namespace grpc {
class Server;
}  // namespace grpc

namespace minitf {

class CallWatch;
class Master;
class MasterServiceImpl;
class Worker;
class WorkerCache;
class WorkerServiceImpl;

/// How a server listens and where it logs; minitf's own, not TensorFlow's.
struct GrpcServerOptions {
  /// The host to listen on, with the port of the task's address. "localhost"
  /// by default; "0.0.0.0" listens on every interface, as TensorFlow does.
  std::string bind_host = "localhost";
  /// Where the server's log lines go; nullptr means standard error, where
  /// TensorFlow's LOG(INFO) goes.
  std::ostream* log_stream = nullptr;
  /// How often the master logs "CreateSession still waiting for response
  /// from worker: ..." (TensorFlow: every 10 s).
  std::chrono::milliseconds still_waiting_interval{10000};
};

/// One task's server.
///
/// States: created (bound to nothing) -> Start() -> started (listening) ->
/// Stop() -> stopped. A stopped server stays stopped.
/// Thread safety: every method is safe from any thread.
class GrpcServer {
 public:
  /// A server for task `task_index` of job `job_name`, not yet listening.
  /// Errors, in TensorFlow's words:
  /// - Internal "Job \"x\" was not defined in cluster";
  /// - Internal "Task 3 was not defined in job \"ps\"";
  /// - InvalidArgument "Could not parse port for local server from
  ///   \"localhost:abc\"." for an address without a port in 0..65535;
  /// - the device factories' errors for `config`.
  static StatusOr<std::unique_ptr<GrpcServer>> Create(
      const train::ClusterSpec& cluster, const std::string& job_name,
      int task_index, const ConfigProto& config,
      const GrpcServerOptions& options);
  ~GrpcServer();

  /// Listens at bind_host and the task's port (port 0: one the system
  /// picks), and logs the lines above. Unknown "Could not start gRPC
  /// server" when it cannot listen (the port is taken), as TensorFlow.
  /// Starting a started server logs "Server already started (target:
  /// grpc://...)" and is OK; FailedPrecondition once stopped.
  Status Start();
  /// Blocks until the server has stopped. (TensorFlow's blocks for ever: it
  /// has no Stop.)
  void Join();
  /// Stops listening, lets calls in progress finish for up to a second and
  /// cancels those still running, and wakes every Join(). Stopping twice, or
  /// a server never started, is fine.
  void Stop();

  /// "grpc://localhost:2222": the target a client's session names. The port
  /// is the one listened on once started (so a port 0 in the address shows
  /// the port the system picked).
  std::string target() const;
  const std::string& job_name() const { return job_name_; }
  int task_index() const { return task_index_; }
  const train::ClusterSpec& cluster() const { return cluster_; }
  /// The task's devices.
  const DeviceMgr& device_mgr() const { return *devices_; }
  /// The task's worker, which holds its variables.
  Worker& worker() const { return *worker_; }
  /// The task's master, which the clients' sessions talk to.
  Master& master() const { return *master_; }

 private:
  enum class State { kNew, kStarted, kStopping, kStopped };

  GrpcServer() = default;
  std::ostream& log() const;
  // The channel cache's line for one job, with this task's address as
  // localhost and the port listened on (TensorFlow's ParseChannelSpec).
  std::string ChannelCacheLine(const std::string& job,
                               const train::JobTasks& tasks) const;

  train::ClusterSpec cluster_;
  std::string job_name_;
  int task_index_ = 0;
  int requested_port_ = 0;
  GrpcServerOptions options_;
  std::unique_ptr<DeviceMgr> devices_;
  std::unique_ptr<WorkerCache> worker_cache_;
  std::unique_ptr<Worker> worker_;
  std::unique_ptr<Master> master_;
  // Ends the steps whose callers went away (call_watch.h).
  std::unique_ptr<CallWatch> call_watch_;
  std::unique_ptr<WorkerServiceImpl> worker_service_;
  std::unique_ptr<MasterServiceImpl> master_service_;
  // The master's entry in the process's table of local masters, while the
  // server is started.
  std::unique_ptr<LocalMaster::Registration> local_master_;

  mutable std::mutex mu_;
  std::condition_variable stopped_;
  State state_ = State::kNew;
  int bound_port_ = 0;
  std::unique_ptr<grpc::Server> server_;
};

}  // namespace minitf
