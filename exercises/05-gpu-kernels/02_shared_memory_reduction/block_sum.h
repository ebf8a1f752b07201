// Exercise 02_shared_memory_reduction: the sum of an array on the GPU.
//
// Adding n numbers is a reduction: no thread can do it alone in parallel
// time. Each thread first adds the elements it visits in a grid-stride loop;
// then the threads of a block add their sums by a tree in shared memory,
// halving the number of active threads at every level, with a barrier
// between levels; thread 0 writes the block's sum. Blocks cannot wait for
// each other, so the blocks' sums are added by a second launch of the same
// kernel, one block over them.
//
//   // x:[n], partials:[kSumMaxBlocks], total:[1], device memory
//   cudaError_t e = sum(x, n, partials, total);
//   MINITF_LAUNCH(block_sum_kernel, 3, kSumBlock, 0, 0, x, n, block_sums);
#pragma once

#include "minitf/gpu/emulator/cuda.h"

namespace minitf::exercises {

/// Threads per block of block_sum_kernel: a power of two, for the tree.
inline constexpr int kSumBlock = 256;
/// The most blocks of the first pass of sum(), and the size of its scratch.
inline constexpr int kSumMaxBlocks = 64;

/// x:[n] -> block_sums:[gridDim.x]. block_sums[b] is the sum of the x[i]
/// that block b's threads visit: thread t of the grid (t = blockIdx.x *
/// kSumBlock + threadIdx.x) visits i = t, t + T, t + 2T, ... below n, with
/// T = gridDim.x * kSumBlock. A block with nothing to visit writes 0.
/// REQUIRES: blockDim = (kSumBlock, 1, 1), a one-dimensional grid, 0 <= n.
__global__ void block_sum_kernel(const float* x, int n, float* block_sums);

/// x:[n] -> *total = x[0] + ... + x[n-1] (0 for n = 0), on `stream`, in two
/// launches of block_sum_kernel: over x into as many partial sums as cover
/// n, at most kSumMaxBlocks, then with one block over those. Returns the
/// launches' error; n < 0 is cudaErrorInvalidValue.
/// REQUIRES: partials holds kSumMaxBlocks floats of device memory.
cudaError_t sum(const float* x, int n, float* partials, float* total,
                cudaStream_t stream = 0);

}  // namespace minitf::exercises
