// DeviceSet: the devices a placer may choose from.
//
// The placer decides, for every node of a graph, which device runs it. What
// it needs to know of the devices is in this class: their names and types,
// which of them satisfy a node's requested DeviceSpec ("/gpu:1" matches
// /job:localhost/replica:0/task:0/device:GPU:1), how the device types rank
// (a GPU before the CPU, by the priorities of their factories), and which
// types have a kernel for a node. It also names the client device, the CPU
// where a session's feeds arrive and its fetches leave. A DeviceSet does not
// own its devices: a session's come from its DeviceMgr, and chapter 7 adds
// devices of other processes.
//
//   tf::DeviceSet set;
//   for (tf::Device* d : mgr->ListDevices()) set.AddDevice(d);
//   set.set_client_device(mgr->ListDevices()[0]);
//   auto gpus = set.FindMatchingDevices(tf::DeviceSpec::from_string("/gpu:*"));
//   set.SupportedDeviceTypesForNode(*node);   // {"GPU", "CPU"} for a MatMul
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "minitf/device/devices/device.h"
#include "minitf/device/placement/device_spec.h"
#include "minitf/graph/graph.h"

namespace minitf {

/// A set of devices, not owned. Invariants: no device twice; devices()
/// keeps the order of AddDevice. Thread safety: building is single-threaded;
/// const methods may then be called from any thread.
class DeviceSet {
 public:
  /// Adds `device`, which must outlive the set; adding one twice is a no-op.
  void AddDevice(Device* device);
  /// The device of the process that feeds and fetches; usually CPU:0.
  void set_client_device(Device* device) { client_device_ = device; }
  Device* client_device() const { return client_device_; }

  const std::vector<Device*>& devices() const { return devices_; }
  /// The full names, in order: for messages such as TensorFlow's
  /// "available devices: /job:localhost/replica:0/task:0/device:CPU:0, ...".
  std::vector<std::string> DeviceNames() const;
  /// The device with this exact full name, or nullptr.
  Device* FindDeviceByName(std::string_view full_name) const;
  /// The devices that satisfy `spec` (DeviceSpec::Matches), in order.
  std::vector<Device*> FindMatchingDevices(const DeviceSpec& spec) const;

  /// The rank of a device type: its factory's priority (GPU 210, CPU 60),
  /// -1 for a type without a factory (a remote one).
  static int DeviceTypePriority(const std::string& device_type);
  /// The types of this set's devices, best first: higher priority first,
  /// then by name (TensorFlow's PrioritizedDeviceTypeList).
  std::vector<std::string> PrioritizedDeviceTypeList() const;
  /// The devices, best first: by the rank of their type, then the client
  /// device's own task before other tasks, then job, replica, task and
  /// index, so GPU:0 comes before GPU:1 and both before CPU:0. (The client's
  /// task first is TensorFlow's default_local_device rule: in a cluster, a
  /// node that asks for no device runs on the task the session was made on.)
  std::vector<Device*> PrioritizedDevices() const;
  /// The types of this set that have a kernel for `node`
  /// (KernelRegistry::HasKernelForNode, which checks its dtype), best first.
  std::vector<std::string> SupportedDeviceTypesForNode(const Node& node) const;

 private:
  std::vector<Device*> devices_;
  Device* client_device_ = nullptr;
};

}  // namespace minitf
