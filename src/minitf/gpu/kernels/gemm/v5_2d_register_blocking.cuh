// Teaching GEMM, version 5: 2-D register blocking. Each thread now computes a
// TM x TN square of c, not a TM x 1 column. In every step p of the slice of
// k it copies TM elements of a_tile's column p and TN elements of b_tile's
// row p into registers, then does TM * TN multiply-adds among them: an outer
// product. That is TM + TN shared-memory reads for TM * TN multiply-adds (16
// for 64 with 8 x 8), against version 4's TM + 1 for TM. A block of 256
// threads covers a 128 x 128 tile of c, so each float loaded from global
// memory is used 128 times. The tiles hold more elements than the block has
// threads, so each thread loads several, in strides of whole rows.
//
//   // a:[m,k] b:[k,n] c:[m,n], device memory
//   gemm_v5_2d_register_blocking(m, n, k, 1.f, d_a, d_b, 0.f, d_c);
#pragma once

#include "minitf/gpu/kernels/gemm/common.cuh"

namespace minitf::gpu::gemm {

// --8<-- [start:kernel]
/// a:[m,k] b:[k,n] c:[m,n] -> c = alpha * a b + beta * c; a 1-D block of
/// (BM / TM) * (BN / TN) threads computes the BM x BN tile of c at
/// (blockIdx.y * BM, blockIdx.x * BN), thread t the TM x TN square at
/// ((t / (BN / TN)) * TM, (t % (BN / TN)) * TN) within it.
template <int BM, int BN, int BK, int TM, int TN>
__global__ void gemm_v5_2d_register_blocking_kernel(int m, int n, int k,
                                                    float alpha, const float* a,
                                                    const float* b, float beta,
                                                    float* c) {
  constexpr int kThreads = (BM / TM) * (BN / TN);
  // Each thread loads whole strides of rows: the tiles must divide evenly.
  static_assert(kThreads % BK == 0 && kThreads % BN == 0);
  static_assert(BM % (kThreads / BK) == 0 && BK % (kThreads / BN) == 0);
  __shared__ float a_tile[BM][BK];
  __shared__ float b_tile[BK][BN];
  const int t = threadIdx.x;
  const int row0 = blockIdx.y * BM;
  const int col0 = blockIdx.x * BN;
  const int thread_row = t / (BN / TN);
  const int thread_col = t % (BN / TN);
  // Thread t loads a_tile[a_row + i][a_col] for i = 0, a_stride, ... and
  // likewise b_tile.
  const int a_row = t / BK, a_col = t % BK, a_stride = kThreads / BK;
  const int b_row = t / BN, b_col = t % BN, b_stride = kThreads / BN;
  float acc[TM][TN] = {};
  float a_reg[TM];
  float b_reg[TN];
  for (int p0 = 0; p0 < k; p0 += BK) {
    for (int i = 0; i < BM; i += a_stride) {
      const int ar = row0 + a_row + i, ap = p0 + a_col;
      a_tile[a_row + i][a_col] = ar < m && ap < k ? a[ar * k + ap] : 0.f;
    }
    for (int i = 0; i < BK; i += b_stride) {
      const int bp = p0 + b_row + i, bc = col0 + b_col;
      b_tile[b_row + i][b_col] = bp < k && bc < n ? b[bp * n + bc] : 0.f;
    }
    // The tiles are read by the whole block: all must be loaded first.
    __syncthreads();
    for (int p = 0; p < BK; ++p) {
      for (int i = 0; i < TM; ++i) a_reg[i] = a_tile[thread_row * TM + i][p];
      for (int j = 0; j < TN; ++j) b_reg[j] = b_tile[p][thread_col * TN + j];
      // The outer product of a_reg and b_reg, all in registers.
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j) acc[i][j] += a_reg[i] * b_reg[j];
    }
    // The next step overwrites the tiles: all must be done reading.
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i) {
    const int row = row0 + thread_row * TM + i;
    for (int j = 0; j < TN; ++j) {
      const int col = col0 + thread_col * TN + j;
      if (row < m && col < n)
        store_c(&c[row * n + col], acc[i][j], alpha, beta);
    }
  }
}
// --8<-- [end:kernel]

/// a:[m,k] b:[k,n] c:[m,n] -> c = alpha * a b + beta * c (common.cuh).
inline cudaError_t gemm_v5_2d_register_blocking(int m, int n, int k,
                                                float alpha, const float* a,
                                                const float* b, float beta,
                                                float* c,
                                                cudaStream_t stream = 0) {
  constexpr int kBM = 128, kBN = 128, kBK = 8, kTM = 8, kTN = 8;
  if (const auto result = early_result(m, n, k)) return *result;
  const dim3 grid(ceil_div(n, kBN), ceil_div(m, kBM));
  MINITF_LAUNCH(
      MINITF_KERNEL_NAME(
          gemm_v5_2d_register_blocking_kernel<kBM, kBN, kBK, kTM, kTN>),
      grid, (kBM / kTM) * (kBN / kTN), 0, stream, m, n, k, alpha, a, b, beta,
      c);
  return cudaGetLastError();
}

}  // namespace minitf::gpu::gemm
