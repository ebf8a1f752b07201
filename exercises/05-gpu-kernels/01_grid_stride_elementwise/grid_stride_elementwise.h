// Exercise 01_grid_stride_elementwise: y = a x + y on the GPU, for any n.
//
// An elementwise kernel gives each thread one index of the grid. A
// grid-stride loop lets each thread go on, a whole grid further each time,
// until the array ends, so that any grid covers any n: a launch can pick its
// grid for the device (a few blocks per multiprocessor) instead of for the
// data, and one thread does the index arithmetic once for many elements.
//
//   // x:[n] y:[n], device memory
//   MINITF_LAUNCH(axpy_kernel, 4, 128, 0, 0, n, 2.f, x, y);  // any n
//   cudaError_t e = axpy(n, 2.f, x, y);   // the grid picked for you
#pragma once

#include "minitf/gpu/emulator/cuda.h"

namespace minitf::exercises {

/// The launcher's threads per block.
inline constexpr int kAxpyBlock = 256;
/// The most blocks the launcher launches: enough to fill a GPU several
/// times over; larger arrays take more steps of the loop.
inline constexpr int kAxpyMaxBlocks = 64;

/// x:[n] y:[n] -> y[i] = a * x[i] + y[i] for 0 <= i < n, each element once,
/// nothing past n touched. Thread t of the grid (t = blockIdx.x * blockDim.x
/// + threadIdx.x) takes i = t, t + T, t + 2T, ... with T = gridDim.x *
/// blockDim.x, the number of threads in the grid.
/// REQUIRES: a one-dimensional grid and block; 0 <= n; n + T fits in an int.
__global__ void axpy_kernel(int n, float a, const float* x, float* y);

/// Launches axpy_kernel on `stream` with blocks of kAxpyBlock threads, as
/// many as cover n but no more than kAxpyMaxBlocks, and returns the launch's
/// error (cudaGetLastError()). n = 0 launches nothing, since a grid of no
/// blocks is no valid launch, and returns cudaSuccess; n < 0 launches
/// nothing and returns cudaErrorInvalidValue.
cudaError_t axpy(int n, float a, const float* x, float* y,
                 cudaStream_t stream = 0);

}  // namespace minitf::exercises
