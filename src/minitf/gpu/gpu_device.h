// The GPU device: a Device of type "GPU" whose kernels are CUDA kernels,
// queued on its streams.
//
// A GpuDevice drives one GPU through a StreamExecutor (stream_executor.h):
// a real GPU's, through the CUDA runtime, or the CPU emulator's, which makes
// an *emulated GPU*: a virtual GPU of chapter 4 whose kernels are this
// chapter's CUDA kernels run on the emulator. The device code is the same
// for both; only the executor differs.
//
// Streams. As TensorFlow's GPU device, each GPU has one compute stream, on
// which every kernel runs in the order the executor hands them out, and
// three copy streams: host to device, device to host, device to device. A
// copy and the kernels around it are ordered by events: a copy into the GPU
// records an event that the compute stream waits for, so a kernel that reads
// the copy runs after it; a copy out of the GPU waits for an event recorded
// on the compute stream, so it reads what the kernels before it wrote. The
// copy streams let copies overlap with kernels on a real GPU.
//
// Memory: TensorFlow's BFC allocator, GPU_<n>_bfc, over device memory from
// the executor (a real GPU), or over host memory as every virtual GPU's
// (an emulated one).
//
// Finding GPUs: linking this layer installs a GpuPlatform (layer 4's hook,
// virtual_gpu_device.h) through which the GPU factory finds the machine's
// real GPUs, when this layer was built with CUDA, and makes emulated GPUs:
//
//   MINITF_VIRTUAL_GPUS=1 MINITF_EMULATE_GPU_KERNELS=1 ./program
//   // or tf::ConfigProto{.gpu_options = {.virtual_gpus = 1,
//   //                                    .emulate_gpu_kernels = true}}
//   // device_lib: physical_device_desc "device: 0, name: minitf CUDA
//   // emulator (CPU), pci bus id: emulated, compute capability: 8.0"
#pragma once

#include <memory>
#include <string>

#include "minitf/device/devices/device.h"
#include "minitf/device/devices/device_context.h"
#include "minitf/gpu/kernels/backend.h"
#include "minitf/gpu/stream_executor/stream_executor.h"
#include "minitf/gpu/tensor_ops.h"

namespace minitf::gpu {

/// The streams of one GPU, and its copies. What a GPU kernel finds in
/// OpKernelContext::op_device_context().
class GpuDeviceContext final : public DeviceContext {
 public:
  /// Creates the four streams on `executor`, which must outlive it.
  static StatusOr<std::unique_ptr<GpuDeviceContext>> Create(
      StreamExecutor* executor, bool synchronous);
  ~GpuDeviceContext() override;

  StreamExecutor* executor() const { return executor_; }
  /// Where a kernel queues its work.
  GpuStreamContext compute() const { return {&executor_->kernels(), compute_}; }
  /// What a kernel calls once its work is queued. On an emulated GPU it
  /// waits for the work to finish ("synchronous"): ops without a GPU kernel
  /// run the CPU's there, and those read device memory directly, which must
  /// hold what the kernels before them wrote. On a real GPU it returns at
  /// once, and the stream keeps the order.
  Status KernelQueued() const;

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

 private:
  GpuDeviceContext(StreamExecutor* executor, bool synchronous)
      : executor_(executor), synchronous_(synchronous) {}
  // `copy`, then a wait for it on the compute stream of `consumer`.
  Status OrderedCopy(GpuStream copy_stream, const GpuDeviceContext* producer,
                     const GpuDeviceContext* consumer, void* dst,
                     const void* src, size_t bytes, int direction) const;

  StreamExecutor* const executor_;
  const bool synchronous_;
  GpuStream compute_ = nullptr;
  GpuStream host_to_device_ = nullptr;
  GpuStream device_to_host_ = nullptr;
  GpuStream device_to_device_ = nullptr;
};

/// One GPU, real or emulated.
///
/// Invariants: device_type() is "GPU"; UsesHostMemory() is false; every
/// crossing of its memory goes through its GpuDeviceContext.
class GpuDevice final : public Device {
 public:
  /// TensorFlow's BaseGPUDevice: GPU `platform_gpu_id` of `executor` as
  /// `name` (`/device:GPU:<tf_gpu_id>`), its memory in `allocator` (which the
  /// device takes over). Errors: the streams could not be made.
  static StatusOr<std::unique_ptr<GpuDevice>> Create(
      std::string name, int platform_gpu_id,
      std::unique_ptr<StreamExecutor> executor, DeviceAllocator* allocator,
      const GpuDescription& description, bool emulated);
  ~GpuDevice() override;

  bool UsesHostMemory() const override { return false; }
  /// int32 where the CPU cannot read this GPU's memory (host_memory.h).
  bool KeepsInHostMemory(DType dtype) const override;
  /// As it is where the CPU can read this GPU's memory (an emulated GPU);
  /// otherwise as host_memory.h runs it, or refused.
  StatusOr<std::unique_ptr<OpKernel>> AdoptCpuKernel(
      const Node& node, std::unique_ptr<OpKernel> kernel) override;
  DeviceContext* device_context() override { return context_.get(); }
  GpuDeviceContext* gpu_context() const { return context_.get(); }

 private:
  GpuDevice(DeviceAttributes attributes, DeviceAllocator* allocator,
            std::unique_ptr<StreamExecutor> executor);

  std::unique_ptr<StreamExecutor> executor_;
  std::unique_ptr<GpuDeviceContext> context_;
};

/// TensorFlow's physical_device_desc of a GPU, which its creation line
/// repeats: "device: 0, name: NVIDIA H100 80GB HBM3, pci bus id:
/// 0000:01:00.0, compute capability: 9.0".
std::string PhysicalDeviceDesc(int platform_gpu_id, const GpuDescription& d);

}  // namespace minitf::gpu
