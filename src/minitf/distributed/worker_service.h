// The worker service: what a task does for the masters of the cluster.
//
// Every task of a cluster runs one worker service (worker_service.proto). A
// master asks it for its devices (GetStatus), gives it its part of a
// session's graph (RegisterGraph) and runs that part once per step
// (RunGraph); another worker asks it for the tensors its part sends
// (RecvTensor). This first version answers GetStatus with the task's
// devices, named under the task ("/job:ps/replica:0/task:0/device:CPU:0"),
// and every other method with Unimplemented.
//
//   WorkerServiceImpl worker(device_mgr);
//   grpc::ServerBuilder builder;
//   builder.RegisterService(&worker);
#pragma once

#include <grpcpp/grpcpp.h>

#include "minitf/device/device_mgr.h"
#include "minitf/distributed/proto/worker_service.grpc.pb.h"

namespace minitf {

/// The gRPC worker service of one task.
/// Thread safety: gRPC calls the methods from its own threads, at once;
/// each reads only the device manager, which does not change.
class WorkerServiceImpl final : public tensorflow::WorkerService::Service {
 public:
  /// `devices` (not owned) must outlive the service.
  explicit WorkerServiceImpl(const DeviceMgr* devices) : devices_(devices) {}

  /// The task's devices, in the device manager's order.
  grpc::Status GetStatus(grpc::ServerContext* context,
                         const proto::GetStatusRequest* request,
                         proto::GetStatusResponse* response) override;

 private:
  const DeviceMgr* devices_;
};

}  // namespace minitf
