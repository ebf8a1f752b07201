// What the engine's GPU kernels share: the launch shape, the grid-stride
// loop, math spelled the same for nvcc and the host compiler, and the
// reduction of one value per thread to one value per block.
//
// Threads to elements. Every elementwise kernel is launched with blocks of
// kBlock = 256 threads (8 warps) and at most kMaxBlocks blocks, and walks
// its n elements with a *grid-stride loop*: thread t of the grid takes
// elements t, t + T, t + 2T, ... where T is the number of threads in the
// grid. One launch shape then serves every n: a small tensor gets
// ceil(n / 256) blocks, one element per thread; a large one gets
// kMaxBlocks, about one full wave of an H100 (132 SMs x 2048 threads), and
// each thread loops. Neighbouring threads take neighbouring elements, so a
// warp's loads coalesce into whole 128-byte lines.
//
//   for (int64_t i : GridStride(n)) y[i] = -x[i];   // in a __global__
//   MINITF_LAUNCH(k, BlocksFor(n), kBlock, 0, stream, x, y, n);
//
// Sizes and indices are int64_t: a tensor may have more than 2^31 elements.
#pragma once

#include <cstdint>
#include <type_traits>

#include "minitf/gpu/emulator/cuda.h"

namespace minitf::gpu::MINITF_GPU_BACKEND {

/// Threads per block of every elementwise and row kernel.
inline constexpr int kBlock = 256;
/// The most blocks an elementwise launch uses; larger tensors loop.
inline constexpr int64_t kMaxBlocks = 1024;

/// Blocks for n elements, one per thread up to kMaxBlocks blocks.
/// REQUIRES: n >= 1 (an empty grid is not a valid launch).
inline unsigned BlocksFor(int64_t n) {
  const int64_t blocks = (n + kBlock - 1) / kBlock;
  return static_cast<unsigned>(blocks < kMaxBlocks ? blocks : kMaxBlocks);
}

/// The grid-stride loop as a range: `for (int64_t i : GridStride(n))`.
class GridStride {
 public:
  class Iterator {
   public:
    __device__ Iterator(int64_t i, int64_t step) : i_(i), step_(step) {}
    __device__ int64_t operator*() const { return i_; }
    __device__ Iterator& operator++() {
      i_ += step_;
      return *this;
    }
    // Only `i < end` matters: the loop stops at the first index past n.
    __device__ bool operator!=(const Iterator& end) const {
      return i_ < end.i_;
    }

   private:
    int64_t i_;
    int64_t step_;
  };

  __device__ explicit GridStride(int64_t n) : n_(n) {}
  __device__ Iterator begin() const {
    const int64_t first =
        static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    return Iterator(first, static_cast<int64_t>(blockDim.x) * gridDim.x);
  }
  __device__ Iterator end() const { return Iterator(n_, 0); }

 private:
  int64_t n_;
};

/// The error of the launch just made (or cudaSuccess).
inline cudaError_t LaunchError() { return cudaGetLastError(); }

// --- math on float and double
// ------------------------------------------------- Each function is the float
// or double one of CUDA's math library, which the host's <cmath> also has under
// the same names (expf, exp ...), so the kernels call the same functions on
// both compilers.

template <class T>
__device__ inline bool IsNan(T x) {
  return x != x;  // true only for NaN; also fine for integers
}
template <class T>
__device__ inline T Exp(T x) {
  if constexpr (std::is_same_v<T, float>) {
    return expf(x);
  } else {
    return exp(x);
  }
}
template <class T>
__device__ inline T Log(T x) {
  if constexpr (std::is_same_v<T, float>) {
    return logf(x);
  } else {
    return log(x);
  }
}
template <class T>
__device__ inline T Sqrt(T x) {
  if constexpr (std::is_same_v<T, float>) {
    return sqrtf(x);
  } else {
    return sqrt(x);
  }
}
template <class T>
__device__ inline T Tanh(T x) {
  if constexpr (std::is_same_v<T, float>) {
    return tanhf(x);
  } else {
    return tanh(x);
  }
}
/// +infinity of a floating type (HUGE_VAL is not a device constant).
template <class T>
__device__ inline T Infinity() {
  return T(1) / T(0);
}
template <class T>
__device__ inline T QuietNan() {
  return Infinity<T>() - Infinity<T>();
}

/// max and min that keep NaN: one NaN operand makes the result NaN, as
/// chapter 1's kernels (and NumPy's np.maximum) do.
template <class T>
__device__ inline T MaxNan(T a, T b) {
  if (IsNan(a)) return a;
  if (IsNan(b)) return b;
  return a > b ? a : b;
}
template <class T>
__device__ inline T MinNan(T a, T b) {
  if (IsNan(a)) return a;
  if (IsNan(b)) return b;
  return a < b ? a : b;
}

// --- block-wide reduction
// -----------------------------------------------------

// --8<-- [start:block_reduce]
/// Combines one value from every thread of the block with `combine` (an
/// associative functor whose identity is `identity`) and returns the result
/// to every thread. Two levels:
/// within each warp, five shuffle steps (__shfl_down_sync moves a value from
/// the lane `offset` above, in registers, with no memory and no barrier)
/// leave the warp's result in lane 0; the warps' results then meet in
/// shared memory, where warp 0 combines them the same way.
/// REQUIRES: every thread of the block calls it, and blockDim.x is a
/// multiple of 32 up to 1024.
template <class T, class Combine>
__device__ T BlockReduce(T value, T identity, Combine combine) {
  // One slot per warp, and one for the result.
  __shared__ T partial[33];
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  for (int offset = 16; offset > 0; offset /= 2)
    value = combine(value, __shfl_down_sync(0xffffffffu, value, offset));
  if (lane == 0) partial[warp] = value;
  // Warp 0 reads every warp's slot: all must be written first.
  __syncthreads();
  if (warp == 0) {
    const int warps = blockDim.x / 32;
    value = lane < warps ? partial[lane] : identity;
    for (int offset = 16; offset > 0; offset /= 2)
      value = combine(value, __shfl_down_sync(0xffffffffu, value, offset));
    if (lane == 0) partial[32] = value;
  }
  // Every thread reads the result that thread 0 wrote.
  __syncthreads();
  const T result = partial[32];
  // The next call writes the slots again: every thread must have read them.
  __syncthreads();
  return result;
}
// --8<-- [end:block_reduce]

}  // namespace minitf::gpu::MINITF_GPU_BACKEND
