// The worker service: the gRPC face of a task's Worker (worker.h).
//
// Every task of a cluster runs one worker service (worker_service.proto). A
// master asks it for its devices (GetStatus), gives it its part of a
// session's graph (RegisterGraph) and runs that part once per step
// (RunGraph); another worker asks it for the tensors its part sends
// (RecvTensor). Each method turns the call into the Worker's and its Status
// into gRPC's, code for code.
//
// RecvTensor alone is served from raw bytes. Its answer is usually one large
// tensor, and a generated method would make gRPC serialize a
// RecvTensorResponse message, so the tensor's bytes would first be copied
// into that message (tensor_content) and then again into gRPC's buffer.
// Instead the service answers with a grpc::ByteBuffer that
// EncodeRecvTensorResponse (tensor_coding.h) makes from the tensor's own
// buffer, and the bytes go from there to the socket. gRPC offers two ways to
// give a method such bytes: a SerializationTraits specialisation for a type
// of one's own (TensorFlow's way, with a hand-written service), or a raw
// method, whose request and response are ByteBuffers. This file takes the
// second: the generated WithRawCallbackMethod_RecvTensor turns just that
// method of the generated service into a raw one, so the other eight keep
// their generated, typed signatures and the one method that works with
// bytes says so in its own signature, with no trait specialised elsewhere
// that silently changes how a message type is sent. A raw method is also a
// callback method: it returns at once and answers when the value is sent,
// instead of holding one of gRPC's threads while it waits.
//
// RunGraph, which waits for its part of a step, is watched while it runs
// (call_watch.h): when its caller goes away, the step ends.
//
//   CallWatch watch;
//   WorkerServiceImpl service(&worker, &watch);
//   grpc::ServerBuilder builder;
//   builder.RegisterService(&service);
#pragma once

#include <grpcpp/grpcpp.h>

#include "minitf/device/devices/device_mgr.h"
#include "minitf/distributed/runtime/proto/worker_service.grpc.pb.h"
#include "minitf/distributed/runtime/rpc/call_watch.h"
#include "minitf/distributed/runtime/worker.h"

namespace minitf {

/// The gRPC worker service of one task.
/// Thread safety: gRPC calls the methods from its own threads, at once;
/// the Worker allows that.
class WorkerServiceImpl final
    : public tensorflow::WorkerService::WithRawCallbackMethod_RecvTensor<
          tensorflow::WorkerService::Service> {
 public:
  /// `worker` and `watch` (not owned) must outlive the service.
  WorkerServiceImpl(Worker* worker, CallWatch* watch)
      : worker_(worker), watch_(watch) {}

  /// The task's devices, in the device manager's order.
  grpc::Status GetStatus(grpc::ServerContext* context,
                         const proto::GetStatusRequest* request,
                         proto::GetStatusResponse* response) override;
  grpc::Status CreateWorkerSession(
      grpc::ServerContext* context,
      const proto::CreateWorkerSessionRequest* request,
      proto::CreateWorkerSessionResponse* response) override;
  grpc::Status DeleteWorkerSession(
      grpc::ServerContext* context,
      const proto::DeleteWorkerSessionRequest* request,
      proto::DeleteWorkerSessionResponse* response) override;
  grpc::Status RegisterGraph(grpc::ServerContext* context,
                             const proto::RegisterGraphRequest* request,
                             proto::RegisterGraphResponse* response) override;
  grpc::Status DeregisterGraph(
      grpc::ServerContext* context,
      const proto::DeregisterGraphRequest* request,
      proto::DeregisterGraphResponse* response) override;
  /// Cancelled, and the step ended, when the caller goes away first.
  grpc::Status RunGraph(grpc::ServerContext* context,
                        const proto::RunGraphRequest* request,
                        proto::RunGraphResponse* response) override;
  grpc::Status CleanupGraph(grpc::ServerContext* context,
                            const proto::CleanupGraphRequest* request,
                            proto::CleanupGraphResponse* response) override;
  grpc::Status CleanupAll(grpc::ServerContext* context,
                          const proto::CleanupAllRequest* request,
                          proto::CleanupAllResponse* response) override;
  /// Answers, once the value is sent (Worker::RecvTensorAsync), with a
  /// RecvTensorResponse that shares the tensor's buffer; a caller that
  /// cancels ends the step's wait. A body that is not a RecvTensorRequest
  /// gets gRPC's own answer to one, Internal.
  grpc::ServerUnaryReactor* RecvTensor(grpc::CallbackServerContext* context,
                                       const grpc::ByteBuffer* request,
                                       grpc::ByteBuffer* response) override;

 private:
  Worker* worker_;
  CallWatch* watch_;
};

}  // namespace minitf
