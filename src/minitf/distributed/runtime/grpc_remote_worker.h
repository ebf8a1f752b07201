// GrpcRemoteWorker: the worker of another task, reached over gRPC.
//
// The master's calls to a task that runs in another process go through
// the task's worker service (worker_service.proto) with gRPC's callback
// API: each call is sent at once and answers on one of gRPC's threads.
// This class turns a WorkerInterface call into that RPC: the CallOptions'
// deadline and wait-for-ready become the call's ClientContext settings, a
// cancellation becomes ClientContext::TryCancel, and gRPC's status becomes
// minitf's (FromGrpcStatus), in the same words on both ends.
//
//   auto channel = NewChannel("localhost:2222");
//   auto stub = tensorflow::WorkerService::NewStub(channel);
//   GrpcRemoteWorker ps0(stub.get());
//   CallOptions opts;
//   ps0.CleanupGraphAsync(&opts, &request, &response, done);
#pragma once

#include "minitf/distributed/runtime/proto/worker_service.grpc.pb.h"
#include "minitf/distributed/runtime/worker_interface.h"

namespace minitf {

/// A task's worker, over a gRPC stub.
/// Thread safety: every method may be called from any thread, at once.
class GrpcRemoteWorker final : public WorkerInterface {
 public:
  /// `stub` (not owned) must outlive the worker and its calls.
  explicit GrpcRemoteWorker(tensorflow::WorkerService::Stub* stub)
      : stub_(stub) {}

  void GetStatusAsync(CallOptions* opts, const proto::GetStatusRequest* request,
                      proto::GetStatusResponse* response,
                      StatusCallback done) override;
  void CreateWorkerSessionAsync(
      CallOptions* opts, const proto::CreateWorkerSessionRequest* request,
      proto::CreateWorkerSessionResponse* response,
      StatusCallback done) override;
  void DeleteWorkerSessionAsync(
      CallOptions* opts, const proto::DeleteWorkerSessionRequest* request,
      proto::DeleteWorkerSessionResponse* response,
      StatusCallback done) override;
  void RegisterGraphAsync(CallOptions* opts,
                          const proto::RegisterGraphRequest* request,
                          proto::RegisterGraphResponse* response,
                          StatusCallback done) override;
  void DeregisterGraphAsync(CallOptions* opts,
                            const proto::DeregisterGraphRequest* request,
                            proto::DeregisterGraphResponse* response,
                            StatusCallback done) override;
  void RunGraphAsync(CallOptions* opts, const proto::RunGraphRequest* request,
                     proto::RunGraphResponse* response,
                     StatusCallback done) override;
  void CleanupGraphAsync(CallOptions* opts,
                         const proto::CleanupGraphRequest* request,
                         proto::CleanupGraphResponse* response,
                         StatusCallback done) override;
  void CleanupAllAsync(CallOptions* opts,
                       const proto::CleanupAllRequest* request,
                       proto::CleanupAllResponse* response,
                       StatusCallback done) override;

 private:
  tensorflow::WorkerService::Stub* const stub_;
};

}  // namespace minitf
