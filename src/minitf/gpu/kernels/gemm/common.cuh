// What every teaching GEMM shares: the problem, the rule for beta, the shape
// checks of the launchers, and ceil_div for grids that cover a matrix whose
// sides are not multiples of the tile.
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

/// What a launcher does before it launches: cudaErrorInvalidValue for a
/// shape the kernels cannot index, else cudaSuccess; *empty is set when
/// there is no element of c to compute (m or n is 0).
inline cudaError_t check_shape(int m, int n, int k, bool* empty) {
  constexpr std::int64_t kMaxElements = INT32_MAX;
  if (m < 0 || n < 0 || k < 0 || std::int64_t{m} * k > kMaxElements ||
      std::int64_t{k} * n > kMaxElements || std::int64_t{m} * n > kMaxElements)
    return cudaErrorInvalidValue;
  *empty = m == 0 || n == 0;
  return cudaSuccess;
}

/// The signature every version's launcher has.
/// a:[m,k] b:[k,n] c:[m,n] -> c = alpha * a b + beta * c, on `stream`.
using GemmLauncher = cudaError_t (*)(int m, int n, int k, float alpha,
                                     const float* a, const float* b, float beta,
                                     float* c, cudaStream_t stream);

}  // namespace minitf::gpu::gemm
