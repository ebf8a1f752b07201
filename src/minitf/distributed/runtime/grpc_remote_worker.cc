#include "minitf/distributed/runtime/grpc_remote_worker.h"

#include <grpcpp/grpcpp.h>

#include <memory>

#include "minitf/distributed/runtime/grpc_status.h"

namespace minitf {
namespace {

using Async = tensorflow::WorkerService::StubInterface::async_interface;
// A method of the stub's callback interface.
template <typename Request, typename Response>
using AsyncMethod = void (Async::*)(grpc::ClientContext*, const Request*,
                                    Response*,
                                    std::function<void(grpc::Status)>);

// --8<-- [start:issue]
// Sends one call with `method`:
// the context takes the options' deadline and wait-for-ready, a
// cancellation of the options cancels the context, and the answer reaches
// `done` in minitf's words. The context lives until the answer, and as
// long as a cancellation that reached it is still running.
template <typename Request, typename Response>
void Issue(tensorflow::WorkerService::Stub* stub,
           AsyncMethod<Request, Response> method, CallOptions* opts,
           const Request* request, Response* response, StatusCallback done) {
  auto context = std::make_shared<grpc::ClientContext>();
  if (opts->deadline()) context->set_deadline(*opts->deadline());
  if (opts->wait_for_ready()) context->set_wait_for_ready(true);
  opts->SetCancelCallback([context] { context->TryCancel(); });
  (stub->async()->*method)(
      context.get(), request, response,
      [context, opts, done = std::move(done)](grpc::Status s) {
        opts->ClearCancelCallback();
        done(FromGrpcStatus(s));
      });
}
// --8<-- [end:issue]

}  // namespace

void GrpcRemoteWorker::GetStatusAsync(CallOptions* opts,
                                      const proto::GetStatusRequest* request,
                                      proto::GetStatusResponse* response,
                                      StatusCallback done) {
  Issue(stub_, &Async::GetStatus, opts, request, response, std::move(done));
}

void GrpcRemoteWorker::CreateWorkerSessionAsync(
    CallOptions* opts, const proto::CreateWorkerSessionRequest* request,
    proto::CreateWorkerSessionResponse* response, StatusCallback done) {
  Issue(stub_, &Async::CreateWorkerSession, opts, request, response,
        std::move(done));
}

void GrpcRemoteWorker::DeleteWorkerSessionAsync(
    CallOptions* opts, const proto::DeleteWorkerSessionRequest* request,
    proto::DeleteWorkerSessionResponse* response, StatusCallback done) {
  Issue(stub_, &Async::DeleteWorkerSession, opts, request, response,
        std::move(done));
}

void GrpcRemoteWorker::RegisterGraphAsync(
    CallOptions* opts, const proto::RegisterGraphRequest* request,
    proto::RegisterGraphResponse* response, StatusCallback done) {
  Issue(stub_, &Async::RegisterGraph, opts, request, response, std::move(done));
}

void GrpcRemoteWorker::DeregisterGraphAsync(
    CallOptions* opts, const proto::DeregisterGraphRequest* request,
    proto::DeregisterGraphResponse* response, StatusCallback done) {
  Issue(stub_, &Async::DeregisterGraph, opts, request, response,
        std::move(done));
}

void GrpcRemoteWorker::RunGraphAsync(CallOptions* opts,
                                     const proto::RunGraphRequest* request,
                                     proto::RunGraphResponse* response,
                                     StatusCallback done) {
  Issue(stub_, &Async::RunGraph, opts, request, response, std::move(done));
}

void GrpcRemoteWorker::CleanupGraphAsync(
    CallOptions* opts, const proto::CleanupGraphRequest* request,
    proto::CleanupGraphResponse* response, StatusCallback done) {
  Issue(stub_, &Async::CleanupGraph, opts, request, response, std::move(done));
}

void GrpcRemoteWorker::CleanupAllAsync(CallOptions* opts,
                                       const proto::CleanupAllRequest* request,
                                       proto::CleanupAllResponse* response,
                                       StatusCallback done) {
  Issue(stub_, &Async::CleanupAll, opts, request, response, std::move(done));
}

}  // namespace minitf
