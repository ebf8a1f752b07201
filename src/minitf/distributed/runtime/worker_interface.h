// WorkerInterface: how a master reaches the worker of a task, wherever it
// runs.
//
// A master drives every task of its cluster with the calls of the worker
// service (worker_service.proto): it asks for their devices (GetStatus),
// makes a worker session on each, registers each task's part of a graph,
// runs the parts of a step and ends it. One of those tasks is its own; the
// others are processes reached over gRPC. This interface is the seam
// between the two, as TensorFlow's WorkerInterface is: one asynchronous
// method per call, taking the request and filling the response, and
// answering through a callback. The task's own Worker (worker.h)
// implements it by calling itself, with no gRPC in between; a gRPC remote
// worker (grpc_remote_worker.h) implements it over a channel to another
// task; the worker cache (worker_cache.h) hands out the one for a task by
// its name, so that the master never asks which it holds.
//
// Every call answers exactly once, on any thread. An implementation may
// answer on the calling thread before the method returns: the in-process
// Worker does, and its RunGraph returns only once its part of the step is
// over, so a caller that fans a step out to every task sends the part that
// waits for the others' values last.
//
// CallOptions carries what a call is given besides its request: a
// deadline, whether to wait for a task that is not up yet, and a way to
// cancel it while it runs (a master's Close cancels the steps in flight).
//
//   CallOptions opts;
//   opts.set_deadline(std::chrono::system_clock::now() + 5s);
//   proto::GetStatusRequest request;
//   proto::GetStatusResponse response;
//   TF_ASSIGN_OR_RETURN(WorkerInterface* ps0,
//                       cache.GetWorker("/job:ps/replica:0/task:0"));
//   ps0->GetStatusAsync(&opts, &request, &response,
//                       [](const Status& s) { ... });
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>  // IWYU pragma: keep (std::thread::id)
#include <utility>
#include <vector>

#include "minitf/distributed/runtime/proto/worker.pb.h"
#include "minitf/tensor/status.h"

namespace minitf {

/// What a call answers with.
using StatusCallback = std::function<void(const Status&)>;

/// What a call is given besides its request. One CallOptions serves one
/// call at a time.
/// Thread safety: StartCancel may be called from any thread while the call
/// runs; the setters only before the call starts.
class CallOptions {
 public:
  using Clock = std::chrono::system_clock;

  /// When the call gives up with DeadlineExceeded; none by default.
  void set_deadline(Clock::time_point deadline) { deadline_ = deadline; }
  const std::optional<Clock::time_point>& deadline() const { return deadline_; }
  /// Milliseconds left before the deadline, at least 1; 0 without one.
  int64_t MillisecondsLeft() const;

  /// Whether a call to a task that is not reachable yet waits for it (until
  /// the deadline) rather than fail at once. Off by default.
  void set_wait_for_ready(bool wait) { wait_for_ready_ = wait; }
  bool wait_for_ready() const { return wait_for_ready_; }

  /// Cancels the call: runs the callback its worker set, now or as soon as
  /// it sets one. The call then answers soon, with an error.
  void StartCancel();
  /// For implementations: what StartCancel runs while the call is in
  /// flight. Runs `cancel` at once when StartCancel came first.
  void SetCancelCallback(std::function<void()> cancel);
  /// For implementations: the call has answered; StartCancel does nothing
  /// from now on. Waits for a cancellation that runs on another thread
  /// now, so that what the callback holds may go once this returns.
  void ClearCancelCallback();

 private:
  std::optional<Clock::time_point> deadline_;
  bool wait_for_ready_ = false;
  std::mutex mu_;
  std::condition_variable cancel_done_;
  bool cancelled_ = false;        // guarded by mu_
  std::function<void()> cancel_;  // guarded by mu_
  // The threads that run cancel_ now (Close and a caller's cancellation
  // may at once); guarded by mu_.
  std::vector<std::thread::id> cancelling_;
};

/// The calls of the worker service, as one task's master makes them.
/// Each method answers through `done`, exactly once, on any thread,
/// possibly before it returns. `request`, `response` and `opts` must live
/// until then; an implementation touches none of them once it has called
/// `done`. Errors are the worker's (worker.h) or the transport's.
class WorkerInterface {
 public:
  virtual ~WorkerInterface() = default;

  virtual void GetStatusAsync(CallOptions* opts,
                              const proto::GetStatusRequest* request,
                              proto::GetStatusResponse* response,
                              StatusCallback done) = 0;
  virtual void CreateWorkerSessionAsync(
      CallOptions* opts, const proto::CreateWorkerSessionRequest* request,
      proto::CreateWorkerSessionResponse* response, StatusCallback done) = 0;
  virtual void DeleteWorkerSessionAsync(
      CallOptions* opts, const proto::DeleteWorkerSessionRequest* request,
      proto::DeleteWorkerSessionResponse* response, StatusCallback done) = 0;
  virtual void RegisterGraphAsync(CallOptions* opts,
                                  const proto::RegisterGraphRequest* request,
                                  proto::RegisterGraphResponse* response,
                                  StatusCallback done) = 0;
  virtual void DeregisterGraphAsync(
      CallOptions* opts, const proto::DeregisterGraphRequest* request,
      proto::DeregisterGraphResponse* response, StatusCallback done) = 0;
  /// The deadline of `opts`, when set, bounds the step on the worker too.
  virtual void RunGraphAsync(CallOptions* opts,
                             const proto::RunGraphRequest* request,
                             proto::RunGraphResponse* response,
                             StatusCallback done) = 0;
  virtual void CleanupGraphAsync(CallOptions* opts,
                                 const proto::CleanupGraphRequest* request,
                                 proto::CleanupGraphResponse* response,
                                 StatusCallback done) = 0;
  virtual void CleanupAllAsync(CallOptions* opts,
                               const proto::CleanupAllRequest* request,
                               proto::CleanupAllResponse* response,
                               StatusCallback done) = 0;
};

/// A worker that passes every call to another unchanged: the base of a
/// wrapper that watches some of the calls (rpc_trace.h's TracingWorker
/// records two) and overrides only those, calling on to the base's.
class ForwardingWorker : public WorkerInterface {
 public:
  /// `worker` (not owned) must outlive this.
  explicit ForwardingWorker(WorkerInterface* worker) : worker_(worker) {}

