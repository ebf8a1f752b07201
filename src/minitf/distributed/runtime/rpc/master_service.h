// The master service: the gRPC face of a task's Master (master.h).
//
// Every task of a cluster runs one master service (master_service.proto)
// beside its worker service, so a client may make its session on any task.
// Each method turns the call into the Master's and its Status into gRPC's,
// code for code.
//
// RunStep, which waits for the step, is watched while it runs
// (call_watch.h): when the client goes away, the step ends.
//
//   CallWatch watch;
//   MasterServiceImpl service(&master, &watch);
//   grpc::ServerBuilder builder;
//   builder.RegisterService(&service);
#pragma once

#include <grpcpp/grpcpp.h>

#include "minitf/distributed/runtime/master.h"
#include "minitf/distributed/runtime/proto/master_service.grpc.pb.h"
#include "minitf/distributed/runtime/rpc/call_watch.h"

namespace minitf {

/// The gRPC master service of one task.
/// Thread safety: as the Master's.
class MasterServiceImpl final : public tensorflow::MasterService::Service {
 public:
  /// `master` and `watch` (not owned) must outlive the service.
  MasterServiceImpl(Master* master, CallWatch* watch)
      : master_(master), watch_(watch) {}

  grpc::Status CreateSession(grpc::ServerContext* context,
                             const proto::CreateSessionRequest* request,
                             proto::CreateSessionResponse* response) override;
  grpc::Status ExtendSession(grpc::ServerContext* context,
                             const proto::ExtendSessionRequest* request,
                             proto::ExtendSessionResponse* response) override;
  /// Cancelled, and the step ended, when the client goes away first.
  grpc::Status RunStep(grpc::ServerContext* context,
                       const proto::RunStepRequest* request,
                       proto::RunStepResponse* response) override;
  grpc::Status CloseSession(grpc::ServerContext* context,
                            const proto::CloseSessionRequest* request,
                            proto::CloseSessionResponse* response) override;
  grpc::Status ListDevices(grpc::ServerContext* context,
                           const proto::ListDevicesRequest* request,
                           proto::ListDevicesResponse* response) override;
  grpc::Status Reset(grpc::ServerContext* context,
                     const proto::ResetRequest* request,
                     proto::ResetResponse* response) override;

 private:
  Master* master_;
  CallWatch* watch_;
};

}  // namespace minitf
