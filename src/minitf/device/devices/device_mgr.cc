#include "minitf/device/devices/device_mgr.h"

#include <utility>

#include "minitf/device/devices/device_factory.h"

namespace minitf {

DeviceMgr::DeviceMgr(std::vector<std::unique_ptr<Device>> devices)
    : devices_(std::move(devices)) {}

StatusOr<std::unique_ptr<DeviceMgr>> DeviceMgr::Create(
    const SessionOptions& options, const std::string& name_prefix) {
  std::vector<std::unique_ptr<Device>> devices;
  TF_RETURN_IF_ERROR(DeviceFactory::AddDevices(options, name_prefix, &devices));
  return std::make_unique<DeviceMgr>(std::move(devices));
}

std::vector<Device*> DeviceMgr::ListDevices() const {
  std::vector<Device*> out;
  for (const auto& d : devices_) out.push_back(d.get());
  return out;
}

StatusOr<Device*> DeviceMgr::LookupDevice(std::string_view name) const {
  StatusOr<DeviceSpec> spec = DeviceSpec::Parse(name);
  if (spec.ok() && spec.value().device_type && spec.value().device_index) {
    Device* found = nullptr;
    for (const auto& d : devices_) {
      if (!spec.value().Matches(d->parsed_name())) continue;
      if (found != nullptr) {
        found = nullptr;  // more than one: the name does not denote one
        break;
      }
      found = d.get();
    }
    if (found != nullptr) return found;
  }
  return errors::InvalidArgument(name, " unknown device.");
}

int DeviceMgr::NumDeviceType(std::string_view device_type) const {
  int n = 0;
  for (const auto& d : devices_) n += d->device_type() == device_type;
  return n;
}

std::string DeviceMgr::DeviceMappingString() const {
  std::string out;
  for (const auto& d : devices_) {
    const std::string& desc = d->attributes().physical_device_desc;
    if (!desc.empty()) out += d->name() + " -> " + desc + "\n";
  }
  return out;
}

}  // namespace minitf
