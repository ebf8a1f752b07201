#include "minitf/distributed/runtime/rpc/grpc_session.h"

#include <chrono>

#include "minitf/distributed/runtime/local_master.h"
#include "minitf/distributed/runtime/named_answers.h"
#include "minitf/distributed/runtime/proto_convert.h"
#include "minitf/distributed/runtime/rpc/grpc_channel.h"
#include "minitf/distributed/runtime/rpc/grpc_remote_master.h"
#include "minitf/graph/deadline.h"
#include "minitf/graph/graph_def.h"
#include "minitf/graph/proto_convert.h"
#include "minitf/graph/run_metadata.h"
#include "minitf/graph/run_signature.h"

namespace minitf {

namespace {
constexpr std::string_view kScheme = "grpc://";
}  // namespace

// --8<-- [start:pick_master]
StatusOr<std::unique_ptr<GrpcSession>> GrpcSession::Create(
    const SessionOptions& options, std::shared_ptr<Graph> graph) {
  const std::string& target = options.target;
  if (!target.starts_with(kScheme) || target.size() == kScheme.size() ||
      target.find(':', kScheme.size()) == std::string::npos) {
    return errors::InvalidArgument("Invalid target: '", target,
                                   "'; expected grpc://host:port");
  }
  // A server of this process: its master, called directly.
  std::unique_ptr<MasterInterface> master = LocalMaster::Lookup(target);
  if (master == nullptr) {
    master = std::make_unique<GrpcRemoteMaster>(
        NewChannel(target.substr(kScheme.size())));
  }
  return Create(options, std::move(graph), std::move(master));
}
// --8<-- [end:pick_master]

std::unique_ptr<GrpcSession> GrpcSession::Create(
    const SessionOptions& options, std::shared_ptr<Graph> graph,
    std::unique_ptr<MasterInterface> master) {
  return std::unique_ptr<GrpcSession>(
      new GrpcSession(options, std::move(graph), std::move(master)));
}

GrpcSession::GrpcSession(SessionOptions options, std::shared_ptr<Graph> graph,
                         std::unique_ptr<MasterInterface> master)
    : options_(std::move(options)),
      graph_(std::move(graph)),
      master_(std::move(master)) {}

GrpcSession::~GrpcSession() { Close().ok(); }

// --8<-- [start:send_graph]
Status GrpcSession::SendGraph() {
  const int num_nodes = graph_->num_nodes();
  if (!handle_.empty() && sent_nodes_ == num_nodes) return Status::OK();
  TF_ASSIGN_OR_RETURN(GraphDef all, ToGraphDef(*graph_));
  // Only the nodes the master has not seen: a graph only grows.
  GraphDef added;
  *added.mutable_versions() = all.versions();
  for (int i = sent_nodes_; i < all.node_size(); ++i) {
    *added.add_node() = all.node(i);
  }
  if (handle_.empty()) {
    proto::CreateSessionRequest request;
    proto::CreateSessionResponse response;
    *request.mutable_graph_def() = std::move(added);
    *request.mutable_config() = ConfigProtoToProto(options_.config);
    request.set_target(options_.target);
    CallOptions opts;
    TF_RETURN_IF_ERROR(master_->CreateSession(&opts, &request, &response));
    handle_ = response.session_handle();
    graph_version_ = response.graph_version();
  } else {
    proto::ExtendSessionRequest request;
    proto::ExtendSessionResponse response;
    request.set_session_handle(handle_);
    *request.mutable_graph_def() = std::move(added);
    request.set_current_graph_version(graph_version_);
    CallOptions opts;
    TF_RETURN_IF_ERROR(master_->ExtendSession(&opts, &request, &response));
    graph_version_ = response.new_graph_version();
  }
  sent_nodes_ = num_nodes;
  return Status::OK();
}
// --8<-- [end:send_graph]

Status GrpcSession::Run(
    const std::vector<std::pair<std::string, Tensor>>& feeds,
    const std::vector<std::string>& fetch_names,
    const std::vector<std::string>& target_names,
    std::vector<Tensor>* outputs) {
  return Run(RunOptions(), feeds, fetch_names, target_names, outputs, nullptr);
}

// --8<-- [start:run]
Status GrpcSession::Run(
    const RunOptions& run_options,
    const std::vector<std::pair<std::string, Tensor>>& feeds,
    const std::vector<std::string>& fetch_names,
    const std::vector<std::string>& target_names, std::vector<Tensor>* outputs,
    RunMetadata* run_metadata) {
  // The names as the graph spells them ("c" is "c:0"), checked as a local
  // session checks them: an unknown name, or a tensor fed twice, is refused
  // here with the local session's error.
  TF_ASSIGN_OR_RETURN(
      RunSignature sig,
      ResolveRunSignature(*graph_, feeds, fetch_names, target_names));
  // Each tensor is asked for once; its value goes back to every place it
  // was asked (`run({c, c})`).
  std::vector<std::string> fetch_tensors;
  for (const Output& t : sig.fetches) fetch_tensors.push_back(t.name());
  const UniqueNames fetches = UniqueNames::Of(fetch_tensors);

  proto::RunStepRequest request;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (closed_) return errors::FailedPrecondition("Session has been closed.");
    TF_RETURN_IF_ERROR(SendGraph());
    request.set_session_handle(handle_);
  }
  for (size_t i = 0; i < feeds.size(); ++i) {
    proto::NamedTensorProto* feed = request.add_feed();
    feed->set_name(sig.feeds[i].name());
    TF_RETURN_IF_ERROR(TensorToProto(feeds[i].second, feed->mutable_tensor()));
  }
  for (const std::string& f : fetches.names) request.add_fetch(f);
  for (const Node* t : sig.targets) request.add_target(t->name());
  request.mutable_options()->set_timeout_in_ms(run_options.timeout_in_ms);
  request.mutable_options()->set_output_partition_graphs(
      run_options.output_partition_graphs);
  proto::RunStepResponse response;
  // The master ends the step itself at the timeout; a remote call's deadline
  // bounds the wait for its answer too, with a little slack for the answer
  // to arrive.
  CallOptions opts;
  if (run_options.timeout_in_ms > 0) {
    opts.set_deadline(
        DeadlineAfter(std::chrono::system_clock::now(),
                      ClampTimeoutMs(run_options.timeout_in_ms) + 1000));
  }
  TF_RETURN_IF_ERROR(master_->RunStep(&opts, &request, &response));
  // The master answers in an order of its own: each value is matched to its
  // fetch by name.
  TF_ASSIGN_OR_RETURN(std::vector<const proto::TensorProto*> answers,
                      MatchByName(response.tensor(), fetches.names, kFetches));
  std::vector<Tensor> values;
  values.reserve(answers.size());
  for (const proto::TensorProto* answer : answers) {
    TF_ASSIGN_OR_RETURN(Tensor value, TensorFromProto(*answer));
    values.push_back(std::move(value));
  }
  outputs->clear();
  for (int slot : fetches.slot) outputs->push_back(values[slot]);
  if (run_metadata != nullptr) {  // this run's report alone, as DirectSession
    *run_metadata = RunMetadata();
    const auto& graphs = response.metadata().partition_graphs();
    run_metadata->partition_graphs.assign(graphs.begin(), graphs.end());
  }
  return Status::OK();
}
// --8<-- [end:run]

