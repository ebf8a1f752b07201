// Kernels of the emulator's tests, written once: the emulator's tests
// compile them with the host compiler, kernels_on_gpu_test.cu with nvcc,
// and both check the same results. Each shows one part of the execution
// model (misuse_kernels.cuh holds those that misuse it, on purpose).
//
//   #include "test_kernels.cuh"
//   MINITF_LAUNCH(block_reverse, 4, 256, 0, 0, d_in, d_out);
//   MINITF_LAUNCH(MINITF_KERNEL_NAME(tiled_matmul<16>), grid, block, 0, 0,
//                 d_a, d_b, d_c, n);
//   cudaDeviceSynchronize();
#pragma once

#include "minitf/gpu/emulator/cuda.h"

// --- indices, shared memory, barriers ------------------------------------

/// Each thread writes its coordinates at its global linear index:
/// out[6 * id] = threadIdx.xyz, blockIdx.xyz.
__global__ void write_coordinates(unsigned* out) {
  const unsigned block =
      blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const unsigned thread =
      threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned id = block * blockDim.x * blockDim.y * blockDim.z + thread;
  unsigned* o = out + 6 * id;
  o[0] = threadIdx.x;
  o[1] = threadIdx.y;
  o[2] = threadIdx.z;
  o[3] = blockIdx.x;
  o[4] = blockIdx.y;
  o[5] = blockIdx.z;
}

/// Reverses each block's 256 elements through static shared memory.
__global__ void block_reverse(const int* in, int* out) {
  __shared__ int s[256];
  const int t = threadIdx.x;
  const int base = blockIdx.x * 256;
  s[t] = in[base + t];
  // Thread t reads the element thread 255 - t wrote: all must have written.
  __syncthreads();
  out[base + t] = s[255 - t];
}

/// The same through `extern __shared__` memory of blockDim.x floats.
__global__ void dynamic_reverse(const float* in, float* out) {
  MINITF_DYNAMIC_SHARED(float, s);
  const int n = blockDim.x;
  const int t = threadIdx.x;
  s[t] = in[blockIdx.x * n + t];
  // Thread t reads what thread n - 1 - t wrote.
  __syncthreads();
  out[blockIdx.x * n + t] = s[n - 1 - t];
}

/// out[i] = in[i - 1] within a block (out[0] = in[0]), through shared
/// memory, with the barrier it needs.
// --8<-- [start:shift_right]
__global__ void shift_right(const int* in, int* out) {
  __shared__ int s[128];
  const int t = threadIdx.x;
  s[t] = in[t];
  // Thread t reads thread t - 1's element.
  __syncthreads();
  out[t] = s[t > 0 ? t - 1 : 0];
}

/// The same kernel without its barrier: a bug that the forward order hides
/// (thread t - 1 has always run before thread t) and the reverse one shows.
__global__ void shift_right_missing_sync(const int* in, int* out) {
  __shared__ int s[128];
  const int t = threadIdx.x;
  s[t] = in[t];
  out[t] = s[t > 0 ? t - 1 : 0];
}
// --8<-- [end:shift_right]

/// c = a b for n x n row-major matrices, n a multiple of TILE, one TILE x
/// TILE tile of c per block, through tiles of a and b in shared memory.
template <int TILE>
__global__ void tiled_matmul(const float* a, const float* b, float* c, int n) {
  __shared__ float as[TILE][TILE];
  __shared__ float bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0.f;
  for (int k0 = 0; k0 < n; k0 += TILE) {
    as[threadIdx.y][threadIdx.x] = a[row * n + k0 + threadIdx.x];
    bs[threadIdx.y][threadIdx.x] = b[(k0 + threadIdx.y) * n + col];
    // The tiles are read by the whole block: all must be loaded first.
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      sum += as[threadIdx.y][k] * bs[k][threadIdx.x];
    // The next iteration overwrites the tiles: all must be done reading.
    __syncthreads();
  }
  c[row * n + col] = sum;
}

// --- atomics ----------------------------------------------------------------

/// counts[v % bins] += 1 for every value; the largest value in *max_value.
__global__ void histogram(const int* values, int n, unsigned* counts, int bins,
                          int* max_value) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd(&counts[values[i] % bins], 1u);
  atomicMax(max_value, values[i]);
}

/// Every block tries to claim *owner (-1 when free); *winners counts the
/// blocks whose atomicCAS found it free: exactly one.
__global__ void claim(int* owner, int* winners) {
  if (threadIdx.x != 0) return;
  if (atomicCAS(owner, -1, static_cast<int>(blockIdx.x)) == -1)
    atomicAdd(winners, 1);
}

// --- warp primitives
// ----------------------------------------------------------

/// sums[w] = the sum of x over warp w, by a tree of __shfl_down_sync.
__global__ void warp_sum(const int* x, int* sums) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = x[i];
  for (int d = warpSize / 2; d > 0; d /= 2)
    v += __shfl_down_sync(0xffffffffu, v, d);
  if (threadIdx.x % warpSize == 0) sums[i / warpSize] = v;
}

/// out[i] = the sum of x over i's warp, in every lane (butterfly).
__global__ void warp_allreduce(const float* x, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  for (int m = 1; m < warpSize; m *= 2) v += __shfl_xor_sync(0xffffffffu, v, m);
  out[i] = v;
}

/// out[i] = x[first lane of i's warp] + ... + x[i] (__shfl_up_sync scan).
__global__ void warp_inclusive_scan(const int* x, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % warpSize;
  int v = x[i];
  for (int d = 1; d < warpSize; d *= 2) {
    const int up = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v += up;
  }
  out[i] = v;
}

/// ballots[w] = bit l set where lane l of warp w holds a multiple of 3.
__global__ void ballot_multiples_of_three(const int* x, unsigned* ballots) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned b = __ballot_sync(0xffffffffu, x[i] % 3 == 0);
  if (threadIdx.x % warpSize == 0) ballots[i / warpSize] = b;
}
