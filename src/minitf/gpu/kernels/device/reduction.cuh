// Reductions on the GPU: Sum, Mean, Prod, Max and Min over the middle axis of
// x:[outer, middle, inner], and ArgMax/ArgMin. Any reduction over any axes
// comes here as one or more such passes: tensor_ops.cc merges adjacent axes
// that are reduced (or kept) together, as chapter 1's MergeAxes does.
//
// Threads to elements, in two layouts:
//   - inner == 1 (a row per output: reduce_sum(x, axis=-1), or every axis):
//     a block of 256 threads per row. Thread t adds up elements t, t + 256,
//     ... of the row (neighbouring threads read neighbouring elements, so the
//     loads coalesce), then the block combines its 256 partial results with
//     BlockReduce (common.cuh): shuffles within each warp, then shared
//     memory across the 8 warps. A few long rows would leave most of the GPU
//     idle with one block each, so a row longer than kRowChunk is split over
//     several blocks, which write partial results to `scratch`; a second
//     pass reduces those, one block per row again.
//   - inner > 1 (reduce_sum(x, axis=0) of a matrix): a thread per output.
//     Thread j walks down column j, `middle` steps of stride `inner`; at
//     each step the threads of a warp read `inner`-neighbours, coalesced.
//     Short rows (middle <= kShortRow) take this layout too, a thread per
//     row: a block of 256 threads on a row of 3 values would leave 253 of
//     them idle, and synchronise all 256 to add up three numbers.
// ArgMax and ArgMin take the second layout for every shape.
//
//   // x:[rows, n] -> out:[rows], the sum of each row
//   LaunchReduce<float>(ReduceOp::kSum, x, out, rows, n, 1, 1, scratch, s);
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "minitf/gpu/kernels/backend.h"
#include "minitf/gpu/kernels/device/common.cuh"
#include "minitf/gpu/kernels/device/elementwise.cuh"  // AddF, MulF

