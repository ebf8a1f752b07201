// MatMul without cuBLAS: what the emulated GPU runs. On a real GPU the
// engine calls cuBLAS (cuda_backend.cu); on the emulator it runs the course's
// own kernels, so that the whole GPU code path, matmul included, is CUDA C++
// that any machine can execute:
//   - float: the teaching GEMM v6_vectorized (kernels/gemm/), the fastest of
//     the series on the emulator (the chapter's table), for any m, n, k;
//   - double: a shared-memory tiled GEMM like the series' v3, on T;
//   - transpose_a / transpose_b: the GEMMs take row-major a:[m,k] b:[k,n]
//     only, so a transposed operand is first transposed into scratch memory.
//
// Threads to elements. The transpose: a block of 32 x 8 threads moves one
// 32 x 32 tile, each thread 4 elements. It reads the tile's rows (threads
// along x read neighbouring elements: coalesced) into shared memory, and
// writes the tile's columns as rows of the output (coalesced again); the
// shared tile is 33 wide, so that reading a column of it touches 32 different
// banks. The tiled GEMM: a block of 16 x 16 threads computes a 16 x 16 tile
// of c, one element per thread, walking k a tile at a time.
//
//   LaunchTeachingMatMul<float>(a, b, c, m, n, k, ta, tb, scratch, stream);
#pragma once

#include <cstdint>

#include "minitf/gpu/kernels/device/common.cuh"
#include "minitf/gpu/kernels/gemm/v6_vectorized.cuh"

namespace minitf::gpu::MINITF_GPU_BACKEND {

inline constexpr int kTransposeTile = 32;
inline constexpr int kTransposeRows = 8;  // threads along y; 4 rows each

// --8<-- [start:transpose]
/// in:[rows, cols] -> out:[cols, rows].
template <class T>
__global__ void TransposeKernel(const T* in, T* out, int64_t rows,
                                int64_t cols) {
  __shared__ T tile[kTransposeTile][kTransposeTile + 1];
  const int64_t col0 = static_cast<int64_t>(blockIdx.x) * kTransposeTile;
  const int64_t row0 = static_cast<int64_t>(blockIdx.y) * kTransposeTile;
  for (int r = threadIdx.y; r < kTransposeTile; r += kTransposeRows) {
    const int64_t row = row0 + r;
    const int64_t col = col0 + threadIdx.x;
    if (row < rows && col < cols) tile[r][threadIdx.x] = in[row * cols + col];
  }
  // Each thread writes elements that other threads read in: all must be in.
  __syncthreads();
  for (int r = threadIdx.y; r < kTransposeTile; r += kTransposeRows) {
    const int64_t out_row = col0 + r;  // a column of `in`
    const int64_t out_col = row0 + threadIdx.x;
    if (out_row < cols && out_col < rows)
      out[out_row * rows + out_col] = tile[threadIdx.x][r];
  }
}
// --8<-- [end:transpose]

/// REQUIRES: rows, cols >= 1 and ceil(rows / 32) < 65536 (the grid's y).
template <class T>
cudaError_t LaunchTranspose(const T* in, T* out, int64_t rows, int64_t cols,
                            cudaStream_t stream) {
  const dim3 grid(
      static_cast<unsigned>((cols + kTransposeTile - 1) / kTransposeTile),
      static_cast<unsigned>((rows + kTransposeTile - 1) / kTransposeTile));
  const dim3 block(kTransposeTile, kTransposeRows);
  MINITF_LAUNCH(MINITF_KERNEL_NAME(TransposeKernel<T>), grid, block, 0, stream,
                in, out, rows, cols);
  return LaunchError();
}

inline constexpr int kGemmTile = 16;

/// a:[m,k] b:[k,n] -> c:[m,n]; thread (x, y) of block (bx, by) computes
/// c[by * 16 + y, bx * 16 + x]. Zeros are loaded outside the matrices.
template <class T>
__global__ void TiledGemmKernel(const T* a, const T* b, T* c, int m, int n,
                                int k) {
  __shared__ T a_tile[kGemmTile][kGemmTile];
  __shared__ T b_tile[kGemmTile][kGemmTile];
  const int row = blockIdx.y * kGemmTile + threadIdx.y;
  const int col = blockIdx.x * kGemmTile + threadIdx.x;
  T acc = 0;
  for (int p0 = 0; p0 < k; p0 += kGemmTile) {
    const int ap = p0 + threadIdx.x;
    const int bp = p0 + threadIdx.y;
    a_tile[threadIdx.y][threadIdx.x] =
        row < m && ap < k ? a[static_cast<int64_t>(row) * k + ap] : T(0);
    b_tile[threadIdx.y][threadIdx.x] =
        bp < k && col < n ? b[static_cast<int64_t>(bp) * n + col] : T(0);
    // The tiles are read by the whole block: all must be loaded first.
    __syncthreads();
    for (int p = 0; p < kGemmTile; ++p)
      acc += a_tile[threadIdx.y][p] * b_tile[p][threadIdx.x];
    // The next step overwrites the tiles: all must be done reading.
    __syncthreads();
  }
  if (row < m && col < n) c[static_cast<int64_t>(row) * n + col] = acc;
}

/// The scratch LaunchTeachingMatMul needs: room for the transposed operands.
inline size_t TeachingMatMulScratch(size_t element_size, int64_t m, int64_t n,
                                    int64_t k, bool transpose_a,
                                    bool transpose_b) {
  const int64_t elements =
      (transpose_a ? m * k : 0) + (transpose_b ? k * n : 0);
  return static_cast<size_t>(elements) * element_size;
}

// --8<-- [start:teaching_matmul]
/// c:[m,n] = op(a) op(b) for float (teaching GEMM v6) or double (the tiled
/// GEMM above). REQUIRES: m, n >= 1; every matrix under 2^31 elements;
/// `scratch` of TeachingMatMulScratch(sizeof(T), ...) bytes.
template <class T>
cudaError_t LaunchTeachingMatMul(const T* a, const T* b, T* c, int64_t m,
                                 int64_t n, int64_t k, bool transpose_a,
                                 bool transpose_b, T* scratch,
                                 cudaStream_t stream) {
  if (k > 0 && transpose_a) {  // a:[k,m] -> [m,k]
    if (const cudaError_t e = LaunchTranspose(a, scratch, k, m, stream);
        e != cudaSuccess)
      return e;
    a = scratch;
    scratch += m * k;
  }
  if (k > 0 && transpose_b) {  // b:[n,k] -> [k,n]
    if (const cudaError_t e = LaunchTranspose(b, scratch, n, k, stream);
        e != cudaSuccess)
      return e;
    b = scratch;
  }
  const int mi = static_cast<int>(m), ni = static_cast<int>(n),
            ki = static_cast<int>(k);
  if constexpr (std::is_same_v<T, float>) {
    return gemm::gemm_v6_vectorized(mi, ni, ki, 1.f, a, b, 0.f, c, stream);
  } else {
    const dim3 grid((ni + kGemmTile - 1) / kGemmTile,
                    (mi + kGemmTile - 1) / kGemmTile);
    MINITF_LAUNCH(MINITF_KERNEL_NAME(TiledGemmKernel<T>), grid,
                  dim3(kGemmTile, kGemmTile), 0, stream, a, b, c, mi, ni, ki);
    return LaunchError();
  }
}
// --8<-- [end:teaching_matmul]

}  // namespace minitf::gpu::MINITF_GPU_BACKEND
