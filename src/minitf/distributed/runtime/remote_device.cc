#include "minitf/distributed/runtime/remote_device.h"

#include "minitf/tensor/allocator.h"

namespace minitf {

RemoteDevice::RemoteDevice(DeviceAttributes attributes)
    : Device(std::move(attributes), cpu_allocator(), "remote", 0) {}

}  // namespace minitf
