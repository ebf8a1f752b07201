// Exercise 01_colocation_choice: the device the placer gives one colocation
// group.
//
// A variable, its Assign, its read and its optimizer update must run on one
// device: they form a colocation group. Each member may ask for a device
// (tf::device_scope) and each has kernels for some device types only. The
// placer merges what the members ask for into one request, keeps the types
// every member can run on, and takes the best device that fits both:
//
//   std::vector<GroupMember> group = {
//       {"w", "/device:CPU:0", {"GPU", "CPU"}},
//       {"w/Assign", "", {"GPU", "CPU"}},
//       {"w/ApplyAdam", "/job:localhost", {"GPU", "CPU"}}};
//   ChooseGroupDevice(group, devices);   // .../device:CPU:0
#pragma once

#include <string>
#include <vector>

#include "minitf/device/devices/device.h"
#include "minitf/device/devices/device_set.h"
#include "minitf/tensor/status.h"

namespace minitf::exercises {

/// One member of a colocation group, as the placer sees it.
struct GroupMember {
  std::string name;              ///< "w/Assign"
  std::string requested_device;  ///< "", "/device:GPU:1", "/job:localhost"
  /// The device types with a kernel for this member, best first.
  std::vector<std::string> supported_types;
};

/// The device TensorFlow's placer gives every member of `group` (without
/// soft placement), or why there is none.
///
/// For each member M in turn (F is the first):
/// 1. Merge its request into the group's with MergeDevNames (strict): a
///    field set by two members must agree. On a conflict, InvalidArgument
///    "Cannot colocate nodes {{colocation_node M}} and {{colocation_node
///    F}}: " followed by MergeDevNames's message.
/// 2. Keep the device types that it supports too. None left:
///    InvalidArgument "Cannot colocate nodes {{colocation_node M}} and
///    {{colocation_node F}} because no device type supports both of those
///    nodes and the other nodes colocated with them."
/// Then:
/// 3. Of the devices that satisfy the merged request and have a kept type,
///    return the best: by type rank (GPU before CPU), then by index. None:
///    InvalidArgument "Could not satisfy explicit device specification
///    'MERGED'", MERGED the merged request as DeviceSpec prints it.
///
/// REQUIRES: `group` is not empty; requests parse (InvalidArgument as
/// DeviceSpec::Parse gives it otherwise).
StatusOr<Device*> ChooseGroupDevice(const std::vector<GroupMember>& group,
                                    const DeviceSet& devices);

}  // namespace minitf::exercises
