#include "minitf/distributed/runtime/rpc/grpc_channel.h"

#include <grpcpp/grpcpp.h>

#include <climits>

namespace minitf {

std::shared_ptr<grpc::Channel> NewChannel(const std::string& address) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(INT_MAX);
  args.SetMaxSendMessageSize(INT_MAX);
  // One channel per peer and process, not shared with other code's.
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  // A peer that is not up yet is tried again within a second: gRPC's
  // reconnect backoff otherwise grows to two minutes, and a master waiting
  // for a task that started late would wait that long after it is up.
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 100);
  args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 100);
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 1000);
  return grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(),
                                   args);
}

}  // namespace minitf
