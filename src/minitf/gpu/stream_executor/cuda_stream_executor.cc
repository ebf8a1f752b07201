// The StreamExecutor of a real GPU: runtime_stream_executor.h compiled
// against the CUDA runtime. Plain C++: no kernel is launched here, so the
// host compiler builds it and nvcc is not needed.
#include <cuda_runtime.h>

#include <cstdio>

// The namespace of this compilation, as nvcc's kernels are in
// (emulator/cuda.h).
#define MINITF_GPU_BACKEND cuda
#include "minitf/gpu/stream_executor/cuda_stream_executor.h"
#include "minitf/gpu/stream_executor/runtime_stream_executor.h"

namespace minitf::gpu {

int CudaVisibleGpuCount() {
  static const int count = [] {
    int n = 0;
    const cudaError_t error = cudaGetDeviceCount(&n);
    if (error == cudaSuccess && n > 0) return n;
    cudaGetLastError();
    // One line, as TensorFlow's when it finds no GPU, then the CPU goes on.
    if (error == cudaSuccess) {
      std::fprintf(stderr, "No GPU will be used: the CUDA runtime sees none\n");
    } else if (error == cudaErrorInsufficientDriver) {
      std::fprintf(stderr,
                   "Could not find cuda drivers on your machine, GPU will "
                   "not be used.\n");
    } else {
      std::fprintf(stderr, "No GPU will be used: %s: %s\n",
                   cudaGetErrorName(error), cudaGetErrorString(error));
    }
    return 0;
  }();
  return count;
}

std::unique_ptr<StreamExecutor> NewCudaStreamExecutor(int ordinal) {
  return std::make_unique<cuda::RuntimeStreamExecutor>(
      ordinal, "CUDA", *CudaGpuKernels(), /*host_accessible=*/false);
}

}  // namespace minitf::gpu
