// Device: a place where kernels run and tensors live.
//
// Chapter 2 ran every kernel on "the CPU" without naming it. From here on a
// process has devices, each with a name (/job:localhost/replica:0/task:0/
// device:GPU:0), a type that picks its kernels from the registry ("GPU"), a
// memory of its own with an allocator that counts and caps it, a way to copy
// tensors in and out of that memory (its DeviceContext), and threads for the
// work inside one op. The placer (later in this chapter) assigns each node to
// a device; the executor of that device then runs the node's kernel there.
//
// Device is the abstract base; threadpool_device.h (the CPU) and
// virtual_gpu_device.h are the two kinds this layer makes, through device
// factories (device_factory.h).
//
//   std::vector<std::unique_ptr<tf::Device>> devices;
//   TF_RETURN_IF_ERROR(tf::DeviceFactory::AddDevices(
//       options, "/job:localhost/replica:0/task:0", &devices));
//   tf::Device* gpu = devices[1].get();   // name(): ".../device:GPU:0"
//   TF_ASSIGN_OR_RETURN(tf::Tensor t, gpu->AllocateTensor(tf::DT_FLOAT, {2,
//   3})); gpu->GetAllocatorStats().bytes_in_use;     // counts t
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "minitf/device/devices/device_attributes.h"
#include "minitf/device/memory/device_allocator.h"
#include "minitf/device/placement/device_spec.h"
#include "minitf/graph/kernel.h"
#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor.h"

namespace Eigen {
class ThreadPoolInterface;
}  // namespace Eigen

namespace minitf {

class DeviceContext;

/// What crossed into and out of a device's memory through copies.
struct TransferStats {
  int64_t copies_in = 0;   ///< Copies that wrote into this device's memory.
  int64_t bytes_in = 0;    ///< Their bytes.
  int64_t copies_out = 0;  ///< Copies that read out of this device's memory.
  int64_t bytes_out = 0;   ///< Their bytes.
};

/// A device of this process.
///
/// Invariants: name() is a device name that DeviceSpec parses, with a type
/// and an index, and parsed_name() is its parse; device_type() is the type
/// in the name; the allocator lives as long as any tensor it allocated,
/// which may be longer than the device (device_allocator.h).
///
/// Thread safety: every method may be called from any thread.
class Device {
 public:
  virtual ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const DeviceAttributes& attributes() const { return attributes_; }
  /// "/job:localhost/replica:0/task:0/device:GPU:0".
  const std::string& name() const { return attributes_.name; }
  const DeviceSpec& parsed_name() const { return parsed_name_; }
  /// "CPU", "GPU": the key of this device's kernels in the registry.
  const std::string& device_type() const { return attributes_.device_type; }

  /// The allocator of this device's memory, which counts every byte (and,
  /// for a device with a limit, refuses past it).
  DeviceAllocator* allocator() const { return allocator_; }
  AllocatorStats GetAllocatorStats() const { return allocator_->GetStats(); }
  /// The allocator this device's kernels make their tensors from: the
  /// executor makes it the default allocator around each kernel it runs
  /// (ScopedDefaultAllocator, allocator.h). For a device with a memory of its
  /// own that is allocator(), so that its limit and statistics cover every
  /// output and temporary of its kernels. For a device on host memory it is
  /// the memory's own allocator, uncounted, as TensorFlow's CPU device hands
  /// its kernels the process's CPU allocator: counting there would put a
  /// lock on every tensor of every CPU kernel for statistics that enforce
  /// nothing, since a CPU device has no limit.
  Allocator* kernel_allocator() const {
    return UsesHostMemory() ? base_ : allocator_;
  }
  /// `status` in TensorFlow's words when it is layer 1's refusal of this
  /// device's allocator ("OOM when allocating tensor with shape[2,3] and
  /// type float on GPU_0_virtual"): "... on /job:localhost/replica:0/task:0/
  /// device:GPU:0 by allocator GPU_0_virtual", as TensorFlow's
  /// OpKernelContext::allocate_tensor reports it. Any other status unchanged.
  Status NameDeviceInOom(const Status& status) const;
  /// A tensor in this device's memory. When the memory is full,
  /// ResourceExhausted in TensorFlow's words: "OOM when allocating tensor
  /// with shape[1024,1024] and type float on /job:localhost/replica:0/task:0/
  /// device:GPU:0 by allocator GPU_0_virtual". Other errors as
  /// Tensor::Allocate's (a negative dimension, an unknown one).
  StatusOr<Tensor> AllocateTensor(DType dtype, const TensorShape& shape);

