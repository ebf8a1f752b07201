// The StreamExecutor of the CPU emulator of CUDA: runtime_stream_executor.h
// compiled against the emulator's runtime (emulator/runtime_api.h), whose
// one GPU's memory is the host's and whose streams run their work in order
// on host threads of their own.
#include "minitf/gpu/emulator/cuda.h"
#include "minitf/gpu/stream_executor/runtime_stream_executor.h"

namespace minitf::gpu {

std::unique_ptr<StreamExecutor> NewEmulatedStreamExecutor() {
  return std::make_unique<emulated::RuntimeStreamExecutor>(
      /*ordinal=*/0, "CPU emulator of CUDA", EmulatedGpuKernels(),
      /*host_accessible=*/true);
}

}  // namespace minitf::gpu
