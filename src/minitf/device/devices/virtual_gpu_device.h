// Virtual GPUs: devices of type GPU for machines that have none.
//
// Placement, partitioning, transfers and multi-tower training are about
// several devices with separate memories. To teach and test them on any
// machine, minitf can create virtual GPUs: devices of type "GPU", named
// /device:GPU:0, /device:GPU:1 ..., each with a memory space of its own
// (carved from CPU memory, with its own allocator and limit, so an
// allocation past the limit fails as on a full GPU), reached from other
// devices only through explicit copies (their DeviceContext). Until chapter 5
// brings GPU kernels, a virtual GPU runs the CPU kernels that are registered
// for it: for the ops TensorFlow has GPU kernels for (virtual_gpu_kernels.cc).
//
// Whose memory: chapter 4 gives each virtual GPU a TrackingAllocator named
// GPU_<n>_virtual, capped at the memory limit. A later layer may install
// another allocator for them through SetVirtualGpuAllocatorFactory: chapter
// 5 installs TensorFlow's BFC allocator, GPU_<n>_bfc, so that virtual GPUs
// manage their memory as a real GPU's is managed.
//
// Which kernels: chapter 4's virtual GPUs run the CPU's. Chapter 5 adds
// emulated GPUs (GPUOptions::emulate_gpu_kernels), whose kernels are CUDA
// kernels run on its CPU emulator, through the GpuPlatform hook below,
// which is also how real GPUs are found once chapter 5 is linked.
//
// How many: GPUOptions::virtual_gpus, or else the environment variable
// MINITF_VIRTUAL_GPUS; CUDA_VISIBLE_DEVICES, gpu_options.visible_device_list
// and device_count["GPU"] then select among them as among real GPUs
// (gpu_visibility.h). device_lib says plainly what they are:
// physical_device_desc "device: 0, name: minitf virtual GPU (CPU memory),
// pci bus id: virtual".
//
//   tf::ConfigProto config{.gpu_options = {.virtual_gpus = 2}};
//   auto devices = tf::device_lib::list_local_devices(config);
//   // CPU:0, GPU:0, GPU:1
//   // or: MINITF_VIRTUAL_GPUS=2 ./program
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "minitf/device/devices/device.h"
#include "minitf/device/devices/device_context.h"
#include "minitf/device/devices/threadpool_device.h"
#include "minitf/graph/config.h"

namespace minitf {

/// The name a virtual GPU gives its hardware in physical_device_desc.
inline constexpr const char* kVirtualGpuName =
    "minitf virtual GPU (CPU memory)";

/// Copies in and out of a virtual GPU's memory: plain memcpy, finished
/// before the call returns.
class VirtualGpuDeviceContext final : public DeviceContext {
 public:
  void CopyCPUTensorToDevice(const Tensor* cpu_tensor, Device* device,
                             Tensor* device_tensor,
                             StatusCallback done) const override;
  void CopyDeviceTensorToCPU(const Tensor* device_tensor,
                             std::string_view tensor_name, Device* device,
                             Tensor* cpu_tensor,
                             StatusCallback done) const override;
  void CopyDeviceTensorToDevice(const Tensor* src_tensor, Device* src,
                                Device* dst, Tensor* dst_tensor,
                                StatusCallback done) const override;
};

/// One virtual GPU.
///
/// Invariants: device_type() is "GPU"; memory_limit is the allocator's
/// bytes_limit; UsesHostMemory() is false, although the CPU can address the
/// memory (it must, to run CPU kernels on it): what keeps the memories apart
/// is that every crossing goes through the DeviceContext, which counts it.
class VirtualGpuDevice final : public Device {
 public:
  /// `tf_gpu_id` is the N of /device:GPU:N; `platform_gpu_id` is the GPU the
  /// process sees, named in physical_device_desc; `memory_limit` > 0 bytes.
  /// Its allocator is chapter 4's: a TrackingAllocator named
  /// "GPU_<tf_gpu_id>_virtual", capped at `memory_limit`.
  /// `intra_op_threads` > 0 sizes its intra-op pool.
  VirtualGpuDevice(std::string name, int tf_gpu_id, int platform_gpu_id,
                   int64_t memory_limit, int intra_op_threads);
  /// A virtual GPU whose memory `allocator` owns; the device takes it over.
  /// memory_limit is the allocator's bytes_limit.
  VirtualGpuDevice(std::string name, int platform_gpu_id,
                   DeviceAllocator* allocator, int intra_op_threads);
  bool UsesHostMemory() const override { return false; }
  DeviceContext* device_context() override { return &context_; }
  /// The threads its kernels split their work over, as many as the session's
  /// intra_op_parallelism_threads: a virtual GPU is a processor of its own,
  /// and a session that asks for one thread per op gets one on every device.
  /// Made on first use (LazyThreadPool).
  Eigen::ThreadPoolInterface* intra_op_thread_pool() override {
    return pool_.Get();
  }

