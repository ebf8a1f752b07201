// GrpcSession: a session whose target is a server, "grpc://host:port".
//
// `tf::Session sess(tf::SessionOptions{.target = server.target()});` gets
// one of these through chapter 2's session factory registry: this layer
// registers a factory that accepts targets starting with "grpc://", so
// programs do not change. The session runs nothing itself. Its first run
// sends the graph to the master of the target's task (CreateSession); a
// later run first sends the nodes added since (ExtendSession); each run is
// one RunStep, with the fed values and the names to fetch, and the master
// answers with the fetched values. Close ends the master's session. The
// session makes those calls through one MasterInterface
// (master_interface.h), picked when it is made: when the target is a server
// of this process, its master, called directly without gRPC
// (local_master.h), as TensorFlow's session does; otherwise the target's
// master service over gRPC (grpc_remote_master.h).
//
//   tf::SessionOptions options{.target = "grpc://localhost:2222"};
//   TF_ASSIGN_OR_RETURN(auto session, tf::NewSession(options, graph));
//   std::vector<tf::Tensor> out;
//   TF_RETURN_IF_ERROR(session->Run({}, {"c:0"}, {}, &out));
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "minitf/distributed/runtime/master_interface.h"
#include "minitf/graph/config.h"
#include "minitf/graph/graph.h"
#include "minitf/graph/session.h"

namespace minitf {

/// Invariants: the master's session, once made, holds the first
/// sent_nodes_ nodes of the graph.
/// Thread safety: Run may be called from several threads at once; the
/// graph is sent under a lock.
class GrpcSession : public SessionInterface {
 public:
  /// A session on the server at options.target ("grpc://host:port"); no
  /// call is made until the first run. InvalidArgument for a target
  /// without a host and port.
  static StatusOr<std::unique_ptr<GrpcSession>> Create(
      const SessionOptions& options, std::shared_ptr<Graph> graph);
  /// A session whose calls go to `master`, whatever options.target says
  /// (the target is still sent with CreateSession, as TensorFlow sends it).
  static std::unique_ptr<GrpcSession> Create(
      const SessionOptions& options, std::shared_ptr<Graph> graph,
      std::unique_ptr<MasterInterface> master);
  ~GrpcSession() override;

  using SessionInterface::Run;
  Status Run(const std::vector<std::pair<std::string, Tensor>>& feeds,
             const std::vector<std::string>& fetch_names,
             const std::vector<std::string>& target_names,
             std::vector<Tensor>* outputs) override;
  /// As Run; run_options.timeout_in_ms bounds the step (DeadlineExceeded).
  /// run_metadata (may be null) is replaced by this run's report: with
  /// run_options.output_partition_graphs, the graph each device of each
  /// task ran. Traces (step_stats) are not carried over the wire: empty.
  Status Run(const RunOptions& run_options,
             const std::vector<std::pair<std::string, Tensor>>& feeds,
             const std::vector<std::string>& fetch_names,
             const std::vector<std::string>& target_names,
             std::vector<Tensor>* outputs, RunMetadata* run_metadata) override;
  Status Close() override;

 private:
  GrpcSession(SessionOptions options, std::shared_ptr<Graph> graph,
              std::unique_ptr<MasterInterface> master);
  // Creates the master's session, or extends it with the new nodes.
  Status SendGraph();

  const SessionOptions options_;
  const std::shared_ptr<Graph> graph_;
  const std::unique_ptr<MasterInterface> master_;
  std::mutex mu_;
  std::string handle_;         // guarded by mu_; empty until created
  int sent_nodes_ = 0;         // guarded by mu_
  int64_t graph_version_ = 0;  // guarded by mu_
  bool closed_ = false;        // guarded by mu_
};

/// The name GrpcSession's factory is registered under.
inline constexpr const char* kGrpcSessionFactory = "GRPC_SESSION";

}  // namespace minitf
