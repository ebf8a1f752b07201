#include "minitf/distributed/worker_service.h"

#include "minitf/distributed/proto_convert.h"

namespace minitf {

grpc::Status WorkerServiceImpl::GetStatus(grpc::ServerContext* /*context*/,
                                          const proto::GetStatusRequest*,
                                          proto::GetStatusResponse* response) {
  for (const Device* device : devices_->ListDevices()) {
    *response->add_device_attributes() =
        DeviceAttributesToProto(device->attributes());
  }
  return grpc::Status::OK;
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

grpc::Status WorkerServiceImpl::RunGraph(grpc::ServerContext*,
                                         const proto::RunGraphRequest* request,
                                         proto::RunGraphResponse* response) {
  return ToGrpcStatus(worker_->RunGraph(*request, response));
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

grpc::Status WorkerServiceImpl::RecvTensor(
    grpc::ServerContext* context, const proto::RecvTensorRequest* request,
    proto::RecvTensorResponse* response) {
  return ToGrpcStatus(worker_->RecvTensor(
      *request, response, [context] { return context->IsCancelled(); }));
}

}  // namespace minitf
