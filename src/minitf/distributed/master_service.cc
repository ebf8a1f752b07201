#include "minitf/distributed/master_service.h"

#include "minitf/distributed/proto_convert.h"

namespace minitf {

grpc::Status MasterServiceImpl::ListDevices(
    grpc::ServerContext* /*context*/, const proto::ListDevicesRequest*,
    proto::ListDevicesResponse* response) {
  for (const Device* device : devices_->ListDevices()) {
    *response->add_local_device() =
        DeviceAttributesToProto(device->attributes());
  }
  return grpc::Status::OK;
}

}  // namespace minitf
