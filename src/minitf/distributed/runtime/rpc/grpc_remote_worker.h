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
// RecvTensor alone is made with raw bytes, through gRPC's generic stub: the
// generated stub would parse the answer into a RecvTensorResponse message,
// copying the tensor's bytes into its tensor_content string, where
// DecodeRecvTensorResponse (tensor_coding.h) reads them from gRPC's slices
// straight into the tensor, the one copy a transfer needs.
//
//   GrpcRemoteWorker ps0(NewChannel("localhost:2222"));
//   CallOptions opts;
//   ps0.CleanupGraphAsync(&opts, &request, &response, done);
#pragma once

#include <grpcpp/generic/generic_stub.h>

#include <memory>

#include "minitf/distributed/runtime/proto/worker_service.grpc.pb.h"
#include "minitf/distributed/runtime/worker_interface.h"

namespace minitf {

/// A task's worker, over a gRPC channel to it.
/// Thread safety: every method may be called from any thread, at once.
class GrpcRemoteWorker final : public WorkerInterface {
 public:
  /// The worker service at the other end of `channel`. The worker must
  /// outlive its calls.
  explicit GrpcRemoteWorker(std::shared_ptr<grpc::Channel> channel);

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
  /// The answer's bytes are decoded into a tensor of response->allocator.
  void RecvTensorAsync(CallOptions* opts,
                       const proto::RecvTensorRequest* request,
                       TensorResponse* response, StatusCallback done) override;

 private:
  const std::unique_ptr<tensorflow::WorkerService::Stub> stub_;
  grpc::GenericStub generic_;  // RecvTensor's, over the same channel
};

}  // namespace minitf
