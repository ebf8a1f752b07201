#include "service_fuzzing.h"

#include <atomic>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <utility>

#include "minitf/device/devices/device_mgr.h"
#include "minitf/device/partition/rendezvous.h"
#include "minitf/distributed/runtime/master.h"
#include "minitf/distributed/runtime/task_name.h"
#include "minitf/distributed/runtime/worker.h"
#include "minitf/distributed/runtime/worker_cache.h"
#include "minitf/distributed/training/fifo_queue.h"
#include "minitf/graph/graph_def.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/proto_convert.h"
#include "minitf/graph/scope.h"
#include "minitf/tensor/str_split.h"

namespace minitf::fuzzing {
namespace {

const train::ClusterSpec& Cluster() {
  static const train::ClusterSpec cluster({{"localhost", {"localhost:0"}}});
  return cluster;
}

// Where the fuzzers' tasks log: nowhere (a stream without a buffer).
std::ostream& NoLog() {
  static std::ostream none(nullptr);
  return none;
}

// The fuzzers' own mistakes (a valid request that fails) end the process
// with the reason: that is a bug in the fuzzer, not a finding.
void CheckOk(const Status& s, const char* what) {
  if (!s.ok()) {
    std::cerr << "fuzzing setup: " << what << ": " << s << "\n";
    std::abort();
  }
}

// A worker that records the last request of each method it overrides and
// passes every call on to the worker it wraps.
class RecordingWorker final : public ForwardingWorker {
 public:
  using ForwardingWorker::ForwardingWorker;
  WorkerRequests recorded;

  void CreateWorkerSessionAsync(
      CallOptions* opts, const proto::CreateWorkerSessionRequest* request,
      proto::CreateWorkerSessionResponse* response,
      StatusCallback done) override {
    recorded.create_worker_session = *request;
    ForwardingWorker::CreateWorkerSessionAsync(opts, request, response,
                                               std::move(done));
  }
  void RegisterGraphAsync(CallOptions* opts,
                          const proto::RegisterGraphRequest* request,
                          proto::RegisterGraphResponse* response,
                          StatusCallback done) override {
    recorded.register_graph = *request;
    ForwardingWorker::RegisterGraphAsync(opts, request, response,
                                         std::move(done));
  }
  void RunGraphAsync(CallOptions* opts, const proto::RunGraphRequest* request,
                     proto::RunGraphResponse* response,
                     StatusCallback done) override {
    recorded.run_graph = *request;
    ForwardingWorker::RunGraphAsync(opts, request, response, std::move(done));
  }
  void CleanupGraphAsync(CallOptions* opts,
                         const proto::CleanupGraphRequest* request,
                         proto::CleanupGraphResponse* response,
                         StatusCallback done) override {
    recorded.cleanup_graph = *request;
    ForwardingWorker::CleanupGraphAsync(opts, request, response,
                                        std::move(done));
  }
};

// One step of a master of its own over a RecordingWorker of Server()'s
// worker, so that the keys name Server()'s devices.
WorkerRequests Record() {
  GrpcServer& server = Server();
  const std::string task = TaskName("localhost", 0);
  WorkerCache cache(Cluster(), task, 0);
  RecordingWorker recorder(&server.worker());
  cache.set_local_worker(&recorder);
  Master master(task, &server.device_mgr(), &cache, {.log_stream = &NoLog()});
  proto::CreateSessionResponse created;
  CheckOk(master.CreateSession(CreateSessionRequest(), &created),
          "CreateSession");
  proto::RunStepRequest step;
  step.set_session_handle(created.session_handle());
  proto::NamedTensorProto* x = step.add_feed();
  x->set_name("x:0");
  CheckOk(TensorToProto(Tensor({1.f, 2.f, 3.f}), x->mutable_tensor()), "x");
  step.add_fetch("y:0");
  proto::RunStepResponse answer;
  CheckOk(master.RunStep(step, &answer), "RunStep");
  proto::CloseSessionRequest close;
  close.set_session_handle(created.session_handle());
  CheckOk(master.CloseSession(close), "CloseSession");

  WorkerRequests out = std::move(recorder.recorded);
  out.register_graph.set_create_worker_session_called(false);
  out.run_graph.clear_graph_handle();
  out.run_graph.set_create_worker_session_called(false);
  if (out.run_graph.recv_key_size() != 1) {
    std::cerr << "fuzzing setup: the step fetches "
              << out.run_graph.recv_key_size() << " values, not y alone\n";
    std::abort();
  }
  out.y_key = out.run_graph.recv_key(0);
  return out;
}

}  // namespace

GrpcServer& Server() {
  static GrpcServer* server = [] {
    ConfigProto config;
    config.inter_op_parallelism_threads = 2;
    StatusOr<std::unique_ptr<GrpcServer>> made = GrpcServer::Create(
        Cluster(), "localhost", 0, config, {.log_stream = &NoLog()});
    CheckOk(made.status(), "GrpcServer::Create");
    return made->release();
  }();
  return *server;
}

proto::GraphDef SessionGraph() {
  Graph graph;
  {
    graph_scope use(graph);
    Output x = placeholder(DT_FLOAT, {None}, "x");
    multiply(x, constant(Tensor(2.f)), "y");
    FIFOQueue queue(10, {DT_FLOAT}, {TensorShape({})}, "q", "q");
    identity(queue.dequeue(), "taken");
  }
  proto::GraphDef def;
  CheckOk(ToGraphDef(graph, &def), "ToGraphDef");
  return def;
}

proto::CreateSessionRequest CreateSessionRequest() {
  proto::CreateSessionRequest request;
  *request.mutable_graph_def() = SessionGraph();
  request.mutable_config()->set_operation_timeout_in_ms(kOperationTimeoutMs);
  return request;
}

Session::Session() {
  static const proto::CreateSessionRequest request = CreateSessionRequest();
  proto::CreateSessionResponse response;
  CheckOk(Server().master().CreateSession(request, &response), "CreateSession");
  handle_ = response.session_handle();
}

Session::~Session() {
  proto::CloseSessionRequest request;
  request.set_session_handle(handle_);
  (void)Server().master().CloseSession(request);  // gone already: fine
}

const WorkerRequests& RecordedWorkerRequests() {
  static const WorkerRequests recorded = Record();
  return recorded;
}

namespace {

// This process's incarnation of the task's CPU, as a key spells it.
const std::string& Incarnation() {
  static const std::string hex = [] {
    const Device* cpu = Server().device_mgr().ListDevices().front();
    const std::string key =
        Rendezvous::CreateKey(cpu->name(), cpu->attributes().incarnation,
                              cpu->name(), "t", FrameAndIter{});
    return std::string(StrSplit(key, ';').at(1));
  }();
  return hex;
}

std::string Replace(std::string s, const std::string& from,
                    const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos;
       at = s.find(from, at + to.size())) {
    s.replace(at, from.size(), to);
  }
  return s;
}

}  // namespace

