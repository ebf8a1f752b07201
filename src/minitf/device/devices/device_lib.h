// device_lib: the devices this process would give a session.
//
// `from tensorflow.python.client import device_lib` is how TensorFlow 1.x
// programs look at their hardware: device_lib.list_local_devices() creates
// the devices a session with these options would get, and returns their
// DeviceAttributes; printed, they read as protocol buffers in text form. The
// names carry no job ("/device:CPU:0"), since the devices belong to no
// session. Virtual GPUs are listed like real ones, and their
// physical_device_desc says that they are virtual.
//
//   std::cout << tf::device_lib::list_local_devices() << "\n";
//   // [name: "/device:CPU:0"
//   // device_type: "CPU"
//   // memory_limit: 268435456
//   // ...
#pragma once

#include <vector>

#include "minitf/device/devices/device_attributes.h"
#include "minitf/graph/config.h"
#include "minitf/tensor/status.h"

namespace minitf::device_lib {

/// The core: the attributes of the devices `config` allows, CPU first, or
/// the device factories' error.
StatusOr<std::vector<DeviceAttributes>> ListLocalDevices(
    const ConfigProto& config = {});

/// device_lib.list_local_devices(session_config): as ListLocalDevices,
/// throwing the typed error (InvalidArgumentError for a bad
/// visible_device_list, NotFoundError for {"CPU": 0}).
std::vector<DeviceAttributes> list_local_devices(
    const ConfigProto& session_config = {});

}  // namespace minitf::device_lib
