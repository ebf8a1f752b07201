// What every teaching GEMM shares: the problem, the rule for beta, the shape
// checks of the launchers, ceil_div for grids that cover a matrix whose
// sides are not multiples of the tile, and the float4 tile loads of
// versions 6 and 7.
//
// Every version computes the same single-precision GEMM on row-major
// matrices, as cublasSgemm does (cuBLAS is column-major; see reference.h):
//
//   // a:[m,k] b:[k,n] c:[m,n] -> c = alpha * a b + beta * c
//   cudaError_t e = gemm_v3_shared_tiles(m, n, k, 1.f, d_a, d_b, 0.f, d_c);
//
// The launchers return cudaErrorInvalidValue for a negative size or a
// matrix of 2^31 elements or more (the kernels index with int), launch
// nothing when m or n is 0 (an empty grid is not a valid launch), and
// otherwise return the launch's own error. k = 0 is a valid product: every
// kernel's loop over k then runs no step and c becomes beta * c.
#pragma once

#include <cstdint>
#include <optional>

#include "minitf/gpu/emulator/cuda.h"

namespace minitf::gpu::gemm {

/// The number of tiles of size `tile` that cover `size` elements.
__host__ __device__ inline int ceil_div(int size, int tile) {
  return (size + tile - 1) / tile;
}

// --8<-- [start:store_c]
/// Writes alpha * acc + beta * c to *c. With beta = 0, c is not read, as the
/// BLAS specifies: its old contents may be anything, NaN included.
__device__ inline void store_c(float* c, float acc, float alpha, float beta) {
  *c = beta == 0.f ? alpha * acc : alpha * acc + beta * *c;
}
// --8<-- [end:store_c]

/// row[col..col+3], with zeros from `limit` on: one 16-byte load when
/// `vector` and all four are inside, else four checked loads.
/// REQUIRES: with `vector`, row + col is 16-byte aligned.
__device__ inline float4 load4(const float* row, int col, int limit,
                               bool vector) {
  if (vector && col + 3 < limit)
    return *reinterpret_cast<const float4*>(row + col);
  return make_float4(col < limit ? row[col] : 0.f,
                     col + 1 < limit ? row[col + 1] : 0.f,
                     col + 2 < limit ? row[col + 2] : 0.f,
                     col + 3 < limit ? row[col + 3] : 0.f);
}

// --8<-- [start:load_tiles]
/// One step along k of versions 6 and 7: the THREADS threads of a 1-D block
/// load the BM x BK tile of a at (row0, p0), transposed into a_tile_t[p][row],
/// and the BK x BN tile of b at (p0, col0) into b_tile, in float4s, with
/// zeros past the edges of the matrices. vector_a, vector_bc: rows of a, b
/// may be read in float4s (load4). The caller waits at a barrier before it
/// reads the tiles.
template <int BM, int BN, int BK, int THREADS>
__device__ inline void load_tiles_float4(int m, int n, int k, const float* a,
                                         const float* b, int row0, int col0,
                                         int p0, bool vector_a, bool vector_bc,
                                         float (&a_tile_t)[BK][BM],
                                         float (&b_tile)[BK][BN]) {
  // Loads are float4s of a row: whole strides of rows.
  static_assert(BK % 4 == 0 && BN % 4 == 0);
  static_assert(THREADS % (BK / 4) == 0 && THREADS % (BN / 4) == 0);
  constexpr int kAStride = THREADS / (BK / 4);
  constexpr int kBStride = THREADS / (BN / 4);
  static_assert(BM % kAStride == 0 && BK % kBStride == 0);
  // Thread t loads the float4 at row a_row + i, column a_col of the tile of
  // a, for i = 0, kAStride, ...; and b's likewise.
  const int t = threadIdx.x;
  const int a_row = t / (BK / 4), a_col = 4 * (t % (BK / 4));
  const int b_row = t / (BN / 4), b_col = 4 * (t % (BN / 4));
  for (int i = 0; i < BM; i += kAStride) {
    const int ar = row0 + a_row + i;
    const float4 v = ar < m ? load4(a + ar * k, p0 + a_col, k, vector_a)
                            : make_float4(0.f, 0.f, 0.f, 0.f);
    // Transposed on the way in: four rows of a_tile_t, one column.
    a_tile_t[a_col + 0][a_row + i] = v.x;
    a_tile_t[a_col + 1][a_row + i] = v.y;
    a_tile_t[a_col + 2][a_row + i] = v.z;
    a_tile_t[a_col + 3][a_row + i] = v.w;
  }
  for (int i = 0; i < BK; i += kBStride) {
    const int bp = p0 + b_row + i;
    *reinterpret_cast<float4*>(&b_tile[b_row + i][b_col]) =
        bp < k ? load4(b + bp * n, col0 + b_col, n, vector_bc)
               : make_float4(0.f, 0.f, 0.f, 0.f);
  }
}
// --8<-- [end:load_tiles]

/// What a launcher returns without launching: cudaErrorInvalidValue for a
/// shape the kernels cannot index, cudaSuccess when c has no element to
/// compute (m or n is 0); nullopt when the kernel is to be launched.
inline std::optional<cudaError_t> early_result(int m, int n, int k) {
  constexpr std::int64_t kMaxElements = INT32_MAX;
  if (m < 0 || n < 0 || k < 0 || std::int64_t{m} * k > kMaxElements ||
      std::int64_t{k} * n > kMaxElements || std::int64_t{m} * n > kMaxElements)
    return cudaErrorInvalidValue;
  if (m == 0 || n == 0) return cudaSuccess;
  return std::nullopt;
}

/// The signature every version's launcher has.
/// a:[m,k] b:[k,n] c:[m,n] -> c = alpha * a b + beta * c, on `stream`.
using GemmLauncher = cudaError_t (*)(int m, int n, int k, float alpha,
                                     const float* a, const float* b, float beta,
                                     float* c, cudaStream_t stream);

}  // namespace minitf::gpu::gemm
