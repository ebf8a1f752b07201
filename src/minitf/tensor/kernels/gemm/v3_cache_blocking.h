// Version 3 of chapter 1's CPU GEMM: version 2 on blocks that fit the caches.
//
// Version 2 streams all of b (k x n values) through the cache for every row
// of c. Once b is larger than the cache, each pass reads it from memory
// again. Here the product is cut into blocks: kKc rows of b by kNc of its
// columns, and kMc rows of a, so that the block of b stays in the cache
// while the kMc rows of c that use it are computed.
//
//   v3::Gemm(GemmArgs<float>::RowMajor(m, n, k, a, b, c));
#pragma once

#include <algorithm>

#include "minitf/tensor/kernels/gemm/gemm_args.h"

namespace minitf::kernels::gemm::v3 {

// --8<-- [start:kernel]
/// c = a b, a block at a time. The blocks: kMc rows of a and c, kKc of the
/// depth, kNc columns of b and c (a kKc x kNc block of floats is 256 KiB).
template <typename T>
void Gemm(const GemmArgs<T>& g) {
  constexpr int64_t kMc = 64, kKc = 256, kNc = 256;
  for (int64_t i = 0; i < g.m; ++i) {
    for (int64_t j = 0; j < g.n; ++j) g.C(i, j) = 0;
  }
  for (int64_t jc = 0; jc < g.n; jc += kNc) {
    const int64_t j_end = std::min(g.n, jc + kNc);
    for (int64_t pc = 0; pc < g.k; pc += kKc) {
      const int64_t p_end = std::min(g.k, pc + kKc);
      for (int64_t ic = 0; ic < g.m; ic += kMc) {
        const int64_t i_end = std::min(g.m, ic + kMc);
        // Version 2's loops, on one block.
        for (int64_t i = ic; i < i_end; ++i) {
          for (int64_t p = pc; p < p_end; ++p) {
            const T a_ip = g.A(i, p);
            for (int64_t j = jc; j < j_end; ++j) g.C(i, j) += a_ip * g.B(p, j);
          }
        }
      }
    }
  }
}
// --8<-- [end:kernel]

}  // namespace minitf::kernels::gemm::v3
