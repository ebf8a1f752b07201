#include "minitf/distributed/runtime/worker_service.h"

#include <mutex>

#include "minitf/distributed/runtime/grpc_status.h"
#include "minitf/distributed/runtime/tensor_coding.h"

namespace minitf {

grpc::Status WorkerServiceImpl::GetStatus(
    grpc::ServerContext* /*context*/, const proto::GetStatusRequest* request,
    proto::GetStatusResponse* response) {
  return ToGrpcStatus(worker_->GetStatus(*request, response));
}

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

// One RecvTensor call: finished once, when the worker answers; a
// cancellation that comes before then ends the step's wait, so that the
// answer comes at once.
class RecvTensorReactor final : public grpc::ServerUnaryReactor {
 public:
  RecvTensorReactor(Worker* worker, int64_t step_id)
      : worker_(worker), step_id_(step_id) {}

  void Answer(const Status& status) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      answered_ = true;
    }
    Finish(ToGrpcStatus(status));
  }
  void OnCancel() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (answered_) return;
    }
    worker_->CancelRecvTensor(step_id_);
  }
  void OnDone() override { delete this; }

 private:
  Worker* const worker_;
  const int64_t step_id_;
  std::mutex mu_;
  bool answered_ = false;  // guarded by mu_
};

}  // namespace

// --8<-- [start:recv_tensor_service]
grpc::ServerUnaryReactor* WorkerServiceImpl::RecvTensor(
    grpc::CallbackServerContext* context, const grpc::ByteBuffer* request,
    grpc::ByteBuffer* response) {
  proto::RecvTensorRequest parsed;
  grpc::ByteBuffer body(*request);  // shares the slices; the reader needs it
  grpc::Status valid =
      grpc::SerializationTraits<proto::RecvTensorRequest>::Deserialize(&body,
                                                                       &parsed);
  if (!valid.ok()) {
    grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
    reactor->Finish(valid);
    return reactor;
  }
  auto* reactor = new RecvTensorReactor(worker_, parsed.step_id());
  worker_->RecvTensorAsync(
      parsed, [reactor, response](const Status& status, const Tensor& value,
                                  bool is_dead) {
        reactor->Answer(status.ok()
                            ? EncodeRecvTensorResponse(value, is_dead, response)
                            : status);
      });
  return reactor;
}
// --8<-- [end:recv_tensor_service]

}  // namespace minitf
