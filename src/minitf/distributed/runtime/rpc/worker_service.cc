#include "minitf/distributed/runtime/rpc/worker_service.h"

#include "minitf/distributed/runtime/rpc/grpc_status.h"
#include "minitf/distributed/runtime/rpc/tensor_coding.h"

namespace minitf {

// --8<-- [start:get_status]
grpc::Status WorkerServiceImpl::GetStatus(
    grpc::ServerContext* /*context*/, const proto::GetStatusRequest* request,
    proto::GetStatusResponse* response) {
  return ToGrpcStatus(worker_->GetStatus(*request, response));
}
// --8<-- [end:get_status]

grpc::Status WorkerServiceImpl::CreateWorkerSession(
    grpc::ServerContext*, const proto::CreateWorkerSessionRequest* request,
    proto::CreateWorkerSessionResponse*) {
  return ToGrpcStatus(worker_->CreateWorkerSession(*request));
}

grpc::Status WorkerServiceImpl::DeleteWorkerSession(
    grpc::ServerContext*, const proto::DeleteWorkerSessionRequest* request,
    proto::DeleteWorkerSessionResponse*) {
  return ToGrpcStatus(worker_->DeleteWorkerSession(*request));
}

grpc::Status WorkerServiceImpl::RegisterGraph(
    grpc::ServerContext*, const proto::RegisterGraphRequest* request,
    proto::RegisterGraphResponse* response) {
  return ToGrpcStatus(worker_->RegisterGraph(*request, response));
}

grpc::Status WorkerServiceImpl::DeregisterGraph(
    grpc::ServerContext*, const proto::DeregisterGraphRequest* request,
    proto::DeregisterGraphResponse*) {
  return ToGrpcStatus(worker_->DeregisterGraph(*request));
}

grpc::Status WorkerServiceImpl::RunGraph(grpc::ServerContext* context,
                                         const proto::RunGraphRequest* request,
                                         proto::RunGraphResponse* response) {
  CallOptions opts;
  CallWatch::Scope watched = watch_->Watch(context, &opts);
  // The task's own Worker answers before RunGraphAsync returns.
  Status status;
  worker_->RunGraphAsync(&opts, request, response,
                         [&status](const Status& s) { status = s; });
  return ToGrpcStatus(status);
}

grpc::Status WorkerServiceImpl::CleanupGraph(
    grpc::ServerContext*, const proto::CleanupGraphRequest* request,
    proto::CleanupGraphResponse*) {
  return ToGrpcStatus(worker_->CleanupGraph(*request));
}

grpc::Status WorkerServiceImpl::CleanupAll(
    grpc::ServerContext*, const proto::CleanupAllRequest* request,
    proto::CleanupAllResponse*) {
  return ToGrpcStatus(worker_->CleanupAll(*request));
}

namespace {

// One RecvTensor call: what the worker fills while the value is awaited,
// and the options through which a caller that goes away ends the step's
// wait, so that the answer comes at once. Finished once, when the worker
// answers.
class RecvTensorReactor final : public grpc::ServerUnaryReactor {
 public:
  CallOptions opts;
  proto::RecvTensorRequest request;
  TensorResponse response;

  void OnCancel() override { opts.StartCancel(); }
  void OnDone() override { delete this; }
};

}  // namespace

// --8<-- [start:recv_tensor_service]
grpc::ServerUnaryReactor* WorkerServiceImpl::RecvTensor(
    grpc::CallbackServerContext* /*context*/, const grpc::ByteBuffer* request,
    grpc::ByteBuffer* response) {
  auto* reactor = new RecvTensorReactor;
  grpc::ByteBuffer body(*request);  // shares the slices; the reader needs it
  grpc::Status valid =
      grpc::SerializationTraits<proto::RecvTensorRequest>::Deserialize(
          &body, &reactor->request);
  if (!valid.ok()) {
    reactor->Finish(valid);
    return reactor;
  }
  worker_->RecvTensorAsync(
      &reactor->opts, &reactor->request, &reactor->response,
      [reactor, response](const Status& status) {
        const TensorResponse& r = reactor->response;
        reactor->Finish(ToGrpcStatus(
            status.ok()
                ? EncodeRecvTensorResponse(r.tensor, r.is_dead, response)
                : status));
      });
  return reactor;
}
// --8<-- [end:recv_tensor_service]

}  // namespace minitf
