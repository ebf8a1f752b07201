// Exercise 5.4's piece of the engine: your softmax_kernel, launched as the
// GPU kernel of the graph op Softmax in place of the library's.
//
// A GPU kernel of the graph (gpu_op_kernel.h) is handed the compute stream
// of the GPU its node runs on. This one waits for that stream, so that the
// logits the kernels before it write are there, then launches your kernel
// on the emulator, one block per row, on the tensors in the GPU's memory.
// The build links this file only into the seed program built on your code
// (seed_softmax_regression_gpu_with_04_softmax, made by
// `python3 tools/learn.py run 5.4`): there, on an emulated GPU, every
// tf::nn::softmax runs your kernel, the predictions of seed 002 included.
// The exercise's tests do not link it.
#include "minitf/gpu/gpu_op_kernel.h"
#include "minitf/graph/kernel.h"
#include "softmax.h"

namespace minitf::exercises {
namespace {

// Softmax over the last axis of float logits:[rows, cols].
class YourSoftmaxGpuOp : public gpu::GpuOpKernel {
 public:
  explicit YourSoftmaxGpuOp(const OpKernelConstruction& c)
      : GpuOpKernel(c, gpu::CpuTwin(c)) {}

  Status ComputeOnGpu(OpKernelContext* ctx,
                      const gpu::GpuStreamContext& stream) override {
    const Tensor& logits = ctx->input(0);
    if (logits.dtype() != DT_FLOAT || logits.dims() < 1) {
      return errors::Unimplemented(
          "exercise 5.4's softmax takes float logits of rank 1 or more");
    }
    // The emulator runs your kernel on the CPU: the tensors' memory must be
    // the host's, as an emulated GPU's is.
    if (!ctx->allocator()->HostAccessible()) {
      return errors::Unimplemented(
          "exercise 5.4's softmax runs on the CUDA emulator, on an emulated "
          "GPU (MINITF_VIRTUAL_GPUS=1 MINITF_EMULATE_GPU_KERNELS=1)");
    }
    auto* device =
        static_cast<gpu::GpuDeviceContext*>(ctx->op_device_context());
    TF_RETURN_IF_ERROR(device->executor()->SynchronizeStream(stream.stream));
    TF_ASSIGN_OR_RETURN(Tensor out, Tensor::Allocate(DT_FLOAT, logits.shape(),
                                                     ctx->allocator()));
    const int64_t cols = logits.dim_size(logits.dims() - 1);
    const int64_t rows = cols == 0 ? 0 : logits.NumElements() / cols;
    // On the default stream, your kernel runs before softmax() returns.
    const cudaError_t error =
        softmax(static_cast<int>(rows), static_cast<int>(cols),
                logits.data<float>(), out.data<float>());
    if (error != cudaSuccess) {
      return errors::Internal(
          "your softmax_kernel failed: ", cudaGetErrorName(error), ": ",
          cudaGetErrorString(error));
    }
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};

MINITF_REGISTER_KERNEL_WITH_PRIORITY("Softmax", DEVICE_GPU, YourSoftmaxGpuOp, 1,
                                     DT_FLOAT);

}  // namespace
}  // namespace minitf::exercises
