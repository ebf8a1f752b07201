// WorkerInterface: how a master reaches the worker of a task, wherever it
// runs.
//
// A master drives every task of its cluster with the calls of the worker
// service (worker_service.proto): it asks for their devices (GetStatus),
// makes a worker session on each, registers each task's part of a graph,
// runs the parts of a step and ends it. A worker, in turn, fetches the
// tensors that other tasks send it (RecvTensor, rpc_rendezvous.h). One of
// those tasks is the caller's own; the others are processes reached over
// gRPC. This interface is the seam between the two, as TensorFlow's
// WorkerInterface is: one asynchronous method per call, taking the request
// and filling the response, and answering through a callback. The task's
// own Worker (worker.h) implements it by calling itself, with no gRPC in
// between; a gRPC remote worker (grpc_remote_worker.h) implements it over
// a channel to another task; the worker cache (worker_cache.h) hands out
// the one for a task by its name, so that neither the master nor the
// rendezvous ever asks which it holds.
//
// Every call answers exactly once, on any thread. An implementation may
// answer on the calling thread before the method returns: the in-process
// Worker does, and its RunGraph returns only once its part of the step is
// over, so a caller that fans a step out to every task sends the part that
// waits for the others' values last.
//
// CallOptions (call_options.h) carries what a call is given besides its
// request: a deadline, whether to wait for a task that is not up yet, and a
// way to cancel it while it runs (a master's Close cancels the steps in
// flight).
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
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "minitf/distributed/runtime/call_options.h"
#include "minitf/distributed/runtime/proto/worker.pb.h"
#include "minitf/tensor/allocator.h"
#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor.h"

namespace minitf {

/// What a RecvTensor answers: the value its producer sent, in host memory,
/// or that the producer did not run. A struct and not the
/// RecvTensorResponse message (TensorFlow's TensorResponse is one too): a
/// message holds the tensor's bytes as a string, so the in-process worker
/// would copy the value into it and the caller copy it out again, where the
/// struct lets the in-process worker hand over the Tensor itself, sharing
/// its buffer, and lets the gRPC worker decode the wire's bytes straight
/// into a tensor of the caller's allocator (tensor_coding.h).
struct TensorResponse {
  /// Where a value decoded from bytes is allocated; set by the caller
  /// (cpu_allocator() when null). A value handed over in-process stays
  /// where its producer's host memory holds it.
  Allocator* allocator = nullptr;
  /// The value; uninitialized when `is_dead`.
  Tensor tensor;
  /// The producer's node did not run (an untaken branch of a cond).
  bool is_dead = false;
};

/// The calls of the worker service, as one task's master makes them.
/// Each method answers through `done`, exactly once, on any thread,
/// possibly before it returns. `request`, `response` and `opts` must live
/// until then; an implementation touches none of them once it has called
/// `done`. Errors are the worker's (worker.h) or the transport's.
class WorkerInterface {
 public:
  virtual ~WorkerInterface() = default;

  // --8<-- [start:get_status]
  virtual void GetStatusAsync(CallOptions* opts,
                              const proto::GetStatusRequest* request,
                              proto::GetStatusResponse* response,
                              StatusCallback done) = 0;
  // --8<-- [end:get_status]
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
  /// The value that step request.step_id sent under
  /// request.rendezvous_key on this worker's task, once it is sent. A
  /// worker makes this call of another, for the tensors its part of a step
  /// receives. Errors: the transport's for a peer that cannot be reached
  /// (Unavailable) or a deadline that passes (DeadlineExceeded);
  /// InvalidArgument "Cannot parse tensor from response" for an answer
  /// whose bytes are not a tensor; the worker's (worker.h).
  virtual void RecvTensorAsync(CallOptions* opts,
                               const proto::RecvTensorRequest* request,
                               TensorResponse* response,
                               StatusCallback done) = 0;
};

/// A worker that passes every call to another unchanged: the base of a
/// wrapper that watches some of the calls (rpc_trace.h's TracingWorker
/// records two; the fuzzers' recorder keeps four requests) and overrides
/// only those, calling on to the base's.
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
  void RecvTensorAsync(CallOptions* opts,
                       const proto::RecvTensorRequest* request,
                       TensorResponse* response, StatusCallback done) override {
    worker_->RecvTensorAsync(opts, request, response, std::move(done));
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
