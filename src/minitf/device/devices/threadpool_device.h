// ThreadPoolDevice: the CPU as a device.
//
// TensorFlow's CPU device is called ThreadPoolDevice after what it adds to
// the bare processor: a pool of threads (Eigen's) for the work inside one op,
// sized by ConfigProto.intra_op_parallelism_threads. Its tensors are ordinary
// host memory, counted by the device's allocator but not capped: TensorFlow
// reports a CPU memory_limit of 256 MiB in device_lib and does not enforce
// it, and neither does minitf. ConfigProto.device_count["CPU"] asks for more
// than one CPU device ({"CPU": 2} gives CPU:0 and CPU:1), which lets a single
// machine show placement and partitioning between devices; they share the
// processor and the memory.
//
//   tf::SessionOptions options;
//   options.config.device_count["CPU"] = 2;
//   options.config.intra_op_parallelism_threads = 2;
//   std::vector<std::unique_ptr<tf::Device>> devices;
//   TF_RETURN_IF_ERROR(tf::DeviceFactory::AddDevices(options, "", &devices));
#pragma once

#include <memory>
#include <mutex>
#include <string>

// Eigen's thread pool, from Eigen's unsupported modules (libeigen3-dev).
#include <unsupported/Eigen/CXX11/ThreadPool>

#include "minitf/device/devices/device.h"
#include "minitf/graph/config.h"

namespace minitf {

/// A device's intra-op pool of `threads` Eigen threads, made on first use:
/// a device that only lists itself (list_local_devices) starts no threads.
/// Thread safety: Get may be called from any thread.
class LazyThreadPool {
 public:
  explicit LazyThreadPool(int threads) : threads_(threads) {}
  Eigen::ThreadPool* Get() {
    std::call_once(once_, [this] {
      pool_ = std::make_unique<Eigen::ThreadPool>(threads_);
    });
    return pool_.get();
  }
  int threads() const { return threads_; }

 private:
  const int threads_;
  std::once_flag once_;
  std::unique_ptr<Eigen::ThreadPool> pool_;
};

/// A CPU device. Thread safety: as Device.
class ThreadPoolDevice final : public Device {
 public:
  /// What TensorFlow's CPU device reports as its memory limit: 256 MiB.
  static constexpr int64_t kMemoryLimit = int64_t{256} << 20;

  /// `name` is the full name ("/job:localhost/replica:0/task:0/device:CPU:0"
  /// or "/device:CPU:0"); `intra_op_threads` > 0 sizes the pool.
  ThreadPoolDevice(std::string name, int intra_op_threads);

  bool UsesHostMemory() const override { return true; }
  /// The pool, made on first use (LazyThreadPool).
  Eigen::ThreadPoolInterface* intra_op_thread_pool() override {
    return pool_.Get();
  }
  /// The number of threads the pool has, or will have.
  int intra_op_threads() const { return pool_.threads(); }

 private:
  LazyThreadPool pool_;
};

/// The number of threads intra_op_parallelism_threads asks for: the value
/// when positive, else one per hardware thread (TensorFlow's default);
/// InvalidArgument when negative.
StatusOr<int> IntraOpThreads(const ConfigProto& config);

}  // namespace minitf
