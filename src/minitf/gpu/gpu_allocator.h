// A GPU's allocator: how much of the card TensorFlow takes, and the BFC
// allocator that manages it.
//
// When TensorFlow creates a GPU device it decides how many bytes of the
// card's memory the device may use, and gives them to a BFC allocator named
// GPU_<n>_bfc (bfc_allocator.h). The number comes from the session's
// GPUOptions (TensorFlow's gpu_device.cc):
//   - per_process_gpu_memory_fraction f > 0: f of the card's *total* memory;
//   - f = 0, the default: the memory that is *free* when the process starts,
//     less a reserve for the system and the CUDA libraries (MinSystemMemory).
// allow_growth decides only when the bytes are taken: all at the first
// allocation, or in regions that double as they are needed.
//
// Virtual GPUs use the same allocator when this layer is linked: it installs
// the factory of virtual_gpu_device.h, and a virtual GPU of
// virtual_gpu_memory_limit_mb MiB is then a card with that much memory, all
// of it free.
//
//   tf::GPUOptions options{.allow_growth = true};
//   tf::StatusOr<int64_t> limit = tf::GpuMemoryLimit(options,
//       /*total_memory=*/16LL << 30, /*available_memory=*/15LL << 30,
//       /*supports_unified_memory=*/true);   // 15 GiB - 768 MiB
//   // MINITF_VIRTUAL_GPUS=1: /device:GPU:0's allocator is GPU_0_bfc
#pragma once

#include <cstdint>
#include <memory>

#include "minitf/gpu/bfc_allocator.h"
#include "minitf/gpu/sub_allocator.h"
#include "minitf/graph/config.h"
#include "minitf/tensor/status.h"

namespace minitf {

/// TensorFlow's MinSystemMemory: what the default limit leaves free of a
/// card with `available_memory` bytes free. 225 MiB below 2 GiB free, else
/// the larger of 300 MiB and 5% of it. (TensorFlow doubles it in debug
/// builds; the optimised build's figure is the one users see.)
int64_t MinSystemMemory(int64_t available_memory);

/// TensorFlow's SingleVirtualDeviceMemoryLimit: the bytes a GPU device may
/// use. With per_process_gpu_memory_fraction 0: `available_memory` less
/// MinSystemMemory, or all of it when the reserve is not smaller; else the
/// fraction of `total_memory`. A fraction above 1 asks for more than the
/// card holds, which only unified memory can give: without
/// `supports_unified_memory` it is TensorFlow's Internal error "Unified
/// memory on GPUs with compute capability lower than 6.0 (pre-Pascal class
/// GPUs) does not support oversubscription." A negative or NaN fraction is
/// InvalidArgument (TensorFlow does not check; it would make a negative
/// limit).
StatusOr<int64_t> GpuMemoryLimit(const GPUOptions& options,
                                 int64_t total_memory, int64_t available_memory,
                                 bool supports_unified_memory);

/// TensorFlow's GPUProcessState::GetGPUAllocator: the BFC allocator of GPU
/// `tf_gpu_id`, named "GPU_<tf_gpu_id>_bfc", over `sub_allocator`, with the
/// limit GpuMemoryLimit gives and options.allow_growth. The caller owns it.
StatusOr<std::unique_ptr<BFCAllocator>> NewGpuBfcAllocator(
    int tf_gpu_id, std::unique_ptr<SubAllocator> sub_allocator,
    const GPUOptions& options, int64_t total_memory, int64_t available_memory,
    bool supports_unified_memory);

}  // namespace minitf
