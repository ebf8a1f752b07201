// DeviceFactory: how a process finds out which devices it has.
//
// A session does not know in advance which devices exist. It asks every
// registered device factory, one per device type, to create the devices of
// its type that the session's options allow (ConfigProto.device_count,
// gpu_options.visible_device_list ...). The CPU factory always runs first,
// since every process needs a CPU device; the others follow in the order of
// their type names. This file is that registry, as TensorFlow's.
//
// Each registration carries a priority, and the priority is the type's rank
// when the placer chooses among device types for an op that may run on
// several: TensorFlow registers GPU at 210 and CPU at 60, so an op with a GPU
// kernel goes to the GPU. A later chapter can take over a type by
// registering a factory for it with a higher priority (chapter 5's CUDA GPUs).
//
//   class MyFactory : public tf::DeviceFactory { ... CreateDevices ... };
//   MINITF_REGISTER_LOCAL_DEVICE_FACTORY("MY_DEVICE", MyFactory, 100);
//   std::vector<std::unique_ptr<tf::Device>> devices;
//   TF_RETURN_IF_ERROR(tf::DeviceFactory::AddDevices(options, "", &devices));
//   tf::DeviceFactory::DevicePriority("GPU");   // 210
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "minitf/device/devices/device.h"
#include "minitf/graph/config.h"
#include "minitf/tensor/status.h"

namespace minitf {

/// Makes the devices of one type.
class DeviceFactory {
 public:
  virtual ~DeviceFactory() = default;

  /// Appends the devices of this factory's type that `options` allow, named
  /// name_prefix + "/device:TYPE:i" (name_prefix is
  /// "/job:localhost/replica:0/task:0" in a session, "" for
  /// list_local_devices). An error for options this type cannot honour (a
  /// malformed visible_device_list, a negative device_count).
  virtual Status CreateDevices(
      const SessionOptions& options, const std::string& name_prefix,
      std::vector<std::unique_ptr<Device>>* devices) = 0;

  /// Registers `factory` for `device_type`. A type has one factory: a
  /// registration with a higher priority replaces the one before, a lower
  /// one is ignored, and an equal one is AlreadyExists (as TensorFlow, which
  /// aborts). Thread safety: safe at any time.
  static Status Register(const std::string& device_type,
                         std::unique_ptr<DeviceFactory> factory, int priority);
  /// The factory for `device_type`, or nullptr.
  static DeviceFactory* GetFactory(const std::string& device_type);
  /// The priority `device_type` was registered with, or -1 for a type
  /// without a factory. The placer ranks device types by it.
  static int DevicePriority(const std::string& device_type);
  /// The registered types, sorted by name.
  static std::vector<std::string> GetDeviceTypes();

  /// TensorFlow's DeviceFactory::AddDevices: the CPU factory first, then the
  /// others by type name. NotFound "No CPU devices are available in this
  /// process" when the CPU factory makes none ({"CPU": 0}); any factory's
  /// error as it is.
  static Status AddDevices(const SessionOptions& options,
                           const std::string& name_prefix,
                           std::vector<std::unique_ptr<Device>>* devices);
};

/// The number of devices of `device_type` that `options` ask for:
/// device_count[device_type], or `default_count` when it is absent.
/// InvalidArgument for a negative count (TensorFlow treats one as zero for
/// the CPU and as "all" for GPUs; a typed error is kinder).
StatusOr<int> DeviceCountForType(const SessionOptions& options,
                                 const std::string& device_type,
                                 int default_count);

namespace internal {
struct DeviceFactoryRegistration {
  DeviceFactoryRegistration(const std::string& device_type,
                            std::unique_ptr<DeviceFactory> factory,
                            int priority);
};
}  // namespace internal

/// Registers factory class F (default-constructible) for `device_type` at
/// static-initialisation time, as REGISTER_LOCAL_DEVICE_FACTORY does.
#define MINITF_REGISTER_LOCAL_DEVICE_FACTORY(device_type, F, priority)   \
  MINITF_REGISTER_LOCAL_DEVICE_FACTORY_UNIQ(__COUNTER__, device_type, F, \
                                            priority)
#define MINITF_REGISTER_LOCAL_DEVICE_FACTORY_UNIQ(ctr, device_type, F, \
                                                  priority)            \
  MINITF_REGISTER_LOCAL_DEVICE_FACTORY_UNIQ2(ctr, device_type, F, priority)
#define MINITF_REGISTER_LOCAL_DEVICE_FACTORY_UNIQ2(ctr, device_type, F, \
                                                   priority)            \
  static const ::minitf::internal::DeviceFactoryRegistration            \
      minitf_device_factory_##ctr                                       \
      [[maybe_unused]] (device_type, std::make_unique<F>(), priority)

}  // namespace minitf
