#include "minitf/gpu/gpu_allocator.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "minitf/device/devices/virtual_gpu_device.h"

namespace minitf {

// --8<-- [start:memory_limit]
int64_t MinSystemMemory(int64_t available_memory) {
  if (available_memory < (int64_t{1} << 31)) return int64_t{225} << 20;
  return std::max(int64_t{300} << 20,
                  static_cast<int64_t>(available_memory * 0.05));
}

StatusOr<int64_t> GpuMemoryLimit(const GPUOptions& options,
                                 int64_t total_memory, int64_t available_memory,
                                 bool supports_unified_memory) {
  const double fraction = options.per_process_gpu_memory_fraction;
  if (!(fraction >= 0)) {  // negative, or NaN
    return errors::InvalidArgument(
        "gpu_options.per_process_gpu_memory_fraction must be in (0, 1], or 0 "
        "for the default; got ",
        fraction);
  }
  if (fraction > 1.0 && !supports_unified_memory) {
    return errors::Internal(
        "Unified memory on GPUs with compute capability lower than 6.0 "
        "(pre-Pascal class GPUs) does not support oversubscription.");
  }
  if (fraction == 0) {
    // The default: what is free now, less a reserve for what else the GPU
    // needs (the CUDA context, cuDNN's and cuBLAS's workspaces, a display).
    const int64_t reserve = MinSystemMemory(available_memory);
    return reserve < available_memory ? available_memory - reserve
                                      : available_memory;
  }
  // Of the *total*, not of what is free: two processes each asking for 0.5
  // get half the card each, whichever starts first.
  return static_cast<int64_t>(static_cast<double>(total_memory) * fraction);
}
// --8<-- [end:memory_limit]

StatusOr<std::unique_ptr<BFCAllocator>> NewGpuBfcAllocator(
    int tf_gpu_id, std::unique_ptr<SubAllocator> sub_allocator,
    const GPUOptions& options, int64_t total_memory, int64_t available_memory,
    bool supports_unified_memory) {
  TF_ASSIGN_OR_RETURN(int64_t limit,
                      GpuMemoryLimit(options, total_memory, available_memory,
                                     supports_unified_memory));
  return std::make_unique<BFCAllocator>(
      std::move(sub_allocator), static_cast<size_t>(limit),
      options.allow_growth, StrCat("GPU_", tf_gpu_id, "_bfc"));
}

namespace {

// --8<-- [start:virtual_gpus]
// Linking this layer gives every virtual GPU made from now on a BFC
// allocator, through layer 4's hook. A virtual GPU is a card of
// `memory_bytes` of host memory that nothing else uses, so all of it is free;
// it has no unified memory to lend more than it holds.
const bool kVirtualGpusUseBfc = [] {
  SetVirtualGpuAllocatorFactory(
      [](int tf_gpu_id, int64_t memory_bytes,
         const GPUOptions& options) -> StatusOr<DeviceAllocator*> {
        TF_ASSIGN_OR_RETURN(
            std::unique_ptr<BFCAllocator> bfc,
            NewGpuBfcAllocator(tf_gpu_id, std::make_unique<HostSubAllocator>(),
                               options, memory_bytes, memory_bytes,
                               /*supports_unified_memory=*/false));
        return bfc.release();
      });
  return true;
}();
// --8<-- [end:virtual_gpus]

}  // namespace
}  // namespace minitf
