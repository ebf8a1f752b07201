// Teaching GEMM, version 3: shared-memory tiles. Versions 1 and 2 read every
// element of a n times and every element of b m times from global memory. A
// block of TILE x TILE threads computes one TILE x TILE tile of c, and walks
// along k one tile at a time: the block loads a TILE x TILE tile of a and one
// of b into shared memory (one element per thread, coalesced), waits until
// all are loaded, and then each thread takes its TILE products from shared
// memory, which is on the chip. Each element loaded from global memory is
// now used TILE times, so global traffic falls by TILE times. Where a tile
// hangs over the edge of a or b, the threads outside load zeros, which add
// nothing to the dot products; they still take part in every barrier.
//
//   // a:[m,k] b:[k,n] c:[m,n], device memory
//   gemm_v3_shared_tiles(m, n, k, 1.f, d_a, d_b, 0.f, d_c);
#pragma once

#include "minitf/gpu/kernels/gemm/common.cuh"

namespace minitf::gpu::gemm {

// --8<-- [start:kernel]
/// a:[m,k] b:[k,n] c:[m,n] -> c = alpha * a b + beta * c; block (x, y)
/// computes the TILE x TILE tile of c at rows y*TILE.., columns x*TILE..,
/// thread (x, y) its element (y, x).
template <int TILE>
__global__ void gemm_v3_shared_tiles_kernel(int m, int n, int k, float alpha,
                                            const float* a, const float* b,
                                            float beta, float* c) {
  __shared__ float a_tile[TILE][TILE];
  __shared__ float b_tile[TILE][TILE];
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  float acc = 0.f;
  for (int p0 = 0; p0 < k; p0 += TILE) {
    // Thread (x, y) loads a[row, p0 + x] and b[p0 + y, col]: along x, the
    // warp's loads are neighbours in both matrices. Zero outside them.
    a_tile[ty][tx] = row < m && p0 + tx < k ? a[row * k + p0 + tx] : 0.f;
    b_tile[ty][tx] = p0 + ty < k && col < n ? b[(p0 + ty) * n + col] : 0.f;
    // Each thread reads a whole row of a_tile and a whole column of b_tile,
    // which other threads loaded: all loads must be done first.
    __syncthreads();
    for (int p = 0; p < TILE; ++p) acc += a_tile[ty][p] * b_tile[p][tx];
    // The next step overwrites both tiles: every thread must have finished
    // reading them first.
    __syncthreads();
  }
  if (row < m && col < n) store_c(&c[row * n + col], acc, alpha, beta);
}
// --8<-- [end:kernel]

/// a:[m,k] b:[k,n] c:[m,n] -> c = alpha * a b + beta * c (common.cuh).
inline cudaError_t gemm_v3_shared_tiles(int m, int n, int k, float alpha,
                                        const float* a, const float* b,
                                        float beta, float* c,
                                        cudaStream_t stream = 0) {
  constexpr int kTile = 32;
  if (const auto result = early_result(m, n, k)) return *result;
  const dim3 grid(ceil_div(n, kTile), ceil_div(m, kTile));
  const dim3 block(kTile, kTile);
  MINITF_LAUNCH(gemm_v3_shared_tiles_kernel<kTile>, grid, block, 0, stream, m,
                n, k, alpha, a, b, beta, c);
  return cudaGetLastError();
}

}  // namespace minitf::gpu::gemm
