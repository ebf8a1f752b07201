// RemoteDevice: a device of another task, as a master sees it.
//
// A master places a client's graph over every device of the cluster, but
// runs none of it itself: the tasks' workers do. The placer still wants a
// Device for each (its name, its type, its incarnation for the rendezvous
// keys), so the master makes one RemoteDevice per device a task reported
// in GetStatus. It never allocates: its allocator is the host's, unused.
//
//   TF_ASSIGN_OR_RETURN(DeviceAttributes a,
//                       DeviceAttributesFromProto(status.device_attributes(0)));
//   auto device = std::make_unique<RemoteDevice>(a);
//   device_set.AddDevice(device.get());
#pragma once

#include "minitf/device/devices/device.h"

namespace minitf {

/// A device that runs in another process. Thread safety: immutable.
class RemoteDevice final : public Device {
 public:
  /// REQUIRES: attributes.name is a full device name.
  explicit RemoteDevice(DeviceAttributes attributes);
  bool UsesHostMemory() const override { return true; }
};

}  // namespace minitf
