// Version 6 of chapter 1's CPU GEMM: version 5 on every core.
//
// The product is cut into one slab of c per thread, whole rows or whole
// columns, and each thread runs version 5 on its slab with its own packing
// buffers. A slab of rows needs all of b, so each thread packs b again; a
// slab of columns needs all of a. The slabs run across the operand that is
// cheaper to pack twice, and a product is split only where each thread gets
// at least 50,000 multiply-adds (Eigen's rule), below which starting a
// thread costs more than it saves. The threads are the calling thread and
// those of its intra-op pool (intra_op.h).
//
//   bool ok = v6::Gemm(GemmArgs<float>::RowMajor(m, n, k, a, b, c), 2);
#pragma once

#include <algorithm>
#include <vector>

#include "minitf/tensor/kernels/gemm/v5_micro_kernel.h"
#include "minitf/tensor/kernels/intra_op.h"

namespace minitf::kernels::gemm::v6 {

// --8<-- [start:kernel]
/// c = a b on up to `threads` threads. False when out of memory.
template <typename T>
bool Gemm(const GemmArgs<T>& g, int threads) {
  const double work = static_cast<double>(g.m) * g.n * g.k;
  threads = static_cast<int>(
      std::clamp<double>(work / 50000, 1, std::max(threads, 1)));
  // Slabs of rows pack all of b (k x n) in every thread, of columns all of
  // a (k x m).
  const bool split_rows = g.n < g.m;
  const int64_t step = split_rows ? Tile<T>::kMr : Tile<T>::kNr;
  const int64_t extent = split_rows ? g.m : g.n;
  const int64_t units = (extent + step - 1) / step;
  threads = static_cast<int>(std::min<int64_t>(threads, units));
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

}  // namespace minitf::kernels::gemm::v6
