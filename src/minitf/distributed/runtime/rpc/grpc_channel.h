// NewChannel: the gRPC channel a client of this layer opens to a task.
//
// A worker cache opens one channel per task it reaches (worker_cache.h),
// and a client's session one to the master of its target (grpc_session.h).
// Both are gRPC's channels with the same arguments, set here once: no limit
// on a message's size, a channel of its own per peer, and a quick retry of
// a peer that is not up yet.
//
//   std::shared_ptr<grpc::Channel> channel = NewChannel("localhost:2222");
//   auto stub = tensorflow::MasterService::NewStub(channel);
#pragma once

#include <grpcpp/channel.h>

#include <memory>
#include <string>

namespace minitf {

/// A channel to `address` ("localhost:2222"), made with the arguments
/// minitf's clients use: no limit on message size (a tensor may be as large
/// as a protobuf allows), as TensorFlow's.
std::shared_ptr<grpc::Channel> NewChannel(const std::string& address);

}  // namespace minitf
