// Version 2 of chapter 1's CPU GEMM: the same three loops, reordered.
//
// With p in the middle and j innermost, the inner loop adds a(i,p) times row
// p of b to row i of c: both rows are contiguous in memory (for row-major
// operands), so the loads use every byte of each cache line, and the
// compiler turns the loop into vector multiply-adds. Nothing else changes:
// the same multiplications, in another order.
//
//   v2::Gemm(GemmArgs<float>::RowMajor(m, n, k, a, b, c));
#pragma once

#include "minitf/tensor/kernels/gemm/gemm_args.h"

namespace minitf::kernels::gemm::v2 {

// --8<-- [start:kernel]
/// c = a b, accumulated a row of b at a time.
template <typename T>
void Gemm(const GemmArgs<T>& g) {
  for (int64_t i = 0; i < g.m; ++i) {
    for (int64_t j = 0; j < g.n; ++j) g.C(i, j) = 0;
    for (int64_t p = 0; p < g.k; ++p) {
      const T a_ip = g.A(i, p);
      for (int64_t j = 0; j < g.n; ++j) g.C(i, j) += a_ip * g.B(p, j);
    }
  }
}
// --8<-- [end:kernel]

}  // namespace minitf::kernels::gemm::v2
