// Teaching GEMM, version 2: coalesced. The same work as version 1, one thread
// per element of c, with the two block coordinates swapped: threadIdx.x now
// runs along a row of c. The 32 threads of a warp then read the same element
// of a (one load, broadcast to the warp), 32 neighbouring floats of b (one
// 128-byte transaction) and write 32 neighbouring floats of c. The GPU
// coalesces a warp's accesses to consecutive addresses into as few
// transactions as it can; nothing else changed, and version 1's memory
// traffic falls by up to 32 times.
//
//   // a:[m,k] b:[k,n] c:[m,n], device memory
//   gemm_v2_coalesced(m, n, k, 1.f, d_a, d_b, 0.f, d_c);
#pragma once

#include "minitf/gpu/kernels/gemm/common.cuh"

namespace minitf::gpu::gemm {

// --8<-- [start:kernel]
/// a:[m,k] b:[k,n] c:[m,n] -> c = alpha * a b + beta * c; one thread per
/// element of c, blocks of BLOCK x BLOCK threads.
template <int BLOCK>
__global__ void gemm_v2_coalesced_kernel(int m, int n, int k, float alpha,
                                         const float* a, const float* b,
                                         float beta, float* c) {
  // x is the column: a warp's 32 threads read and write 32 neighbours.
  const int row = blockIdx.y * BLOCK + threadIdx.y;
  const int col = blockIdx.x * BLOCK + threadIdx.x;
  if (row >= m || col >= n) return;
  float acc = 0.f;
  for (int p = 0; p < k; ++p) acc += a[row * k + p] * b[p * n + col];
  store_c(&c[row * n + col], acc, alpha, beta);
}
// --8<-- [end:kernel]

/// a:[m,k] b:[k,n] c:[m,n] -> c = alpha * a b + beta * c (common.cuh).
inline cudaError_t gemm_v2_coalesced(int m, int n, int k, float alpha,
                                     const float* a, const float* b, float beta,
                                     float* c, cudaStream_t stream = 0) {
  constexpr int kBlock = 32;
  if (const auto result = early_result(m, n, k)) return *result;
  // Columns along x: the grid's x covers n, its y covers m.
  const dim3 grid(ceil_div(n, kBlock), ceil_div(m, kBlock));
  const dim3 block(kBlock, kBlock);
  MINITF_LAUNCH(gemm_v2_coalesced_kernel<kBlock>, grid, block, 0, stream, m, n,
                k, alpha, a, b, beta, c);
  return cudaGetLastError();
}

}  // namespace minitf::gpu::gemm
