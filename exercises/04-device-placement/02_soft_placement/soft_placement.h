// Exercise 02_soft_placement: where the placer puts a node whose request
// nothing satisfies.
//
// `tf::device_scope on("/gpu:2")` on a machine with two GPUs asks for a
// device that does not exist; an int32 MatMul under "/gpu:0" asks for a GPU
// kernel that does not exist. Without soft placement TensorFlow refuses with
// an InvalidArgumentError that says which of the two went wrong; with
// ConfigProto.allow_soft_placement it forgets the device type and index of
// the request, keeps its job, replica and task, and takes the best device
// left:
//
//   PlaceNode("b", "/device:GPU:2", {"GPU", "CPU"}, two_gpus, false);
//   // InvalidArgument "{{node b}} was explicitly assigned to /device:GPU:2
//   // but available devices are [ ... ]. Make sure ..."
//   PlaceNode("b", "/device:GPU:2", {"GPU", "CPU"}, two_gpus, true);
//   // .../device:GPU:0
#pragma once

#include <string>
#include <vector>

#include "minitf/device/devices/device.h"
#include "minitf/device/devices/device_set.h"
#include "minitf/tensor/status.h"

namespace minitf::exercises {

/// The device TensorFlow's placer gives a node named `name` that requests
/// `requested_device` and has kernels for `supported_types` (best first).
///
/// 1. The devices that satisfy the request and have a supported type, best
///    first (type rank, GPU before CPU, then index): return the first.
/// 2. None, and `allow_soft_placement`: the same with the request's device
///    type and index dropped (its job, replica and task stay).
/// 3. Still none: InvalidArgument, in TensorFlow 1.15's words, which say
///    why, judged on the request as given:
///    - no device satisfies it at all: "{{node NAME}} was explicitly
///      assigned to REQUEST but available devices are [ D1, D2 ]. Make sure
///      the device specification refers to a valid device.", the devices'
///      full names sorted, joined by ", ";
///    - some do, and it names a device type: "Could not satisfy explicit
///      device specification 'REQUEST' because no supported kernel for TYPE
///      devices is available.";
///    - otherwise: "Could not satisfy explicit device specification
///      'REQUEST" (TensorFlow leaves the quote open).
///
/// REQUIRES: `requested_device` is not empty (a node that asks nothing is
/// placed by another rule); InvalidArgument as DeviceSpec::Parse gives it
/// when it does not parse.
StatusOr<Device*> PlaceNode(const std::string& name,
                            const std::string& requested_device,
                            const std::vector<std::string>& supported_types,
                            const DeviceSet& devices,
                            bool allow_soft_placement);

}  // namespace minitf::exercises
