// A Status as gRPC's status, and back.
//
// A call between tasks ends with gRPC's status, which carries a code and a
// message as minitf's Status does. TensorFlow's error codes are gRPC's
// (proto/error_codes.proto numbers them alike), so the code crosses the
// wire unchanged: a worker's InvalidArgument reaches the client as
// InvalidArgument with the worker's message. Only the files that speak gRPC
// include this header, so the rest of the layer stays free of gRPC's.
//
//   grpc::Status WorkerServiceImpl::RunGraph(...) {
//     return tf::ToGrpcStatus(worker_->RunGraph(*request, response));
//   }
//   Status s = tf::FromGrpcStatus(stub->RunStep(&context, request, &response));
#pragma once

#include <grpcpp/support/status.h>

#include "minitf/tensor/status.h"

namespace minitf {

/// `status` as gRPC's: OK, or its code and message.
grpc::Status ToGrpcStatus(const Status& status);
/// gRPC's `status` as minitf's: OK, or its code and message.
Status FromGrpcStatus(const grpc::Status& status);

}  // namespace minitf
