// The base of the engine's GPU kernels, GpuOpKernel: what a kernel of an op
// on a GPU device does before and after it queues its CUDA work.
//
// A GPU kernel is registered once, for "GPU", and so runs on every device of
// that type: a real GPU, an emulated GPU (chapter 5's CPU emulator of CUDA),
// and chapter 4's plain virtual GPU, which has no streams. GpuOpKernel
// carries the CPU kernel of the same node for the last, keeps int32 work on
// the host where the CPU cannot read the GPU's memory (host_memory.h), and
// otherwise hands ComputeOnGpu the device's compute stream; once the work is
// queued it calls GpuDeviceContext::KernelQueued, which on an emulated GPU
// waits for it. gpu_op_kernels.cc registers the engine's kernels on it; a
// program puts a kernel of its own in place of one of them the same way, at
// a higher priority (MINITF_REGISTER_KERNEL_WITH_PRIORITY, kernel.h):
//
//   class MySoftmax : public gpu::GpuOpKernel {
//    public:
//     explicit MySoftmax(const OpKernelConstruction& c)
//         : GpuOpKernel(c, gpu::CpuTwin(c)) {}
//     Status ComputeOnGpu(OpKernelContext* ctx,
//                         const gpu::GpuStreamContext& gpu) override;
//   };
#pragma once

#include <memory>
#include <utility>

#include "minitf/gpu/gpu_device.h"
#include "minitf/gpu/host_memory.h"
#include "minitf/gpu/tensor_ops.h"
#include "minitf/graph/kernel.h"

namespace minitf::gpu {

// --8<-- [start:gpu_op_kernel]
/// The base of the GPU kernels: ComputeOnGpu queues the work.
class GpuOpKernel : public OpKernel {
 public:
  /// `cpu`: the CPU kernel of the same node, run on a virtual GPU without
  /// streams; null where there is none, and then such a GPU is refused.
  GpuOpKernel(const OpKernelConstruction& c, std::unique_ptr<OpKernel> cpu)
      : OpKernel(c),
        cpu_(std::move(cpu)),
        int32_data_(HasInt32Data(c.node())),
        inputs_on_host_(InputsKeptOnHost(c.node())) {}

  Status Compute(OpKernelContext* ctx) final {
    auto* gpu = dynamic_cast<GpuDeviceContext*>(ctx->op_device_context());
    if (gpu == nullptr) return ComputeOnCpu(ctx);  // chapter 4's virtual GPU
    // Where the CPU cannot read the GPU's memory, int32 lies on the host
    // (host_memory.h): a node computing on int32 runs the CPU's kernel
    // there, as TensorFlow's int32 "GPU" kernels do, when it reads nothing
    // else.
    if (int32_data_ && !ctx->allocator()->HostAccessible()) {
      if (inputs_on_host_ && cpu_ != nullptr) return ComputeOnHost(*cpu_, ctx);
      return errors::Unimplemented(
          "No GPU kernel for '", type_string(), "' (node ", name(),
          ") with int32 data and inputs in the GPU's memory: minitf keeps a "
          "GPU's int32 tensors in host memory, as TensorFlow does");
    }
    TF_RETURN_IF_ERROR(ComputeOnGpu(ctx, gpu->compute()));
    return gpu->KernelQueued();
  }

 protected:
  /// Queues the node's work on `gpu.stream`, the compute stream of the GPU
  /// the node runs on, and sets the node's outputs.
  virtual Status ComputeOnGpu(OpKernelContext* ctx,
                              const GpuStreamContext& gpu) = 0;

 private:
  Status ComputeOnCpu(OpKernelContext* ctx) {
    if (cpu_ != nullptr) return cpu_->Compute(ctx);
    return errors::Unimplemented("No CPU kernel for '", type_string(),
                                 "' (node ", name(),
                                 ") to run on a GPU without streams");
  }
  // True when a dtype attr of the node's data (not of its indices) is int32.
  static bool HasInt32Data(const Node& node) {
    for (const char* attr : {"T", "SrcT", "DstT", "output_type"}) {
      StatusOr<DType> dtype = GetAttr<DType>(node.attrs(), attr);
      if (dtype.ok() && dtype.value() == DT_INT32) return true;
    }
    return false;
  }
  static bool InputsKeptOnHost(const Node& node) {
    for (int i = 0; i < node.num_inputs(); ++i) {
      if (!KeptInHostMemory(node.input_type(i))) return false;
    }
    return true;
  }

  const std::unique_ptr<OpKernel> cpu_;
  const bool int32_data_;
  const bool inputs_on_host_;
};

/// Makes kernel K for a node, with the CPU kernel of the same node beside
/// it for chapter 4's virtual GPUs.
template <class K>
StatusOr<std::unique_ptr<OpKernel>> MakeGpuKernel(
    const OpKernelConstruction& c) {
  TF_ASSIGN_OR_RETURN(std::unique_ptr<OpKernel> cpu,
                      KernelRegistry::Global()->CreateKernel(c.node(), "CPU"));
  return std::unique_ptr<OpKernel>(new K(c, std::move(cpu)));
}
// --8<-- [end:gpu_op_kernel]

/// The CPU kernel of the node being constructed, or null when the CPU has
/// none for it: for a kernel class whose constructor takes the construction
/// alone, as MINITF_REGISTER_KERNEL_WITH_PRIORITY builds (kernel.h).
inline std::unique_ptr<OpKernel> CpuTwin(const OpKernelConstruction& c) {
  StatusOr<std::unique_ptr<OpKernel>> cpu =
      KernelRegistry::Global()->CreateKernel(c.node(), "CPU");
  return cpu.ok() ? std::move(cpu).value() : nullptr;
}

}  // namespace minitf::gpu