 private:
  VirtualGpuDeviceContext context_;
  LazyThreadPool pool_;
};

// --8<-- [start:allocator_hook]
/// Makes the allocator of virtual GPU `tf_gpu_id` (the N of /device:GPU:N),
/// a card of `memory_bytes` bytes, for a session with `options`; the caller
/// owns the result (DestroyWhenIdle). An error fails the session's creation.
using VirtualGpuAllocatorFactory = std::function<StatusOr<DeviceAllocator*>(
    int tf_gpu_id, int64_t memory_bytes, const GPUOptions& options)>;

/// The extension point through which a later layer chooses the allocator of
/// virtual GPUs: from now on the factory makes it. Call it from a static
/// initialiser of the layer that brings the allocator, so that linking that
/// layer is what installs it. An empty factory restores chapter 4's
/// TrackingAllocator. Thread safety: safe at any time; devices made before
/// keep the allocator they have.
void SetVirtualGpuAllocatorFactory(VirtualGpuAllocatorFactory factory);

/// The allocator of a new virtual GPU: the installed factory's, or, without
/// one, a TrackingAllocator "GPU_<tf_gpu_id>_virtual" capped at
/// `memory_bytes`.
StatusOr<DeviceAllocator*> NewVirtualGpuAllocator(int tf_gpu_id,
                                                  int64_t memory_bytes,
                                                  const GPUOptions& options);
// --8<-- [end:allocator_hook]

// --8<-- [start:gpu_platform]
/// The machine's GPUs as a later layer knows them. Chapter 4's GPU factory
/// makes virtual GPUs on its own; it asks the installed platform for the
/// rest: chapter 5's reaches real GPUs through the CUDA driver, and makes the
/// emulated GPUs whose kernels are CUDA kernels on its CPU emulator. Without
/// a platform there are no real GPUs and no emulation.
class GpuPlatform {
 public:
  virtual ~GpuPlatform() = default;
  /// How many GPUs the process sees: the driver's count, which already
  /// leaves out what CUDA_VISIBLE_DEVICES hides; 0 without a driver or card.
  virtual int VisibleGpuCount() = 0;
  /// The device of visible GPU `platform_gpu_id`, named `name` (which ends
  /// in `/device:GPU:<tf_gpu_id>`).
  virtual StatusOr<std::unique_ptr<Device>> CreateGpuDevice(
      std::string name, int tf_gpu_id, int platform_gpu_id,
      const GPUOptions& options) = 0;
  /// An emulated GPU: a virtual GPU of `memory_bytes` bytes whose kernels
  /// run on the CPU emulator of CUDA.
  virtual StatusOr<std::unique_ptr<Device>> CreateEmulatedGpuDevice(
      std::string name, int tf_gpu_id, int platform_gpu_id,
      int64_t memory_bytes, const GPUOptions& options) = 0;
};

/// Installs `platform`, which must outlive every session (nullptr removes
/// it). Call it from a static initialiser of the layer that brings the
/// platform, so that linking the layer is what installs it. Thread safety:
/// safe at any time; sessions made before keep the devices they have.
void SetGpuPlatform(GpuPlatform* platform);
/// The installed platform, or nullptr.
GpuPlatform* GetGpuPlatform();

/// Whether virtual GPUs run emulated kernels for `options`:
/// gpu_options.emulate_gpu_kernels, or else MINITF_EMULATE_GPU_KERNELS
/// ("1": yes; "0" or unset: no). InvalidArgument for another value.
StatusOr<bool> EmulateGpuKernels(const GPUOptions& options);
// --8<-- [end:gpu_platform]

/// The default memory limit of a virtual GPU: 1 GiB.
inline constexpr int64_t kDefaultVirtualGpuMemoryLimit = int64_t{1} << 30;
/// The most virtual GPUs a process may ask for.
inline constexpr int kMaxVirtualGpus = 64;

/// How many virtual GPUs the machine has for these options, before any
/// filtering: options.virtual_gpus when positive, else MINITF_VIRTUAL_GPUS
/// (0 when unset). InvalidArgument for a negative field, or a variable that
/// is not a whole number from 0 to kMaxVirtualGpus.
StatusOr<int> VirtualGpuCount(const GPUOptions& options);
/// The memory of each virtual GPU in bytes: virtual_gpu_memory_limit_mb
/// MiB, or the default for 0; InvalidArgument when negative. Chapter 4's
/// allocator caps the GPU there; chapter 5's BFC allocator treats it as the
/// card's memory, of which TensorFlow's rules give it a share.
StatusOr<int64_t> VirtualGpuMemoryLimit(const GPUOptions& options);

}  // namespace minitf
