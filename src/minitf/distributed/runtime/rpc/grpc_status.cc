#include "minitf/distributed/runtime/rpc/grpc_status.h"

namespace minitf {

grpc::Status ToGrpcStatus(const Status& status) {
  if (status.ok()) return grpc::Status::OK;
  return grpc::Status(static_cast<grpc::StatusCode>(status.code()),
                      status.message());
}

Status FromGrpcStatus(const grpc::Status& status) {
  if (status.ok()) return Status::OK();
  return Status(static_cast<error::Code>(status.error_code()),
                status.error_message());
}

}  // namespace minitf