namespace minitf::gpu::MINITF_GPU_BACKEND {

// --- reducers
// ----------------------------------------------------------------- What
// "combine" means, with its identity: the value an empty reduction gives
// (chapter 1's: sum 0, prod 1, max -inf or the lowest integer, min +inf or the
// highest). Integer sums and products wrap, as AddF and MulF.

struct SumR {
  template <class T>
  __device__ static T Identity() {
    return T(0);
  }
  template <class T>
  __device__ T operator()(T a, T b) const {
    return AddF()(a, b);
  }
};
struct ProdR {
  template <class T>
  __device__ static T Identity() {
    return T(1);
  }
  template <class T>
  __device__ T operator()(T a, T b) const {
    return MulF()(a, b);
  }
};
struct MaxR {
  template <class T>
  __device__ static T Identity() {
    if constexpr (std::is_floating_point_v<T>) {
      return -Infinity<T>();
    } else {
      return std::numeric_limits<T>::lowest();
    }
  }
  template <class T>
  __device__ T operator()(T a, T b) const {
    return MaxNan(a, b);
  }
};
struct MinR {
  template <class T>
  __device__ static T Identity() {
    if constexpr (std::is_floating_point_v<T>) {
      return Infinity<T>();
    } else {
      return std::numeric_limits<T>::max();
    }
  }
  template <class T>
  __device__ T operator()(T a, T b) const {
    return MinNan(a, b);
  }
};

/// A reduced value divided by `divisor` (a mean's element count); integers
/// truncate toward zero, as chapter 1's mean.
template <class T>
__device__ T Divide(T value, int64_t divisor) {
  if (divisor == 1) return value;
  if constexpr (std::is_floating_point_v<T>) {
    return value / static_cast<T>(divisor);
  } else {
    return static_cast<T>(static_cast<int64_t>(value) / divisor);
  }
}

/// Elements of a row one block reduces; longer rows are split.
inline constexpr int64_t kRowChunk = 8192;
/// Rows up to this long are reduced by one thread each.
inline constexpr int64_t kShortRow = 64;

// --8<-- [start:row_kernel]
/// x:[rows, middle] -> out:[rows * splits]: block task (row, s) reduces the
/// s-th of `splits` equal chunks of the row. With splits == 1 that is the
/// whole row, divided by `divisor`.
template <class T, class R>
__global__ void RowReduceKernel(const T* x, T* out, int64_t rows,
                                int64_t middle, int64_t splits,
                                int64_t divisor) {
  const R combine;
  const int64_t chunk = (middle + splits - 1) / splits;
  // A loop over tasks, not threads: every thread of the block runs the same
  // iterations, as BlockReduce's barriers require.
  for (int64_t task = blockIdx.x; task < rows * splits; task += gridDim.x) {
    const int64_t row = task / splits;
    const int64_t begin = (task % splits) * chunk;
    const int64_t end = begin + chunk < middle ? begin + chunk : middle;
    const T* in = x + row * middle;
    T acc = R::template Identity<T>();
    for (int64_t j = begin + threadIdx.x; j < end; j += blockDim.x)
      acc = combine(acc, in[j]);
    acc = BlockReduce(acc, R::template Identity<T>(), combine);
    if (threadIdx.x == 0) out[task] = Divide(acc, divisor);
  }
}
// --8<-- [end:row_kernel]

// --8<-- [start:column_kernel]
/// x:[outer, middle, inner] -> out:[outer, inner], a thread per output.
template <class T, class R>
__global__ void ColumnReduceKernel(const T* x, T* out, int64_t outer,
                                   int64_t middle, int64_t inner,
                                   int64_t divisor) {
  const R combine;
  for (int64_t i : GridStride(outer * inner)) {
    const T* in = x + (i / inner) * middle * inner + i % inner;
    T acc = in[0];
    for (int64_t k = 1; k < middle; ++k) acc = combine(acc, in[k * inner]);
    out[i] = Divide(acc, divisor);
  }
}
// --8<-- [end:column_kernel]

/// How many blocks share each row of a reduction with inner == 1: enough
/// that each reduces at most kRowChunk elements, and no more than keep all
/// kMaxBlocks busy. 1 when inner > 1 or the rows are short.
inline int64_t RowSplits(int64_t outer, int64_t middle, int64_t inner) {
  if (inner != 1 || middle <= kShortRow) return 1;
  const int64_t by_size = (middle + kRowChunk - 1) / kRowChunk;
  const int64_t by_grid = outer >= kMaxBlocks ? 1 : kMaxBlocks / outer;
  const int64_t splits = by_size < by_grid ? by_size : by_grid;
  return splits < 1 ? 1 : splits;
}

/// The scratch bytes LaunchReduce needs: the split rows' partial results.
inline size_t ReduceScratch(size_t element_size, int64_t outer, int64_t middle,
                            int64_t inner) {
  const int64_t splits = RowSplits(outer, middle, inner);
  return splits > 1 ? static_cast<size_t>(outer * splits) * element_size : 0;
}

template <class T, class R>
cudaError_t LaunchReduceWith(const T* x, T* out, int64_t outer, int64_t middle,
                             int64_t inner, int64_t divisor, T* scratch,
                             cudaStream_t stream) {
  if (inner != 1 || middle <= kShortRow) {
    MINITF_LAUNCH(MINITF_KERNEL_NAME(ColumnReduceKernel<T, R>),
                  BlocksFor(outer * inner), kBlock, 0, stream, x, out, outer,
                  middle, inner, divisor);
    return LaunchError();
  }
  const int64_t splits = RowSplits(outer, middle, inner);
  auto rows_grid = [](int64_t tasks) {
    return static_cast<unsigned>(tasks < kMaxBlocks ? tasks : kMaxBlocks);
  };
  if (splits == 1) {
    MINITF_LAUNCH(MINITF_KERNEL_NAME(RowReduceKernel<T, R>), rows_grid(outer),
                  kBlock, 0, stream, x, out, outer, middle, int64_t{1},
                  divisor);
    return LaunchError();
  }
  // Pass 1: each row's chunks into scratch:[outer, splits]; pass 2: those.
  MINITF_LAUNCH(MINITF_KERNEL_NAME(RowReduceKernel<T, R>),
                rows_grid(outer * splits), kBlock, 0, stream, x, scratch, outer,
                middle, splits, int64_t{1});
  if (const cudaError_t e = LaunchError(); e != cudaSuccess) return e;
  MINITF_LAUNCH(MINITF_KERNEL_NAME(RowReduceKernel<T, R>), rows_grid(outer),
                kBlock, 0, stream, scratch, out, outer, splits, int64_t{1},
                divisor);
  return LaunchError();
}

/// x:[outer, middle, inner] -> out:[outer, inner] by `op`, divided by
/// `divisor`. `scratch` holds ReduceScratch(sizeof(T), ...) bytes.
/// REQUIRES: middle >= 1 and outer * inner >= 1.
template <class T>
cudaError_t LaunchReduce(ReduceOp op, const T* x, T* out, int64_t outer,
                         int64_t middle, int64_t inner, int64_t divisor,
                         T* scratch, cudaStream_t stream) {
  switch (op) {
    case ReduceOp::kSum:
    case ReduceOp::kMean:
      return LaunchReduceWith<T, SumR>(x, out, outer, middle, inner, divisor,
                                       scratch, stream);
    case ReduceOp::kProd:
      return LaunchReduceWith<T, ProdR>(x, out, outer, middle, inner, divisor,
                                        scratch, stream);
    case ReduceOp::kMax:
      return LaunchReduceWith<T, MaxR>(x, out, outer, middle, inner, divisor,
                                       scratch, stream);
    case ReduceOp::kMin:
      return LaunchReduceWith<T, MinR>(x, out, outer, middle, inner, divisor,
                                       scratch, stream);
  }
  return cudaErrorInvalidValue;
}

/// The identity of `op` for T: what an empty reduction fills its output
/// with (kMean's empty float result is NaN, chosen by the caller).
template <class T>
T ReduceIdentity(ReduceOp op) {
  switch (op) {
    case ReduceOp::kProd:
      return T(1);
    case ReduceOp::kMax:
      if constexpr (std::numeric_limits<T>::has_infinity) {
        return -std::numeric_limits<T>::infinity();
      } else {
        return std::numeric_limits<T>::lowest();
      }
    case ReduceOp::kMin:
      if constexpr (std::numeric_limits<T>::has_infinity) {
        return std::numeric_limits<T>::infinity();
      } else {
        return std::numeric_limits<T>::max();
      }
    default:
      return T(0);
  }
}

// --8<-- [start:arg_kernel]
/// x:[outer, n, inner] -> out:[outer, inner], the index of the best value
/// down each column: only a strictly better value replaces the best so far,
/// so ties keep the first; a NaN replaces any number and nothing replaces a
/// NaN, so the first NaN wins (chapter 1's ArgReduce).
template <class T, class Index, bool kMax>
__global__ void ArgReduceKernel(const T* x, Index* out, int64_t outer,
                                int64_t n, int64_t inner) {
  for (int64_t i : GridStride(outer * inner)) {
    const T* in = x + (i / inner) * n * inner + i % inner;
    T best = in[0];
    int64_t best_index = 0;
    for (int64_t k = 1; k < n; ++k) {
      const T candidate = in[k * inner];
      if (IsNan(best)) break;
      const bool better =
          IsNan(candidate) || (kMax ? candidate > best : candidate < best);
      if (better) {
        best = candidate;
        best_index = k;
      }
    }
    out[i] = static_cast<Index>(best_index);
  }
}
// --8<-- [end:arg_kernel]

/// REQUIRES: n >= 1 and outer * inner >= 1.
template <class T, class Index>
cudaError_t LaunchArgReduce(bool max, const T* x, Index* out, int64_t outer,
                            int64_t n, int64_t inner, cudaStream_t stream) {
  if (max) {
    MINITF_LAUNCH(MINITF_KERNEL_NAME(ArgReduceKernel<T, Index, true>),
                  BlocksFor(outer * inner), kBlock, 0, stream, x, out, outer, n,
                  inner);
  } else {
    MINITF_LAUNCH(MINITF_KERNEL_NAME(ArgReduceKernel<T, Index, false>),
                  BlocksFor(outer * inner), kBlock, 0, stream, x, out, outer, n,
                  inner);
  }
  return LaunchError();
}

}  // namespace minitf::gpu::MINITF_GPU_BACKEND