Status GrpcSession::Close() {
  std::lock_guard<std::mutex> lock(mu_);
  if (closed_) return Status::OK();
  closed_ = true;
  if (handle_.empty()) return Status::OK();
  proto::CloseSessionRequest request;
  proto::CloseSessionResponse response;
  request.set_session_handle(handle_);
  // The master's close may wait up to 10 s for the steps' cleanups and 10 s
  // more for the tasks' deletes (MasterSession::TidyDeadline); the client
  // gives it that, and some.
  CallOptions opts;
  opts.set_deadline(DeadlineAfter(std::chrono::system_clock::now(), 30000));
  return master_->CloseSession(&opts, &request, &response);
}

/// The factory of sessions on "grpc://" targets.
class GrpcSessionFactory : public SessionFactory {
 public:
  bool AcceptsOptions(const SessionOptions& options) const override {
    return options.target.starts_with(kScheme);
  }
  StatusOr<std::unique_ptr<SessionInterface>> NewSession(
      const SessionOptions& options, std::shared_ptr<Graph> graph) override {
    TF_ASSIGN_OR_RETURN(std::unique_ptr<GrpcSession> session,
                        GrpcSession::Create(options, std::move(graph)));
    return std::unique_ptr<SessionInterface>(std::move(session));
  }
};

MINITF_REGISTER_SESSION_FACTORY(kGrpcSessionFactory, 0, GrpcSessionFactory);

}  // namespace minitf
