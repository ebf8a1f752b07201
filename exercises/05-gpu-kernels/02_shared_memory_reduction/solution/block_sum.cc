// Exercise 02_shared_memory_reduction: one solution. Try the exercise first!
#include "block_sum.h"

#include <algorithm>

namespace minitf::exercises {

__global__ void block_sum_kernel(const float* x, int n, float* block_sums) {
  __shared__ float partial[kSumBlock];
  const int t = threadIdx.x;
  float own = 0.f;
  for (int i = blockIdx.x * kSumBlock + t; i < n; i += gridDim.x * kSumBlock)
    own += x[i];
  partial[t] = own;
  // The first level reads values that other threads have just written.
  __syncthreads();
  for (int half = kSumBlock / 2; half > 0; half /= 2) {
    if (t < half) partial[t] += partial[t + half];
    // The next level reads this level's sums: all must be written. Outside
    // the `if`, so that every thread of the block reaches it.
    __syncthreads();
  }
  if (t == 0) block_sums[blockIdx.x] = partial[0];
}

cudaError_t sum(const float* x, int n, float* partials, float* total,
                cudaStream_t stream) {
  if (n < 0) return cudaErrorInvalidValue;
  // At least one block, so that n = 0 still writes its sum, 0.
  const int blocks =
      std::clamp((n + kSumBlock - 1) / kSumBlock, 1, kSumMaxBlocks);
  MINITF_LAUNCH(block_sum_kernel, blocks, kSumBlock, 0, stream, x, n, partials);
  // The second launch starts after the first has finished (one stream): the
  // only way to wait for every block.
  MINITF_LAUNCH(block_sum_kernel, 1, kSumBlock, 0, stream, partials, blocks,
                total);
  return cudaGetLastError();
}

}  // namespace minitf::exercises