std::string LiveKey(std::string key) {
  return Replace(std::move(key), kIncarnationMarker, Incarnation());
}

std::string MarkedKey(std::string key) {
  return Replace(std::move(key), Incarnation(), kIncarnationMarker);
}

std::string RegisterSessionGraph() {
  proto::RegisterGraphResponse response;
  CheckOk(Server().worker().RegisterGraph(
              RecordedWorkerRequests().register_graph, &response),
          "RegisterGraph");
  return response.graph_handle();
}

Status RunGraph(proto::RunGraphRequest request) {
  static const std::string graph = RegisterSessionGraph();
  if (request.graph_handle().empty()) request.set_graph_handle(graph);
  for (proto::NamedTensorProto& sent : *request.mutable_send()) {
    sent.set_name(LiveKey(sent.name()));
  }
  for (std::string& key : *request.mutable_recv_key()) key = LiveKey(key);
  proto::RunGraphResponse response;
  return Server().worker().RunGraph(request, &response, kOperationTimeoutMs);
}

int64_t RunRecordedStep() {
  // A step id the worker has not seen: one it has ended (the recording
  // master's own step among them) stays ended, its rendezvous aborted.
  static std::atomic<int64_t> next_step_id{int64_t{1} << 40};
  proto::RunGraphRequest step = RecordedWorkerRequests().run_graph;
  step.set_step_id(next_step_id++);
  step.clear_recv_key();
  (void)RunGraph(step);
  return step.step_id();
}

void EndStep(int64_t step_id) {
  proto::CleanupGraphRequest cleanup;
  cleanup.set_step_id(step_id);
  (void)Server().worker().CleanupGraph(cleanup);
}

}  // namespace minitf::fuzzing
