// Version 6 of chapter 1's CPU GEMM: version 5 on every core.
//
// The product is cut into one slab of c per thread, whole rows or whole
// columns, and each thread runs version 5 on its slab with its own packing
// buffers. A slab of rows needs all of b, so each thread packs b again; a
// slab of columns needs all of a. The slabs run across the operand that is
// cheaper to pack twice, and a product is split only where each thread gets
// at least kMinWorkPerThread multiply-adds, below which waking a thread
// costs more than it saves. The threads are the calling thread and those of
// its intra-op pool (intra_op.h).
//
//   bool ok = v6::Gemm(GemmArgs<float>::RowMajor(m, n, k, a, b, c), 2);
#pragma once

#include <algorithm>
#include <vector>

#include "minitf/tensor/kernels/gemm/v5_micro_kernel.h"
#include "minitf/tensor/kernels/intra_op.h"

namespace minitf::kernels::gemm {

// --8<-- [start:min_work]
/// The fewest multiply-adds worth a thread of their own (ThreadsFor,
/// intra_op.h): about 10 µs of one core at an FMA peak of 100 GFLOP/s.
/// Waking a sleeping thread of the pool and waiting for it take some
/// microseconds; below this a product's split costs a large share of what it
/// saves. (Eigen's own rule, 50,000, splits the 10-wide products of a
/// batch-100 step, which then run slower on two threads than on one.)
constexpr double kMinWorkPerThread = 1 << 19;
// --8<-- [end:min_work]

namespace v6 {

// --8<-- [start:kernel]
/// c = a b on up to `threads` threads. False when out of memory.
template <typename T>
bool Gemm(const GemmArgs<T>& g, int threads) {
  // Slabs of rows pack all of b (k x n) in every thread, of columns all of
  // a (k x m).
  const bool split_rows = g.n < g.m;
  const int64_t step = split_rows ? Tile<T>::kMr : Tile<T>::kNr;
  const int64_t extent = split_rows ? g.m : g.n;
  const int64_t units = (extent + step - 1) / step;
  threads = ThreadsFor(static_cast<double>(g.m) * g.n * g.k, kMinWorkPerThread,
                       units, threads);
  if (threads <= 1) return v5::Gemm(g);
  std::vector<char> ok(threads, 0);
  ParallelFor(threads, [&](int t) {
    // Whole tiles, spread as evenly as they go.
    const int64_t begin = std::min(extent, units * t / threads * step);
    const int64_t end = std::min(extent, units * (t + 1) / threads * step);
    ok[t] = v5::Gemm(split_rows ? g.Block(begin, end - begin, 0, g.n)
                                : g.Block(0, g.m, begin, end - begin));
  });
  return std::all_of(ok.begin(), ok.end(), [](char b) { return b != 0; });
}
// --8<-- [end:kernel]

}  // namespace v6
}  // namespace minitf::kernels::gemm
