#include "minitf/distributed/runtime/rpc/master_service.h"

#include "minitf/distributed/runtime/rpc/grpc_status.h"

namespace minitf {

grpc::Status MasterServiceImpl::CreateSession(
    grpc::ServerContext*, const proto::CreateSessionRequest* request,
    proto::CreateSessionResponse* response) {
  return ToGrpcStatus(master_->CreateSession(*request, response));
}

grpc::Status MasterServiceImpl::ExtendSession(
    grpc::ServerContext*, const proto::ExtendSessionRequest* request,
    proto::ExtendSessionResponse* response) {
  return ToGrpcStatus(master_->ExtendSession(*request, response));
}

grpc::Status MasterServiceImpl::RunStep(grpc::ServerContext* context,
                                        const proto::RunStepRequest* request,
                                        proto::RunStepResponse* response) {
  CallOptions caller;
  CallWatch::Scope watched = watch_->Watch(context, &caller);
  return ToGrpcStatus(master_->RunStep(*request, response, &caller));
}

grpc::Status MasterServiceImpl::CloseSession(
    grpc::ServerContext*, const proto::CloseSessionRequest* request,
    proto::CloseSessionResponse*) {
  return ToGrpcStatus(master_->CloseSession(*request));
}

grpc::Status MasterServiceImpl::ListDevices(
    grpc::ServerContext*, const proto::ListDevicesRequest* request,
    proto::ListDevicesResponse* response) {
  return ToGrpcStatus(master_->ListDevices(*request, response));
}

grpc::Status MasterServiceImpl::Reset(grpc::ServerContext*,
                                      const proto::ResetRequest* request,
                                      proto::ResetResponse*) {
  return ToGrpcStatus(master_->Reset(*request));
}

}  // namespace minitf
