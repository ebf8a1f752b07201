// The StreamExecutor of a real GPU, through the CUDA runtime. Built only
// where CMake finds the CUDA toolkit (MINITF_WITH_CUDA); on a machine
// without a driver or a GPU it finds none, says so once, and the process
// goes on with its CPU.
#pragma once

#include <memory>

#include "minitf/gpu/stream_executor/stream_executor.h"

namespace minitf::gpu {

/// How many GPUs the CUDA runtime shows this process (it applies
/// CUDA_VISIBLE_DEVICES). 0 when there is no driver or no GPU, after one
/// line on stderr that says why, printed once per process. Asked once; the
/// answer is kept.
int CudaVisibleGpuCount();

/// The executor of visible GPU `ordinal`.
/// REQUIRES: 0 <= ordinal < CudaVisibleGpuCount().
std::unique_ptr<StreamExecutor> NewCudaStreamExecutor(int ordinal);

}  // namespace minitf::gpu
