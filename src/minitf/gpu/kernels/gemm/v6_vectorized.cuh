// Teaching GEMM, version 6: vectorised loads. Version 5's arithmetic, with
// its memory accesses made four times wider: a float4 load moves 16 bytes in
// one instruction (LDG.128 from global, LDS.128 from shared memory), so the
// block issues a quarter of the load instructions. Two changes make that
// possible. The tile of a is stored transposed, a_tile_t[p][row], so that the
// TM elements a thread needs in step p lie side by side and come in float4s,
// as b_tile's TN do already. And a float4 must start at a multiple of 16
// bytes: a row of a can be read in float4s only when k is a multiple of 4,
// b only when n is, and only where all four are inside the matrix. The
// launcher checks the first two (and the pointers' alignment); at the ragged
// right edge, and for other sizes, the kernel falls back to four single
// loads with bounds checks. The same holds for the stores of c.
//
//   // a:[m,k] b:[k,n] c:[m,n], device memory
//   gemm_v6_vectorized(m, n, k, 1.f, d_a, d_b, 0.f, d_c);
#pragma once

#include <cstdint>

#include "minitf/gpu/kernels/gemm/common.cuh"

namespace minitf::gpu::gemm {

/// row[col..col+3] = alpha * acc + beta * row[col..col+3], only where the
/// column is below `limit`; one 16-byte load and store when `vector` and all
/// four are inside. REQUIRES: with `vector`, row + col is 16-byte aligned.
__device__ inline void store4(float* row, int col, int limit, bool vector,
                              float4 acc, float alpha, float beta) {
  if (vector && col + 3 < limit) {
    float4& out = *reinterpret_cast<float4*>(row + col);
    if (beta == 0.f) {
      out = make_float4(alpha * acc.x, alpha * acc.y, alpha * acc.z,
                        alpha * acc.w);
    } else {
      const float4 old = out;
      out = make_float4(
          alpha * acc.x + beta * old.x, alpha * acc.y + beta * old.y,
          alpha * acc.z + beta * old.z, alpha * acc.w + beta * old.w);
    }
    return;
  }
  const float v[4] = {acc.x, acc.y, acc.z, acc.w};
  for (int j = 0; j < 4; ++j)
    if (col + j < limit) store_c(&row[col + j], v[j], alpha, beta);
}

/// reg = src[0..N), read in float4s. REQUIRES: src is 16-byte aligned and
/// N a multiple of 4.
template <int N>
__device__ inline void read_float4s(const float* src, float (&reg)[N]) {
  for (int i = 0; i < N; i += 4) {
    const float4 v = *reinterpret_cast<const float4*>(src + i);
    reg[i] = v.x;
    reg[i + 1] = v.y;
    reg[i + 2] = v.z;
    reg[i + 3] = v.w;
  }
}

// --8<-- [start:kernel]
/// a:[m,k] b:[k,n] c:[m,n] -> c = alpha * a b + beta * c; the tiling of
/// version 5. vector_a: rows of a may be read in float4s (k % 4 == 0, a
/// 16-byte aligned); vector_bc: rows of b and c likewise (n % 4 == 0).
template <int BM, int BN, int BK, int TM, int TN>
__global__ void gemm_v6_vectorized_kernel(int m, int n, int k, float alpha,
                                          const float* a, const float* b,
                                          float beta, float* c, bool vector_a,
                                          bool vector_bc) {
  constexpr int kThreads = (BM / TM) * (BN / TN);
  // A thread reads its TM and TN neighbours in float4s.
  static_assert(TM % 4 == 0 && TN % 4 == 0);
  // Aligned to 16 bytes: threads read and write them in float4s.
  alignas(16) __shared__ float a_tile_t[BK][BM];  // transposed: [p][row]
  alignas(16) __shared__ float b_tile[BK][BN];
  const int t = threadIdx.x;
  const int row0 = blockIdx.y * BM;
  const int col0 = blockIdx.x * BN;
  const int thread_row = t / (BN / TN);
  const int thread_col = t % (BN / TN);
  float acc[TM][TN] = {};
  float a_reg[TM];
  float b_reg[TN];
  for (int p0 = 0; p0 < k; p0 += BK) {
    load_tiles_float4<BM, BN, BK, kThreads>(
        m, n, k, a, b, row0, col0, p0, vector_a, vector_bc, a_tile_t, b_tile);
    // The tiles are read by the whole block: all must be loaded first.
    __syncthreads();
    for (int p = 0; p < BK; ++p) {
      // TM and TN neighbours in shared memory: float4 reads.
      read_float4s(&a_tile_t[p][thread_row * TM], a_reg);
      read_float4s(&b_tile[p][thread_col * TN], b_reg);
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j) acc[i][j] += a_reg[i] * b_reg[j];
    }
    // The next step overwrites the tiles: all must be done reading.
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i) {
    const int row = row0 + thread_row * TM + i;
    if (row >= m) break;
    for (int j = 0; j < TN; j += 4)
      store4(
          c + row * n, col0 + thread_col * TN + j, n, vector_bc,
          make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]),
          alpha, beta);
  }
}
// --8<-- [end:kernel]

/// True when p is 16-byte aligned: a float4 may be read there.
inline bool aligned16(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

/// a:[m,k] b:[k,n] c:[m,n] -> c = alpha * a b + beta * c (common.cuh).
inline cudaError_t gemm_v6_vectorized(int m, int n, int k, float alpha,
                                      const float* a, const float* b,
                                      float beta, float* c,
                                      cudaStream_t stream = 0) {
  constexpr int kBM = 128, kBN = 128, kBK = 8, kTM = 8, kTN = 8;
  if (const auto result = early_result(m, n, k)) return *result;
  // A row starts 16-byte aligned only if the matrix does and the row's
  // length is a multiple of 4 floats.
  const bool vector_a = k % 4 == 0 && aligned16(a);
  const bool vector_bc = n % 4 == 0 && aligned16(b) && aligned16(c);
  const dim3 grid(ceil_div(n, kBN), ceil_div(m, kBM));
  MINITF_LAUNCH(
      MINITF_KERNEL_NAME(gemm_v6_vectorized_kernel<kBM, kBN, kBK, kTM, kTN>),
      grid, (kBM / kTM) * (kBN / kTN), 0, stream, m, n, k, alpha, a, b, beta, c,
      vector_a, vector_bc);
  return cudaGetLastError();
}

}  // namespace minitf::gpu::gemm
