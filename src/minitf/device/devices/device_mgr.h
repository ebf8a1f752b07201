// DeviceMgr: the devices a session owns.
//
// When a session starts it asks the device factories for the devices its
// options allow and keeps them for its whole life in a DeviceMgr: the owner,
// which finds a device by any of its names and prints the "Device mapping"
// that log_device_placement shows. The placer works on a DeviceSet
// (device_set.h), a view that may also hold devices of other processes
// (chapter 7); the DeviceMgr holds only this process's.
//
//   TF_ASSIGN_OR_RETURN(auto mgr, tf::DeviceMgr::Create(options));
//   TF_ASSIGN_OR_RETURN(tf::Device* gpu, mgr->LookupDevice("/gpu:0"));
//   std::cout << "Device mapping:\n" << mgr->DeviceMappingString();
//   // /job:localhost/replica:0/task:0/device:GPU:0 -> device: 0, name: ...
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "minitf/device/devices/device.h"
#include "minitf/graph/config.h"

namespace minitf {

/// The job, replica and task of the devices of a local session.
inline constexpr const char* kLocalDevicePrefix =
    "/job:localhost/replica:0/task:0";

/// Owns a process's devices. Invariants: device names are unique; the
/// devices keep the order they were given in (CPU:0 first when they come
/// from DeviceFactory::AddDevices). Thread safety: const methods may be
/// called from any thread.
class DeviceMgr {
 public:
  explicit DeviceMgr(std::vector<std::unique_ptr<Device>> devices);
  /// The devices `options` allow, named under `name_prefix`: the errors of
  /// DeviceFactory::AddDevices.
  static StatusOr<std::unique_ptr<DeviceMgr>> Create(
      const SessionOptions& options,
      const std::string& name_prefix = kLocalDevicePrefix);

  std::vector<Device*> ListDevices() const;
  /// The device a name denotes, in any spelling that names one device:
  /// "/job:localhost/replica:0/task:0/device:GPU:0", "/device:GPU:0",
  /// "/gpu:0". InvalidArgument in TensorFlow's words otherwise:
  /// "/gpu:3 unknown device."
  StatusOr<Device*> LookupDevice(std::string_view name) const;
  /// How many devices of `device_type` there are.
  int NumDeviceType(std::string_view device_type) const;
  /// One line "<name> -> <physical_device_desc>" per device that has a
  /// description (GPUs; CPUs have none), as TensorFlow's DeviceMgr writes
  /// it; "" when no device has one.
  std::string DeviceMappingString() const;

 private:
  std::vector<std::unique_ptr<Device>> devices_;
};

}  // namespace minitf
