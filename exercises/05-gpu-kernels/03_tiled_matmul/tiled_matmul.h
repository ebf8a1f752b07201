// Exercise 03_tiled_matmul: c = a b through tiles in shared memory.
//
// A naive matrix product reads every element of a n times and every element
// of b m times from global memory. A block of kTile x kTile threads that
// computes one kTile x kTile tile of c can instead load a tile of a and a
// tile of b into shared memory, one element per thread, and take kTile
// products of each element from there: global traffic falls kTile times.
// Matrices whose sides are not multiples of kTile leave tiles hanging over
// their edges, where the threads load zeros and write nothing.
//
//   // a:[m,k] b:[k,n] c:[m,n], row-major, device memory
//   cudaError_t e = tiled_matmul(m, n, k, a, b, c);
#pragma once

#include "minitf/gpu/emulator/cuda.h"

namespace minitf::exercises {

/// The side of a tile, and of a block of threads.
inline constexpr int kTile = 16;

/// a:[m,k] b:[k,n] -> c:[m,n] = a b, row-major. Block (x, y) computes the
/// tile of c at rows y * kTile ..., columns x * kTile ...; its thread (x, y)
/// computes element (y * kTile + threadIdx.y, x * kTile + threadIdx.x), if
/// it lies in c, walking along k a tile at a time through two kTile x kTile
/// `__shared__` tiles, of a and of b. Elements of c outside it are not
/// written, elements of a and b outside them not read.
/// REQUIRES: blockDim = (kTile, kTile, 1); the grid covers c; 0 <= k.
__global__ void tiled_matmul_kernel(int m, int n, int k, const float* a,
                                    const float* b, float* c);

/// a:[m,k] b:[k,n] -> c:[m,n] = a b on `stream`: tiled_matmul_kernel on a
/// grid of ceil(n / kTile) x ceil(m / kTile) blocks. Launches nothing when
/// m or n is 0; returns cudaErrorInvalidValue for a negative size, else the
/// launch's error.
cudaError_t tiled_matmul(int m, int n, int k, const float* a, const float* b,
                         float* c, cudaStream_t stream = 0);

}  // namespace minitf::exercises
