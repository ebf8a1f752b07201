// The worker service: the gRPC face of a task's Worker (worker.h).
//
// Every task of a cluster runs one worker service (worker_service.proto). A
// master asks it for its devices (GetStatus), gives it its part of a
// session's graph (RegisterGraph) and runs that part once per step
// (RunGraph); another worker asks it for the tensors its part sends
// (RecvTensor). Each method turns the call into the Worker's and its Status
// into gRPC's, code for code.
//
//   WorkerServiceImpl service(&worker, &device_mgr);
//   grpc::ServerBuilder builder;
//   builder.RegisterService(&service);
#pragma once

#include <grpcpp/grpcpp.h>

#include "minitf/device/device_mgr.h"
#include "minitf/distributed/proto/worker_service.grpc.pb.h"
#include "minitf/distributed/worker.h"

namespace minitf {

/// The gRPC worker service of one task.
/// Thread safety: gRPC calls the methods from its own threads, at once;
/// the Worker allows that.
class WorkerServiceImpl final : public tensorflow::WorkerService::Service {
 public:
  /// `worker` and `devices` (not owned) must outlive the service.
  WorkerServiceImpl(Worker* worker, const DeviceMgr* devices)
      : worker_(worker), devices_(devices) {}

  /// The task's devices, in the device manager's order.
  grpc::Status GetStatus(grpc::ServerContext* context,
                         const proto::GetStatusRequest* request,
                         proto::GetStatusResponse* response) override;
  grpc::Status CreateWorkerSession(
      grpc::ServerContext* context,
      const proto::CreateWorkerSessionRequest* request,
      proto::CreateWorkerSessionResponse* response) override;
  grpc::Status DeleteWorkerSession(
      grpc::ServerContext* context,
      const proto::DeleteWorkerSessionRequest* request,
      proto::DeleteWorkerSessionResponse* response) override;
  grpc::Status RegisterGraph(grpc::ServerContext* context,
                             const proto::RegisterGraphRequest* request,
                             proto::RegisterGraphResponse* response) override;
  grpc::Status DeregisterGraph(
      grpc::ServerContext* context,
      const proto::DeregisterGraphRequest* request,
      proto::DeregisterGraphResponse* response) override;
  grpc::Status RunGraph(grpc::ServerContext* context,
                        const proto::RunGraphRequest* request,
                        proto::RunGraphResponse* response) override;
  grpc::Status CleanupGraph(grpc::ServerContext* context,
                            const proto::CleanupGraphRequest* request,
                            proto::CleanupGraphResponse* response) override;
  grpc::Status CleanupAll(grpc::ServerContext* context,
                          const proto::CleanupAllRequest* request,
                          proto::CleanupAllResponse* response) override;
  /// Waits for the value (Worker::RecvTensor) until the caller cancels or
  /// its deadline passes.
  grpc::Status RecvTensor(grpc::ServerContext* context,
                          const proto::RecvTensorRequest* request,
                          proto::RecvTensorResponse* response) override;

 private:
  Worker* worker_;
  const DeviceMgr* devices_;
};

}  // namespace minitf
