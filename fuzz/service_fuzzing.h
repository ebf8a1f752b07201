// Service fuzzing: the task that the fuzzers of the master's and the
// worker's methods call, and the valid requests they start from.
//
// Each service fuzzer decodes its input as one request message and calls
// that method of the master or worker of one in-process task, as the gRPC
// service would (master_service.h, worker_service.h), without the network:
// what is fuzzed is what the task does with a request, not gRPC. The task
// is made once per process and kept. A request whose session or graph
// handle is empty is given the handle of a session (or graph) the fuzzer
// made for it, so that mutations of a valid step reach the step itself and
// not only the "handle is not found" answer.
//
// A valid step may wait: the session graph has a queue that is never
// filled, and fetching its dequeue waits for an element. Every session and
// graph the fuzzers make has an operation timeout (kOperationTimeoutMs), so
// such a step ends with DeadlineExceeded instead of hanging the fuzzer.
//
//   extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
//     minitf::proto::RunStepRequest request;
//     if (!minitf::fuzzing::Parse(data, size, &request)) return 0;
//     minitf::fuzzing::Session session;
//     ...
//   }
#pragma once

#include <cstdint>
#include <string>

#include "minitf/distributed/runtime/proto/master.pb.h"
#include "minitf/distributed/runtime/proto/worker.pb.h"
#include "minitf/distributed/runtime/rpc/grpc_server.h"

namespace minitf::fuzzing {

/// The bound on every step the fuzzers start.
inline constexpr int64_t kOperationTimeoutMs = 500;

/// The task every service fuzzer calls: task 0 of the job "localhost" (its
/// devices are "/job:localhost/replica:0/task:0/device:CPU:0" ...), made on
/// first use and never started: nothing listens, the methods are called
/// directly. Its log goes nowhere.
GrpcServer& Server();

/// The graph of the fuzzers' sessions: a float vector "x" fed, "y" = 2x,
/// and "taken", the dequeue of a queue nothing fills.
proto::GraphDef SessionGraph();

/// A CreateSession of SessionGraph with the operation timeout.
proto::CreateSessionRequest CreateSessionRequest();

/// A session of Server()'s master on SessionGraph, closed when this goes.
class Session {
 public:
  Session();
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  const std::string& handle() const { return handle_; }

 private:
  std::string handle_;
};

/// What a master sends its task's worker for one step of SessionGraph that
/// feeds x and fetches y, recorded from a master of its own driving
/// Server()'s worker: every worker method's valid request, and the seeds of
/// the worker fuzzers.
struct WorkerRequests {
  proto::CreateWorkerSessionRequest create_worker_session;
  /// With create_worker_session_called false, so it registers under any
  /// session handle.
  proto::RegisterGraphRequest register_graph;
  /// With no graph handle (the fuzzers fill in the one they registered).
  proto::RunGraphRequest run_graph;
  proto::CleanupGraphRequest cleanup_graph;
  /// The key under which the step sends y to the client.
  std::string y_key;
};
const WorkerRequests& RecordedWorkerRequests();

/// Rendezvous keys name the sending device's incarnation, a random number
/// each process draws anew. The seeds write it as this marker, and the
/// fuzzers put this process's in its place (LiveKey), so that a recorded
/// key names a value the step really sends.
inline constexpr char kIncarnationMarker[] = "<incarnation>";
/// `key` with kIncarnationMarker replaced by this process's incarnation of
/// the task's CPU, and the reverse.
std::string LiveKey(std::string key);
std::string MarkedKey(std::string key);

/// Registers RecordedWorkerRequests().register_graph on Server()'s worker
/// and returns the graph's handle.
std::string RegisterSessionGraph();

/// Runs `request` (its graph handle filled in when empty with that of a
/// graph of RegisterSessionGraph, made once; its keys made live) on
/// Server()'s worker, bounded by kOperationTimeoutMs. The step's values stay in
/// its rendezvous until a CleanupGraph of its step id.
Status RunGraph(proto::RunGraphRequest request);

/// Runs the recorded step without its fetch, under a step id of its own,
/// and returns that id; what
/// the step leaves in its rendezvous stays until EndStep (or a CleanupGraph
/// of that id).
int64_t RunRecordedStep();
/// CleanupGraph of step `step_id` on Server()'s worker.
void EndStep(int64_t step_id);

}  // namespace minitf::fuzzing
