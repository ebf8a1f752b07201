// MasterInterface: how a client's session reaches the master of its target.
//
// A client's session (grpc_session.h) runs nothing itself: it sends its
// graph to a master and asks it to run steps, with the calls of the master
// service (master_service.proto). The master may be in the client's own
// process (a server the program started, as seed 003's workers do) or in
// another one. This interface is the seam between the two, as TensorFlow's
// MasterInterface is: one method per call, taking the request and filling
// the response. LocalMaster (local_master.h) calls a master of this process
// directly; GrpcRemoteMaster (grpc_remote_master.h) calls one over gRPC.
// The session holds one and never asks which.
//
// The calls are synchronous, as TensorFlow's are: a session has nothing
// else to do while its master works. They are the four a session makes;
// the service's ListDevices and Reset, which TensorFlow's interface also
// has, reach a master through its service (master_service.h) only.
//
//   std::unique_ptr<MasterInterface> master = LocalMaster::Lookup(target);
//   if (master == nullptr) {
//     master = std::make_unique<GrpcRemoteMaster>(NewChannel("host:2222"));
//   }
//   CallOptions opts;
//   proto::RunStepResponse response;
//   TF_RETURN_IF_ERROR(master->RunStep(&opts, &request, &response));
#pragma once

#include "minitf/distributed/runtime/call_options.h"
#include "minitf/distributed/runtime/proto/master.pb.h"
#include "minitf/tensor/status.h"

namespace minitf {

/// The calls of the master service, as a client makes them. Each returns
/// once the master has answered; `opts` bounds the wait for the answer (its
/// deadline) and may cancel it from another thread. Errors are the
/// master's (master.h) or the transport's.
class MasterInterface {
 public:
  virtual ~MasterInterface() = default;

  virtual Status CreateSession(CallOptions* opts,
                               const proto::CreateSessionRequest* request,
                               proto::CreateSessionResponse* response) = 0;
  virtual Status ExtendSession(CallOptions* opts,
                               const proto::ExtendSessionRequest* request,
                               proto::ExtendSessionResponse* response) = 0;
  /// A cancellation of `opts` ends the step, as the session's Close does.
  virtual Status RunStep(CallOptions* opts,
                         const proto::RunStepRequest* request,
                         proto::RunStepResponse* response) = 0;
  virtual Status CloseSession(CallOptions* opts,
                              const proto::CloseSessionRequest* request,
                              proto::CloseSessionResponse* response) = 0;
};

}  // namespace minitf
