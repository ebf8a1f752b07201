// Teaching GEMM, version 1: naive. One thread computes one element of c, a
// dot product of a row of a and a column of b read straight from global
// memory. The grid covers c with 32 x 32 blocks, and threadIdx.x runs down a
// column of c: the 32 threads of a warp have neighbouring rows. That is the
// mistake version 2 corrects: a warp's loads of a touch 32 rows k floats
// apart, and its stores of c 32 rows n floats apart, so every access of the
// warp needs 32 separate memory transactions instead of one or two.
//
//   // a:[m,k] b:[k,n] c:[m,n], device memory
//   gemm_v1_naive(m, n, k, 1.f, d_a, d_b, 0.f, d_c);
#pragma once

#include "minitf/gpu/kernels/gemm/common.cuh"

namespace minitf::gpu::gemm {

// --8<-- [start:kernel]
/// a:[m,k] b:[k,n] c:[m,n] -> c = alpha * a b + beta * c; one thread per
/// element of c, blocks of BLOCK x BLOCK threads.
template <int BLOCK>
__global__ void gemm_v1_naive_kernel(int m, int n, int k, float alpha,
                                     const float* a, const float* b, float beta,
                                     float* c) {
  // x is the row: threads next to each other in a warp are a column apart.
  const int row = blockIdx.x * BLOCK + threadIdx.x;
  const int col = blockIdx.y * BLOCK + threadIdx.y;
  // The grid is rounded up to whole blocks; threads past the edge of c have
  // nothing to compute.
  if (row >= m || col >= n) return;
  float acc = 0.f;
  for (int p = 0; p < k; ++p) acc += a[row * k + p] * b[p * n + col];
  store_c(&c[row * n + col], acc, alpha, beta);
}
// --8<-- [end:kernel]

/// a:[m,k] b:[k,n] c:[m,n] -> c = alpha * a b + beta * c (common.cuh).
inline cudaError_t gemm_v1_naive(int m, int n, int k, float alpha,
                                 const float* a, const float* b, float beta,
                                 float* c, cudaStream_t stream = 0) {
  constexpr int kBlock = 32;
  if (const auto result = early_result(m, n, k)) return *result;
  const dim3 grid(ceil_div(m, kBlock), ceil_div(n, kBlock));
  const dim3 block(kBlock, kBlock);
  MINITF_LAUNCH(gemm_v1_naive_kernel<kBlock>, grid, block, 0, stream, m, n, k,
                alpha, a, b, beta, c);
  return cudaGetLastError();
}

}  // namespace minitf::gpu::gemm
