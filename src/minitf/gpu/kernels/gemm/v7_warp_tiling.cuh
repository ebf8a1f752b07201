// Teaching GEMM, version 7: warp tiling. Between the block's tile of c and a
// thread's squares of it, one more level: the warp's. The block's tile is cut
// into WM x WN warp tiles, one per warp; a warp computes its tile in
// WM_ITER x WN_ITER sub-tiles, and in each its 32 threads compute TM x TN
// squares as in version 6. The arithmetic is the same; what changes is which
// threads read what at the same moment. A warp is what the GPU schedules and
// what reads shared memory in one go, and here its 32 threads read a small
// patch of the tiles: 8 runs of TM floats of a_tile_t and 4 neighbouring runs
// of TN floats of b_tile, so reads are broadcast or fall in different banks,
// and each thread reuses its registers across its sub-tiles. The kernel now
// names all three levels of parallelism the GPU has: blocks on the SMs, warps
// on each SM's warp schedulers, and a thread's independent multiply-adds.
// It is how CUTLASS shapes its kernels, and the last step of the series
// before tensor cores. The loads and stores are version 6's float4s.
//
//   // a:[m,k] b:[k,n] c:[m,n], device memory
//   gemm_v7_warp_tiling(m, n, k, 1.f, d_a, d_b, 0.f, d_c);
#pragma once

#include "minitf/gpu/kernels/gemm/common.cuh"
#include "minitf/gpu/kernels/gemm/v6_vectorized.cuh"  // store4

namespace minitf::gpu::gemm {

// --8<-- [start:kernel]
/// a:[m,k] b:[k,n] c:[m,n] -> c = alpha * a b + beta * c; a 1-D block of
/// THREADS threads computes the BM x BN tile of c at (blockIdx.y * BM,
/// blockIdx.x * BN); warp w the WM x WN tile at ((w / (BN / WN)) * WM,
/// (w % (BN / WN)) * WN) within it; vector_a, vector_bc as in version 6.
template <int BM, int BN, int BK, int WM, int WN, int WN_ITER, int TM, int TN,
          int THREADS>
__global__ void __launch_bounds__(THREADS)
    gemm_v7_warp_tiling_kernel(int m, int n, int k, float alpha, const float* a,
                               const float* b, float beta, float* c,
                               bool vector_a, bool vector_bc) {
  constexpr int kWarps = THREADS / 32;
  // The warps tile the block's tile; each warp's threads its sub-tiles.
  static_assert((BM / WM) * (BN / WN) == kWarps);
  constexpr int WM_ITER = (WM * WN) / (32 * TM * TN * WN_ITER);
  constexpr int WSUB_M = WM / WM_ITER;  // a warp sub-tile's rows
  constexpr int WSUB_N = WN / WN_ITER;  // and its columns
  static_assert(WM_ITER * WN_ITER * 32 * TM * TN == WM * WN);
  static_assert((WSUB_M / TM) * (WSUB_N / TN) == 32);
  alignas(16) __shared__ float a_tile_t[BK][BM];  // transposed: [p][row]
  alignas(16) __shared__ float b_tile[BK][BN];
  const int t = threadIdx.x;
  const int row0 = blockIdx.y * BM;
  const int col0 = blockIdx.x * BN;
  // The warp's tile within the block's, and the thread's place in the
  // warp's sub-tiles.
  const int warp = t / 32;
  const int warp_row = (warp / (BN / WN)) * WM;
  const int warp_col = (warp % (BN / WN)) * WN;
  const int lane = t % 32;
  const int lane_row = (lane / (WSUB_N / TN)) * TM;
  const int lane_col = (lane % (WSUB_N / TN)) * TN;
  float acc[WM_ITER * TM][WN_ITER * TN] = {};
  float a_reg[WM_ITER * TM];
  float b_reg[WN_ITER * TN];
  for (int p0 = 0; p0 < k; p0 += BK) {
    // The float4 loads of version 6.
    load_tiles_float4<BM, BN, BK, THREADS>(
        m, n, k, a, b, row0, col0, p0, vector_a, vector_bc, a_tile_t, b_tile);
    // The tiles are read by the whole block: all must be loaded first.
    __syncthreads();
    for (int p = 0; p < BK; ++p) {
      // The thread's TM rows in each of the warp's WM_ITER sub-tiles, and
      // its TN columns in each of the WN_ITER.
      for (int wi = 0; wi < WM_ITER; ++wi)
        for (int i = 0; i < TM; ++i)
          a_reg[wi * TM + i] =
              a_tile_t[p][warp_row + wi * WSUB_M + lane_row + i];
      for (int wj = 0; wj < WN_ITER; ++wj)
        for (int j = 0; j < TN; ++j)
          b_reg[wj * TN + j] = b_tile[p][warp_col + wj * WSUB_N + lane_col + j];
      for (int i = 0; i < WM_ITER * TM; ++i)
        for (int j = 0; j < WN_ITER * TN; ++j) acc[i][j] += a_reg[i] * b_reg[j];
    }
    // The next step overwrites the tiles: all must be done reading.
    __syncthreads();
  }
  for (int wi = 0; wi < WM_ITER; ++wi) {
    for (int i = 0; i < TM; ++i) {
      const int row = row0 + warp_row + wi * WSUB_M + lane_row + i;
      if (row >= m) break;
      for (int wj = 0; wj < WN_ITER; ++wj) {
        for (int j = 0; j < TN; j += 4) {
          const float* r = acc[wi * TM + i] + wj * TN + j;
          store4(c + row * n, col0 + warp_col + wj * WSUB_N + lane_col + j, n,
                 vector_bc, make_float4(r[0], r[1], r[2], r[3]), alpha, beta);
        }
      }
    }
  }
}
// --8<-- [end:kernel]

/// a:[m,k] b:[k,n] c:[m,n] -> c = alpha * a b + beta * c (common.cuh).
inline cudaError_t gemm_v7_warp_tiling(int m, int n, int k, float alpha,
                                       const float* a, const float* b,
                                       float beta, float* c,
                                       cudaStream_t stream = 0) {
  // The configuration of the teaching series' warptiling kernel on an
  // Ampere GPU: 4 warps of 64 x 64, each thread 1 x 4 sub-tiles of 8 x 4.
  constexpr int kBM = 128, kBN = 128, kBK = 16, kWM = 64, kWN = 64;
  constexpr int kWNIter = 4, kTM = 8, kTN = 4, kThreads = 128;
  if (const auto result = early_result(m, n, k)) return *result;
  const bool vector_a = k % 4 == 0 && aligned16(a);
  const bool vector_bc = n % 4 == 0 && aligned16(b) && aligned16(c);
  const dim3 grid(ceil_div(n, kBN), ceil_div(m, kBM));
  MINITF_LAUNCH(MINITF_KERNEL_NAME(
                    gemm_v7_warp_tiling_kernel<kBM, kBN, kBK, kWM, kWN, kWNIter,
                                               kTM, kTN, kThreads>),
                grid, kThreads, 0, stream, m, n, k, alpha, a, b, beta, c,
                vector_a, vector_bc);
  return cudaGetLastError();
}

}  // namespace minitf::gpu::gemm
