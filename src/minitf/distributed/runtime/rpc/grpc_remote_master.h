// GrpcRemoteMaster: the master of a target, reached over gRPC.
//
// A client's session whose target is not a server of its own process
// (local_master.h) sends its calls to the target's master service
// (master_service.proto). This class turns a MasterInterface call
// (master_interface.h) into that RPC, made with gRPC's generated stub and
// waited for: the CallOptions' deadline and wait-for-ready become the
// call's ClientContext settings, a cancellation becomes
// ClientContext::TryCancel, and gRPC's status becomes minitf's
// (FromGrpcStatus), in the same words on both ends.
//
//   GrpcRemoteMaster master(NewChannel("localhost:2222"));
//   CallOptions opts;
//   opts.set_deadline(std::chrono::system_clock::now() + 30s);
//   TF_RETURN_IF_ERROR(master.CloseSession(&opts, &request, &response));
#pragma once

#include <grpcpp/channel.h>
#include <grpcpp/client_context.h>

#include <functional>
#include <memory>

#include "minitf/distributed/runtime/master_interface.h"
#include "minitf/distributed/runtime/proto/master_service.grpc.pb.h"

namespace minitf {

/// A master over a gRPC channel to it.
/// Thread safety: every method may be called from any thread, at once.
class GrpcRemoteMaster final : public MasterInterface {
 public:
  /// The master service at the other end of `channel`.
  explicit GrpcRemoteMaster(std::shared_ptr<grpc::Channel> channel)
      : stub_(tensorflow::MasterService::NewStub(channel)) {}

  Status CreateSession(CallOptions* opts,
                       const proto::CreateSessionRequest* request,
                       proto::CreateSessionResponse* response) override;
  Status ExtendSession(CallOptions* opts,
                       const proto::ExtendSessionRequest* request,
                       proto::ExtendSessionResponse* response) override;
  Status RunStep(CallOptions* opts, const proto::RunStepRequest* request,
                 proto::RunStepResponse* response) override;
  Status CloseSession(CallOptions* opts,
                      const proto::CloseSessionRequest* request,
                      proto::CloseSessionResponse* response) override;

 private:
  // Makes one call, `call` with a context that takes the options, and
  // waits for its answer.
  static Status Call(
      CallOptions* opts,
      const std::function<grpc::Status(grpc::ClientContext*)>& call);

  const std::unique_ptr<tensorflow::MasterService::Stub> stub_;
};

}  // namespace minitf
