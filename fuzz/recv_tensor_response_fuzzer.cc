// The RecvTensor answer as a client decodes it (tensor_coding.h): the bytes
// of a RecvTensorResponse in gRPC's slices, walked field by field. The
// first byte says where the rest is cut into two slices, so that fields
// that straddle a slice boundary are decoded too.
#include <grpcpp/support/byte_buffer.h>

#include "fuzzing.h"
#include "minitf/distributed/runtime/rpc/tensor_coding.h"

namespace tf = minitf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const size_t cut = std::min<size_t>(data[0], size - 1);
  std::string_view rest = tf::fuzzing::Bytes(data + 1, size - 1);
  grpc::Slice slices[2] = {grpc::Slice(rest.data(), cut),
                           grpc::Slice(rest.data() + cut, rest.size() - cut)};
  grpc::ByteBuffer buffer(slices, 2);
  tf::Tensor value;
  bool is_dead = false;
  (void)tf::DecodeRecvTensorResponse(&buffer, tf::cpu_allocator(), &value,
                                     &is_dead);
  return 0;
}
