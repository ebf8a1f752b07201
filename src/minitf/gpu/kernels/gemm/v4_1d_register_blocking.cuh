// Teaching GEMM, version 4: 1-D register blocking. Version 3 is limited by
// shared memory: each multiply-add reads two floats from it. Here a block of
// BM * BN / TM threads computes a BM x BN tile of c, and each thread TM
// elements of one column of it, kept in registers. In the loop over the
// BK-wide slice of k, a thread reads one element of b_tile into a register
// and uses it for TM multiply-adds with TM elements of a_tile: about one
// shared-memory read per multiply-add instead of two, and more work per
// thread to hide the latency of the loads. The tiles are no longer square
// (BM x BK of a, BK x BN of b), so the threads are renumbered for the loads:
// thread t loads element (t / BK, t % BK) of a_tile and (t / BN, t % BN) of
// b_tile, one each.
//
//   // a:[m,k] b:[k,n] c:[m,n], device memory
//   gemm_v4_1d_register_blocking(m, n, k, 1.f, d_a, d_b, 0.f, d_c);
#pragma once

#include "minitf/gpu/kernels/gemm/common.cuh"

namespace minitf::gpu::gemm {

// --8<-- [start:kernel]
/// a:[m,k] b:[k,n] c:[m,n] -> c = alpha * a b + beta * c; a 1-D block of
/// BM * BN / TM threads computes the BM x BN tile of c at (blockIdx.y * BM,
/// blockIdx.x * BN), thread t the TM elements of column t % BN from row
/// (t / BN) * TM.
template <int BM, int BN, int BK, int TM>
__global__ void gemm_v4_1d_register_blocking_kernel(int m, int n, int k,
                                                    float alpha, const float* a,
                                                    const float* b, float beta,
                                                    float* c) {
  constexpr int kThreads = BM * BN / TM;
  // One element of each tile per thread per step of k.
  static_assert(kThreads == BM * BK && kThreads == BK * BN);
  __shared__ float a_tile[BM][BK];
  __shared__ float b_tile[BK][BN];
  const int t = threadIdx.x;
  const int row0 = blockIdx.y * BM;
  const int col0 = blockIdx.x * BN;
  // The thread's TM rows of c start at row0 + thread_row * TM.
  const int thread_row = t / BN;
  const int thread_col = t % BN;
  // What it loads: a_tile[a_row][a_col] and b_tile[b_row][b_col].
  const int a_row = t / BK, a_col = t % BK;
  const int b_row = t / BN, b_col = t % BN;
  float acc[TM] = {};
  for (int p0 = 0; p0 < k; p0 += BK) {
    const int ar = row0 + a_row, ap = p0 + a_col;
    a_tile[a_row][a_col] = ar < m && ap < k ? a[ar * k + ap] : 0.f;
    const int bp = p0 + b_row, bc = col0 + b_col;
    b_tile[b_row][b_col] = bp < k && bc < n ? b[bp * n + bc] : 0.f;
    // The tiles are read by the whole block: all must be loaded first.
    __syncthreads();
    for (int p = 0; p < BK; ++p) {
      const float b_p = b_tile[p][thread_col];  // reused TM times
      for (int i = 0; i < TM; ++i)
        acc[i] += a_tile[thread_row * TM + i][p] * b_p;
    }
    // The next step overwrites the tiles: all must be done reading.
    __syncthreads();
  }
  const int col = col0 + thread_col;
  for (int i = 0; i < TM; ++i) {
    const int row = row0 + thread_row * TM + i;
    if (row < m && col < n) store_c(&c[row * n + col], acc[i], alpha, beta);
  }
}
// --8<-- [end:kernel]

/// a:[m,k] b:[k,n] c:[m,n] -> c = alpha * a b + beta * c (common.cuh).
inline cudaError_t gemm_v4_1d_register_blocking(int m, int n, int k,
                                                float alpha, const float* a,
                                                const float* b, float beta,
                                                float* c,
                                                cudaStream_t stream = 0) {
  constexpr int kBM = 64, kBN = 64, kBK = 8, kTM = 8;
  if (const auto result = early_result(m, n, k)) return *result;
  const dim3 grid(ceil_div(n, kBN), ceil_div(m, kBM));
  MINITF_LAUNCH(MINITF_KERNEL_NAME(
                    gemm_v4_1d_register_blocking_kernel<kBM, kBN, kBK, kTM>),
                grid, kBM * kBN / kTM, 0, stream, m, n, k, alpha, a, b, beta,
                c);
  return cudaGetLastError();
}

}  // namespace minitf::gpu::gemm
