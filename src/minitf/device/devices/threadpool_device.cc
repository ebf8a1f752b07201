#include "minitf/device/devices/threadpool_device.h"

#include <algorithm>
#include <thread>
#include <utility>

#include "minitf/device/devices/device_factory.h"

namespace minitf {

ThreadPoolDevice::ThreadPoolDevice(std::string name, int intra_op_threads)
    : Device(BuildDeviceAttributes(std::move(name), "CPU", kMemoryLimit,
                                   DeviceLocality{}, ""),
             cpu_allocator(), "cpu", /*bytes_limit=*/0),
      pool_(intra_op_threads) {}

StatusOr<int> IntraOpThreads(const ConfigProto& config) {
  const int n = config.intra_op_parallelism_threads;
  if (n < 0) {
    return errors::InvalidArgument(
        "intra_op_parallelism_threads must not be negative, got ", n);
  }
  if (n > 0) return n;
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

namespace {

// --8<-- [start:cpu_factory]
class ThreadPoolDeviceFactory : public DeviceFactory {
 public:
  Status CreateDevices(const SessionOptions& options,
                       const std::string& name_prefix,
                       std::vector<std::unique_ptr<Device>>* devices) override {
    TF_ASSIGN_OR_RETURN(int count, DeviceCountForType(options, "CPU", 1));
    TF_ASSIGN_OR_RETURN(int threads, IntraOpThreads(options.config));
    for (int i = 0; i < count; ++i) {
      devices->push_back(std::make_unique<ThreadPoolDevice>(
          name_prefix + LocalDeviceName("CPU", i), threads));
    }
    return Status::OK();
  }
};
// --8<-- [end:cpu_factory]

}  // namespace

// TensorFlow's priority for its CPU factory: below every accelerator.
MINITF_REGISTER_LOCAL_DEVICE_FACTORY("CPU", ThreadPoolDeviceFactory, 60);

}  // namespace minitf
