// tf::train::Server: the process's task in a cluster, as a program starts it.
//
// A distributed TensorFlow 1.x program starts one server per process, with
// the cluster and which task of it the process is, and then either waits
// (a parameter server: server.join()) or makes a session on the server's
// target and trains (a worker). This is that class; GrpcServer
// (grpc_server.h) is the server underneath, with Status instead of
// exceptions.
//
//   tf::train::ClusterSpec cluster({{"ps", {"localhost:2222"}},
//                                   {"worker", {"localhost:2223"}}});
//   tf::train::Server server(cluster, "ps", 0);   // listening
//   server.target();                              // "grpc://localhost:2222"
//   server.join();                                // until server.stop()
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "minitf/distributed/runtime/cluster_spec.h"
#include "minitf/graph/config.h"

namespace minitf {
class GrpcServer;
}  // namespace minitf

namespace minitf::train {

/// What tf.train.Server's constructor has besides the cluster and the task,
/// and minitf's own choices.
struct ServerOptions {
  /// Start listening in the constructor, as TensorFlow's start=True.
  bool start = true;
  /// minitf's own: the host to listen on. TensorFlow listens on every
  /// interface (0.0.0.0); minitf on localhost unless asked, since a server
  /// runs whatever graph a client sends it.
  std::string bind_host = "localhost";
  /// minitf's own: where the log lines go; nullptr means standard error.
  std::ostream* log_stream = nullptr;
  /// minitf's own: how often the master logs "CreateSession still waiting
  /// for response from worker: ..."; TensorFlow's 10 s by default.
  std::chrono::milliseconds still_waiting_interval{10000};
};

/// tf.train.Server (tf.distribute.Server in TensorFlow 2).
///
/// Errors are thrown as TensorFlow raises them:
/// - InvalidArgumentError (TensorFlow's ValueError) "Must specify an
///   explicit `job_name`." when job_name is empty and the cluster has
///   several jobs, and "Must specify an explicit `task_index`." when no
///   index is given and the job has several tasks;
/// - InternalError "Job \"x\" was not defined in cluster", "Task 3 was not
///   defined in job \"ps\"";
/// - InvalidArgumentError "Could not parse port for local server from
///   \"localhost\".";
/// - UnknownError "Could not start gRPC server" when the port is taken.
class Server {
 public:
  Server(const ClusterSpec& cluster, const std::string& job_name = "",
         std::optional<int> task_index = std::nullopt,
         const ConfigProto& config = {}, const ServerOptions& options = {});
  Server(Server&&) noexcept;
  Server& operator=(Server&&) noexcept;
  /// Stops the server.
  ~Server();

  /// tf.train.Server.create_local_server(): a one-task cluster
  /// {"localhost": ["localhost:0"]}, on a port the system picks.
  static Server create_local_server(const ConfigProto& config = {},
                                    const ServerOptions& options = {});

  /// Starts listening (when constructed with start = false).
  void start();
  /// Blocks until stop() is called from another thread.
  void join();
  /// minitf's own, which TensorFlow's users asked for: stops listening and
  /// wakes join(). A stopped server cannot be started again.
  void stop();
  /// "grpc://localhost:2222": the target a session is made with.
  std::string target() const;

 private:
  std::unique_ptr<GrpcServer> impl_;
};

}  // namespace minitf::train
