// The master service: what a task does for the clients of the cluster.
//
// Every task of a cluster runs one master service (master_service.proto)
// beside its worker service, so a client may make its session on any task:
// the master it reaches places the client's graph over the whole cluster and
// drives the workers through the steps. This first version answers
// ListDevices with the devices of its own task (local_device) and every
// other method with Unimplemented.
//
//   MasterServiceImpl master(device_mgr);
//   grpc::ServerBuilder builder;
//   builder.RegisterService(&master);
#pragma once

#include <grpcpp/grpcpp.h>

#include "minitf/device/device_mgr.h"
#include "minitf/distributed/proto/master_service.grpc.pb.h"

namespace minitf {

/// The gRPC master service of one task.
/// Thread safety: as WorkerServiceImpl's.
class MasterServiceImpl final : public tensorflow::MasterService::Service {
 public:
  /// `devices` (not owned) must outlive the service.
  explicit MasterServiceImpl(const DeviceMgr* devices) : devices_(devices) {}

  /// The devices of the master's own task, as local_device; remote_device
  /// stays empty until the master asks the other tasks (GetStatus).
  grpc::Status ListDevices(grpc::ServerContext* context,
                           const proto::ListDevicesRequest* request,
                           proto::ListDevicesResponse* response) override;

 private:
  const DeviceMgr* devices_;
};

}  // namespace minitf
