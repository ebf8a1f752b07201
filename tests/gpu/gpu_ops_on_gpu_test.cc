// The GPU ops' harness (gpu_ops_testing.h) on a real GPU: the kernels
// compiled by nvcc (part of minitf_gpu where CMake finds nvcc), MatMul by
// cuBLAS, against the CPU kernels of chapters 1-3. This file is host code: the
// kernels are behind GpuKernels, so only their library needs nvcc. Without a
// GPU or its driver every test skips, with CUDA's reason.
#include <string>

#include "gpu_ops_testing.h"

namespace minitf::gpu::testing {

const GpuKernels* KernelsUnderTest(std::string* skip_reason) {
  const GpuKernels* kernels = CudaGpuKernels();
  StatusOr<int> count = kernels->DeviceCount();
  if (!count.ok()) {
    *skip_reason = "no GPU: " + count.status().message();
    return nullptr;
  }
  if (*count == 0) {
    *skip_reason = "no GPU: cudaGetDeviceCount found none";
    return nullptr;
  }
  return kernels;
}

}  // namespace minitf::gpu::testing
