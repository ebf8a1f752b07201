#include "minitf/device/devices/device_factory.h"

#include <map>
#include <mutex>
#include <utility>

#include "minitf/graph/replaceable_function.h"

namespace minitf {
namespace {

struct FactoryEntry {
  std::unique_ptr<DeviceFactory> factory;
  int priority;
};

struct Registry {
  std::mutex mu;
  std::map<std::string, FactoryEntry> factories;  // by type, sorted
};

Registry& GetRegistry() {
  static Registry* const registry = new Registry;
  return *registry;
}

}  // namespace

Status DeviceFactory::Register(const std::string& device_type,
                               std::unique_ptr<DeviceFactory> factory,
                               int priority) {
  Registry& r = GetRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.factories.find(device_type);
  if (it == r.factories.end()) {
    r.factories.emplace(device_type,
                        FactoryEntry{std::move(factory), priority});
  } else if (it->second.priority < priority) {
    it->second = FactoryEntry{std::move(factory), priority};
  } else if (it->second.priority == priority) {
    return errors::AlreadyExists(
        "Duplicate registration of device factory for type ", device_type,
        " with the same priority ", priority);
  }
  return Status::OK();
}

DeviceFactory* DeviceFactory::GetFactory(const std::string& device_type) {
  Registry& r = GetRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.factories.find(device_type);
  return it == r.factories.end() ? nullptr : it->second.factory.get();
}

int DeviceFactory::DevicePriority(const std::string& device_type) {
  Registry& r = GetRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.factories.find(device_type);
  return it == r.factories.end() ? -1 : it->second.priority;
}

std::vector<std::string> DeviceFactory::GetDeviceTypes() {
  Registry& r = GetRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  std::vector<std::string> types;
  for (const auto& [type, entry] : r.factories) types.push_back(type);
  return types;
}

// --8<-- [start:add_devices]
Status DeviceFactory::AddDevices(
    const SessionOptions& options, const std::string& name_prefix,
    std::vector<std::unique_ptr<Device>>* devices) {
  // CPU first: a process always has a CPU device, and it is device 0 of the
  // list, where the session keeps its client-side tensors.
  DeviceFactory* cpu_factory = GetFactory("CPU");
  if (cpu_factory == nullptr) {
    return errors::NotFound(
        "CPU Factory not registered.  Did you link in threadpool_device?");
  }
  const size_t before = devices->size();
  TF_RETURN_IF_ERROR(cpu_factory->CreateDevices(options, name_prefix, devices));
  if (devices->size() == before) {
    return errors::NotFound("No CPU devices are available in this process");
  }
  // Then the others, by type name. Factories are registered at static
  // initialisation and never removed, so the pointers outlive the lock.
  for (const std::string& type : GetDeviceTypes()) {
    DeviceFactory* factory = GetFactory(type);
    if (factory != cpu_factory) {
      TF_RETURN_IF_ERROR(factory->CreateDevices(options, name_prefix, devices));
    }
  }
  return Status::OK();
}
// --8<-- [end:add_devices]

StatusOr<int> DeviceCountForType(const SessionOptions& options,
                                 const std::string& device_type,
                                 int default_count) {
  const auto& counts = options.config.device_count;
  auto it = counts.find(device_type);
  if (it == counts.end()) return default_count;
  if (it->second < 0) {
    return errors::InvalidArgument("device_count[\"", device_type,
                                   "\"] must not be negative, got ",
                                   it->second);
  }
  return it->second;
}

namespace internal {
DeviceFactoryRegistration::DeviceFactoryRegistration(
    const std::string& device_type, std::unique_ptr<DeviceFactory> factory,
    int priority) {
  CheckRegistration(
      DeviceFactory::Register(device_type, std::move(factory), priority),
      "device factory");
}
}  // namespace internal

}  // namespace minitf
