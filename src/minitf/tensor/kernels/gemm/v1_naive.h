// Version 1 of chapter 1's CPU GEMM: the definition, as three loops.
//
// c[i][j] is the dot product of row i of a with column j of b. The inner
// loop walks a column of b, k values each a row apart in memory, so every
// multiply-add waits on a load from a new cache line once b outgrows the
// cache. This is the reference the tests hold the other versions to, and the
// baseline of the table in chapter 1.
//
//   v1::Gemm(GemmArgs<float>::RowMajor(m, n, k, a, b, c));
#pragma once

#include "minitf/tensor/kernels/gemm/gemm_args.h"

namespace minitf::kernels::gemm::v1 {

// --8<-- [start:kernel]
/// c = a b, one dot product per element of c.
template <typename T>
void Gemm(const GemmArgs<T>& g) {
  for (int64_t i = 0; i < g.m; ++i) {
    for (int64_t j = 0; j < g.n; ++j) {
      T sum = 0;
      for (int64_t p = 0; p < g.k; ++p) sum += g.A(i, p) * g.B(p, j);
      g.C(i, j) = sum;
    }
  }
}
// --8<-- [end:kernel]

}  // namespace minitf::kernels::gemm::v1
