#include "minitf/device/devices/device_lib.h"

#include <memory>

#include "minitf/device/devices/device_factory.h"
#include "minitf/tensor/errors.h"

namespace minitf::device_lib {

StatusOr<std::vector<DeviceAttributes>> ListLocalDevices(
    const ConfigProto& config) {
  SessionOptions options;
  options.config = config;
  std::vector<std::unique_ptr<Device>> devices;
  // No name prefix: the devices are listed, not given to a session.
  TF_RETURN_IF_ERROR(DeviceFactory::AddDevices(options, "", &devices));
  std::vector<DeviceAttributes> out;
  for (const auto& d : devices) out.push_back(d->attributes());
  return out;
}

std::vector<DeviceAttributes> list_local_devices(
    const ConfigProto& session_config) {
  return errors::ValueOrThrow(ListLocalDevices(session_config));
}

}  // namespace minitf::device_lib