  void GetStatusAsync(CallOptions* opts, const proto::GetStatusRequest* request,
                      proto::GetStatusResponse* response,
                      StatusCallback done) override {
    worker_->GetStatusAsync(opts, request, response, std::move(done));
  }
  void CreateWorkerSessionAsync(
      CallOptions* opts, const proto::CreateWorkerSessionRequest* request,
      proto::CreateWorkerSessionResponse* response,
      StatusCallback done) override {
    worker_->CreateWorkerSessionAsync(opts, request, response, std::move(done));
  }
  void DeleteWorkerSessionAsync(
      CallOptions* opts, const proto::DeleteWorkerSessionRequest* request,
      proto::DeleteWorkerSessionResponse* response,
      StatusCallback done) override {
    worker_->DeleteWorkerSessionAsync(opts, request, response, std::move(done));
  }
  void RegisterGraphAsync(CallOptions* opts,
                          const proto::RegisterGraphRequest* request,
                          proto::RegisterGraphResponse* response,
                          StatusCallback done) override {
    worker_->RegisterGraphAsync(opts, request, response, std::move(done));
  }
  void DeregisterGraphAsync(CallOptions* opts,
                            const proto::DeregisterGraphRequest* request,
                            proto::DeregisterGraphResponse* response,
                            StatusCallback done) override {
    worker_->DeregisterGraphAsync(opts, request, response, std::move(done));
  }
  void RunGraphAsync(CallOptions* opts, const proto::RunGraphRequest* request,
                     proto::RunGraphResponse* response,
                     StatusCallback done) override {
    worker_->RunGraphAsync(opts, request, response, std::move(done));
  }
  void CleanupGraphAsync(CallOptions* opts,
                         const proto::CleanupGraphRequest* request,
                         proto::CleanupGraphResponse* response,
                         StatusCallback done) override {
    worker_->CleanupGraphAsync(opts, request, response, std::move(done));
  }
  void CleanupAllAsync(CallOptions* opts,
                       const proto::CleanupAllRequest* request,
                       proto::CleanupAllResponse* response,
                       StatusCallback done) override {
    worker_->CleanupAllAsync(opts, request, response, std::move(done));
  }

 private:
  WorkerInterface* const worker_;
};

/// A method of WorkerInterface, for the helpers below.
template <typename Request, typename Response>
using WorkerMethod = void (WorkerInterface::*)(CallOptions*, const Request*,
                                               Response*, StatusCallback);

/// One call to a worker: where it goes, and what it is given and fills.
template <typename Request, typename Response>
struct WorkerCall {
  std::string task;
  WorkerInterface* worker = nullptr;
  CallOptions opts;
  Request request;
  Response response;
};

/// Makes one call and waits for its answer:
///   Status s = CallAndWait([&](StatusCallback done) {
///     worker->CleanupAllAsync(&opts, &request, &response, std::move(done));
///   });
Status CallAndWait(const std::function<void(StatusCallback)>& call);

/// How FanOut waits.
struct FanOutOptions {
  /// Called with each call's index and status as it answers, on the
  /// answering thread (a step ends at its first error).
  std::function<void(size_t, const Status&)> on_answer;
  /// Every `still_waiting_interval` (when above 0) that calls are still
  /// out, `still_waiting` is called with the index of each of them.
  std::chrono::milliseconds still_waiting_interval{0};
  std::function<void(size_t)> still_waiting;
};

/// Sends `n` calls at once and waits for all of their answers: `send(i,
/// done)` starts call i, in order of i, and the call answers through
/// `done`. The statuses, by index.
std::vector<Status> FanOut(
    size_t n, const std::function<void(size_t, StatusCallback)>& send,
    const FanOutOptions& options = {});

/// FanOut of `method` over `calls`: each call goes to its worker, all at
/// once; the statuses, in the calls' order.
template <typename Request, typename Response>
std::vector<Status> CallAll(
    const std::vector<std::unique_ptr<WorkerCall<Request, Response>>>& calls,
    WorkerMethod<Request, Response> method, const FanOutOptions& options = {}) {
  return FanOut(
      calls.size(),
      [&](size_t i, StatusCallback done) {
        WorkerCall<Request, Response>& c = *calls[i];
        (c.worker->*method)(&c.opts, &c.request, &c.response, std::move(done));
      },
      options);
}

}  // namespace minitf
