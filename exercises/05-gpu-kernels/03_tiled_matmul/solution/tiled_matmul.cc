// Exercise 03_tiled_matmul: one solution. Try the exercise first!
#include "tiled_matmul.h"

namespace minitf::exercises {

__global__ void tiled_matmul_kernel(int m, int n, int k, const float* a,
                                    const float* b, float* c) {
  __shared__ float a_tile[kTile][kTile];
  __shared__ float b_tile[kTile][kTile];
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int row = blockIdx.y * kTile + ty;
  const int col = blockIdx.x * kTile + tx;
  float acc = 0.f;
  for (int p0 = 0; p0 < k; p0 += kTile) {
    // Zeros outside a and b add nothing to the dot product.
    a_tile[ty][tx] = row < m && p0 + tx < k ? a[row * k + p0 + tx] : 0.f;
    b_tile[ty][tx] = p0 + ty < k && col < n ? b[(p0 + ty) * n + col] : 0.f;
    // Each thread reads a row and a column that other threads loaded.
    __syncthreads();
    for (int p = 0; p < kTile; ++p) acc += a_tile[ty][p] * b_tile[p][tx];
    // The next step overwrites the tiles that others may still be reading.
    __syncthreads();
  }
  if (row < m && col < n) c[row * n + col] = acc;
}

cudaError_t tiled_matmul(int m, int n, int k, const float* a, const float* b,
                         float* c, cudaStream_t stream) {
  if (m < 0 || n < 0 || k < 0) return cudaErrorInvalidValue;
  // A grid of no blocks is no valid launch.
  if (m == 0 || n == 0) return cudaSuccess;
  const dim3 grid((n + kTile - 1) / kTile, (m + kTile - 1) / kTile);
  MINITF_LAUNCH(tiled_matmul_kernel, grid, dim3(kTile, kTile), 0, stream, m, n,
                k, a, b, c);
  return cudaGetLastError();
}

}  // namespace minitf::exercises
