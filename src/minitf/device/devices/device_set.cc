#include "minitf/device/devices/device_set.h"

#include <algorithm>
#include <tuple>

#include "minitf/device/devices/device_factory.h"
#include "minitf/graph/kernel.h"

namespace minitf {

void DeviceSet::AddDevice(Device* device) {
  if (std::find(devices_.begin(), devices_.end(), device) == devices_.end()) {
    devices_.push_back(device);
  }
}

std::vector<std::string> DeviceSet::DeviceNames() const {
  std::vector<std::string> names;
  for (const Device* d : devices_) names.push_back(d->name());
  return names;
}

Device* DeviceSet::FindDeviceByName(std::string_view full_name) const {
  for (Device* d : devices_) {
    if (d->name() == full_name) return d;
  }
  return nullptr;
}

std::vector<Device*> DeviceSet::FindMatchingDevices(
    const DeviceSpec& spec) const {
  std::vector<Device*> out;
  for (Device* d : devices_) {
    if (spec.Matches(d->parsed_name())) out.push_back(d);
  }
  return out;
}

int DeviceSet::DeviceTypePriority(const std::string& device_type) {
  return DeviceFactory::DevicePriority(device_type);
}

namespace {

// TensorFlow's DeviceSet::DeviceTypeOrder: true when type `a` ranks before
// type `b`.
bool TypeRanksBefore(const std::string& a, const std::string& b) {
  const int pa = DeviceSet::DeviceTypePriority(a);
  const int pb = DeviceSet::DeviceTypePriority(b);
  return pa != pb ? pa > pb : a < b;
}

}  // namespace

std::vector<std::string> DeviceSet::PrioritizedDeviceTypeList() const {
  std::vector<std::string> types;
  for (const Device* d : devices_) {
    if (std::find(types.begin(), types.end(), d->device_type()) ==
        types.end()) {
      types.push_back(d->device_type());
    }
  }
  std::sort(types.begin(), types.end(), TypeRanksBefore);
  return types;
}

std::vector<Device*> DeviceSet::PrioritizedDevices() const {
  std::vector<Device*> out = devices_;
  auto key = [this](const Device* d) {
    const DeviceSpec& n = d->parsed_name();
    bool other_task = false;
    if (client_device_ != nullptr) {
      const DeviceSpec& c = client_device_->parsed_name();
      other_task = n.job != c.job || n.replica != c.replica || n.task != c.task;
    }
    return std::make_tuple(other_task, n.job.value_or(""),
                           n.replica.value_or(0), n.task.value_or(0),
                           n.device_index.value_or(0));
  };
  std::stable_sort(
      out.begin(), out.end(), [&](const Device* a, const Device* b) {
        if (a->device_type() != b->device_type()) {
          return TypeRanksBefore(a->device_type(), b->device_type());
        }
        return key(a) < key(b);
      });
  return out;
}

std::vector<std::string> DeviceSet::SupportedDeviceTypesForNode(
    const Node& node) const {
  std::vector<std::string> out;
  for (const std::string& type : PrioritizedDeviceTypeList()) {
    if (KernelRegistry::Global()->HasKernelForNode(node, type)) {
      out.push_back(type);
    }
  }
  return out;
}

}  // namespace minitf
