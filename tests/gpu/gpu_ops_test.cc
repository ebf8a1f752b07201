// The GPU ops' harness (gpu_ops_testing.h) on the emulated GPU: the kernels
// compiled by the host compiler, run by the CPU emulator of CUDA, against
// the CPU kernels of chapters 1-3.
#include <string>

#include "gpu_ops_testing.h"

namespace minitf::gpu::testing {

const GpuKernels* KernelsUnderTest(std::string*) {
  return &EmulatedGpuKernels();
}

}  // namespace minitf::gpu::testing
