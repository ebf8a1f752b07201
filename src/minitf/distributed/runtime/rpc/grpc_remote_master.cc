#include "minitf/distributed/runtime/rpc/grpc_remote_master.h"

#include "minitf/distributed/runtime/rpc/grpc_status.h"

namespace minitf {

// --8<-- [start:call]
Status GrpcRemoteMaster::Call(
    CallOptions* opts,
    const std::function<grpc::Status(grpc::ClientContext*)>& call) {
  grpc::ClientContext context;
  if (opts->deadline()) context.set_deadline(*opts->deadline());
  if (opts->wait_for_ready()) context.set_wait_for_ready(true);
  opts->SetCancelCallback([&context] { context.TryCancel(); });
  const grpc::Status status = call(&context);
  opts->ClearCancelCallback();
  return FromGrpcStatus(status);
}
// --8<-- [end:call]

Status GrpcRemoteMaster::CreateSession(
    CallOptions* opts, const proto::CreateSessionRequest* request,
    proto::CreateSessionResponse* response) {
  return Call(opts, [&](grpc::ClientContext* c) {
    return stub_->CreateSession(c, *request, response);
  });
}

Status GrpcRemoteMaster::ExtendSession(
    CallOptions* opts, const proto::ExtendSessionRequest* request,
    proto::ExtendSessionResponse* response) {
  return Call(opts, [&](grpc::ClientContext* c) {
    return stub_->ExtendSession(c, *request, response);
  });
}

Status GrpcRemoteMaster::RunStep(CallOptions* opts,
                                 const proto::RunStepRequest* request,
                                 proto::RunStepResponse* response) {
  return Call(opts, [&](grpc::ClientContext* c) {
    return stub_->RunStep(c, *request, response);
  });
}

Status GrpcRemoteMaster::CloseSession(CallOptions* opts,
                                      const proto::CloseSessionRequest* request,
                                      proto::CloseSessionResponse* response) {
  return Call(opts, [&](grpc::ClientContext* c) {
    return stub_->CloseSession(c, *request, response);
  });
}

}  // namespace minitf
