#include "minitf/distributed/worker_service.h"

#include "minitf/distributed/proto_convert.h"

namespace minitf {

grpc::Status WorkerServiceImpl::GetStatus(grpc::ServerContext* /*context*/,
                                          const proto::GetStatusRequest*,
                                          proto::GetStatusResponse* response) {
  for (const Device* device : devices_->ListDevices()) {
    *response->add_device_attributes() =
        DeviceAttributesToProto(device->attributes());
  }
  return grpc::Status::OK;
}

}  // namespace minitf