  /// True when the device's tensors are plain host memory, which any CPU
  /// device may read without a copy (CPU devices). False for a device with
  /// a memory space of its own (a GPU, virtual or not), whose tensors cross
  /// to other devices only through its DeviceContext.
  virtual bool UsesHostMemory() const = 0;
  /// True when this device keeps the tensors of `dtype` that cross into it
  /// in host memory rather than its own. TensorFlow keeps a GPU's int32
  /// tensors (shapes, sizes, axes: what the host reads to launch a kernel)
  /// on the host, and chapter 5's GPUs whose memory the CPU cannot read do
  /// the same; every other device keeps everything in its own memory.
  virtual bool KeepsInHostMemory(DType /*dtype*/) const { return false; }
  /// `kernel`, the CPU's kernel for `node` that this device borrows (the
  /// kernel registry's alias, chapter 4), made fit to run here. The CPU's
  /// kernels read and write their tensors as host memory, so the default
  /// takes the kernel as it is where the CPU can read this device's memory
  /// (virtual GPUs), and refuses it otherwise with Unimplemented naming the
  /// op. A device whose memory is its own overrides it (chapter 5's GPUs).
  virtual StatusOr<std::unique_ptr<OpKernel>> AdoptCpuKernel(
      const Node& node, std::unique_ptr<OpKernel> kernel);

  /// Copies in and out of this device's memory; nullptr when
  /// UsesHostMemory(), since host tensors need none. Owned by the device.
  virtual DeviceContext* device_context() { return nullptr; }
  /// Threads for the work inside one op (intra_op_parallelism_threads);
  /// nullptr when the device has none. Owned by the device.
  virtual Eigen::ThreadPoolInterface* intra_op_thread_pool() { return nullptr; }

  TransferStats GetTransferStats() const;
  /// Counts one copy of `bytes` into (`into`) or out of this device's
  /// memory; the copy routines call it (device_context.h).
  void RecordTransfer(bool into, int64_t bytes);

  /// TensorFlow's Device::BuildDeviceAttributes: the attributes of a new
  /// device, with a fresh incarnation.
  static DeviceAttributes BuildDeviceAttributes(
      std::string name, std::string device_type, int64_t memory_limit,
      DeviceLocality locality, std::string physical_device_desc);

 protected:
  /// `base` provides the memory; `allocator_name` names the device's
  /// allocator in messages ("cpu", "GPU_0_virtual"); `bytes_limit` caps it
  /// (0: no cap). The device's allocator is a TrackingAllocator over `base`.
  /// REQUIRES: attributes.name parses as a device name with a type and an
  /// index.
  Device(DeviceAttributes attributes, Allocator* base,
         std::string allocator_name, int64_t bytes_limit);
  /// A device whose memory `allocator` owns; the device takes it over
  /// (DestroyWhenIdle when the device goes). `base` is what the kernels of
  /// a device on host memory allocate from (kernel_allocator()).
  Device(DeviceAttributes attributes, Allocator* base,
         DeviceAllocator* allocator);

 private:
  const DeviceAttributes attributes_;
  const DeviceSpec parsed_name_;
  Allocator* const base_;
  DeviceAllocator* const allocator_;  // see DeviceAllocator's lifetime
  std::atomic<int64_t> copies_in_{0};
  std::atomic<int64_t> bytes_in_{0};
  std::atomic<int64_t> copies_out_{0};
  std::atomic<int64_t> bytes_out_{0};
};

}  // namespace minitf
