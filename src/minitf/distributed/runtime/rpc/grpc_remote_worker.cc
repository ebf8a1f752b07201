#include "minitf/distributed/runtime/rpc/grpc_remote_worker.h"

#include <grpcpp/grpcpp.h>

#include <memory>

#include "minitf/distributed/runtime/rpc/grpc_status.h"
#include "minitf/distributed/runtime/rpc/tensor_coding.h"
#include "minitf/tensor/allocator.h"

namespace minitf {
namespace {

// RecvTensor's full name, which a call through the generic stub spells out.
constexpr char kRecvTensorMethod[] = "/tensorflow.WorkerService/RecvTensor";

using Async = tensorflow::WorkerService::StubInterface::async_interface;
// A method of the stub's callback interface.
template <typename Request, typename Response>
using AsyncMethod = void (Async::*)(grpc::ClientContext*, const Request*,
                                    Response*,
                                    std::function<void(grpc::Status)>);

// The context of a call, with its deadline and wait-for-ready from `opts`.
void ApplyOptions(const CallOptions& opts, grpc::ClientContext* context) {
  if (opts.deadline()) context->set_deadline(*opts.deadline());
  if (opts.wait_for_ready()) context->set_wait_for_ready(true);
}

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
  ApplyOptions(*opts, context.get());
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

GrpcRemoteWorker::GrpcRemoteWorker(std::shared_ptr<grpc::Channel> channel)
    : stub_(tensorflow::WorkerService::NewStub(channel)),
      generic_(std::move(channel)) {}

// --8<-- [start:get_status]
void GrpcRemoteWorker::GetStatusAsync(CallOptions* opts,
                                      const proto::GetStatusRequest* request,
                                      proto::GetStatusResponse* response,
                                      StatusCallback done) {
  Issue(stub_.get(), &Async::GetStatus, opts, request, response,
        std::move(done));
}
// --8<-- [end:get_status]

void GrpcRemoteWorker::CreateWorkerSessionAsync(
    CallOptions* opts, const proto::CreateWorkerSessionRequest* request,
    proto::CreateWorkerSessionResponse* response, StatusCallback done) {
  Issue(stub_.get(), &Async::CreateWorkerSession, opts, request, response,
        std::move(done));
}

void GrpcRemoteWorker::DeleteWorkerSessionAsync(
    CallOptions* opts, const proto::DeleteWorkerSessionRequest* request,
    proto::DeleteWorkerSessionResponse* response, StatusCallback done) {
  Issue(stub_.get(), &Async::DeleteWorkerSession, opts, request, response,
        std::move(done));
}

void GrpcRemoteWorker::RegisterGraphAsync(
    CallOptions* opts, const proto::RegisterGraphRequest* request,
    proto::RegisterGraphResponse* response, StatusCallback done) {
  Issue(stub_.get(), &Async::RegisterGraph, opts, request, response,
        std::move(done));
}

void GrpcRemoteWorker::DeregisterGraphAsync(
    CallOptions* opts, const proto::DeregisterGraphRequest* request,
    proto::DeregisterGraphResponse* response, StatusCallback done) {
  Issue(stub_.get(), &Async::DeregisterGraph, opts, request, response,
        std::move(done));
}

void GrpcRemoteWorker::RunGraphAsync(CallOptions* opts,
                                     const proto::RunGraphRequest* request,
                                     proto::RunGraphResponse* response,
                                     StatusCallback done) {
  Issue(stub_.get(), &Async::RunGraph, opts, request, response,
        std::move(done));
}

void GrpcRemoteWorker::CleanupGraphAsync(
    CallOptions* opts, const proto::CleanupGraphRequest* request,
    proto::CleanupGraphResponse* response, StatusCallback done) {
  Issue(stub_.get(), &Async::CleanupGraph, opts, request, response,
        std::move(done));
}

void GrpcRemoteWorker::CleanupAllAsync(CallOptions* opts,
                                       const proto::CleanupAllRequest* request,
                                       proto::CleanupAllResponse* response,
                                       StatusCallback done) {
  Issue(stub_.get(), &Async::CleanupAll, opts, request, response,
        std::move(done));
}

// --8<-- [start:recv_tensor_remote]
void GrpcRemoteWorker::RecvTensorAsync(CallOptions* opts,
                                       const proto::RecvTensorRequest* request,
                                       TensorResponse* response,
                                       StatusCallback done) {
  // What gRPC fills while the call runs; it lives until the answer, and as
  // long as a cancellation that reached it is still running.
  struct Call {
    grpc::ClientContext context;
    grpc::ByteBuffer request;
    grpc::ByteBuffer response;  // a RecvTensorResponse, as gRPC received it
  };
  auto call = std::make_shared<Call>();
  bool own_buffer = false;
  grpc::Status serialized =
      grpc::SerializationTraits<proto::RecvTensorRequest>::Serialize(
          *request, &call->request, &own_buffer);
  MINITF_CHECK(serialized.ok());  // a message this small always serializes
  ApplyOptions(*opts, &call->context);
  opts->SetCancelCallback([call] { call->context.TryCancel(); });
  generic_.UnaryCall(
      &call->context, kRecvTensorMethod, grpc::StubOptions(), &call->request,
      &call->response,
      [call, opts, response, done = std::move(done)](grpc::Status s) {
        opts->ClearCancelCallback();
        Status status = FromGrpcStatus(s);
        if (status.ok()) {
          // Straight from gRPC's slices into the caller's tensor.
          Allocator* allocator = response->allocator != nullptr
                                     ? response->allocator
                                     : cpu_allocator();
          status =
              DecodeRecvTensorResponse(&call->response, allocator,
                                       &response->tensor, &response->is_dead);
        }
        done(status);
      });
}
// --8<-- [end:recv_tensor_remote]

}  // namespace minitf
