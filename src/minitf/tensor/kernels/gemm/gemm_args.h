// The operands of one matrix product, c = a b, as strided views.
//
// Every CPU GEMM of this folder (v1_naive.h to v7_narrow.h, the versions
// chapter 1 climbs from a triple loop to the machine's peak) takes its
// operands as a GemmArgs: three pointers, the sizes m, n, k, and for each
// matrix the distance between two rows and between two columns. A row-major
// [r,c] buffer has strides (c, 1); its transpose is the same buffer with the
// strides swapped, (1, c). So one GEMM serves all four transpose
// combinations of MatMul without a copy, and the versions that pack their
// operands (v4 on) read a transposed one as cheaply as a plain one.
//
//   GemmArgs<float> g = GemmArgs<float>::RowMajor(m, n, k, a, b, c);
//   v5::Gemm(g);  // c:[m,n] = a:[m,k] b:[k,n]
#pragma once

#include <cstdint>

namespace minitf::kernels::gemm {

// --8<-- [start:args]
/// c:[m,n] = a:[m,k] b:[k,n] (the versions overwrite c). Element (i, j) of
/// a is a[i * a_rs + j * a_cs], and likewise for b and c.
/// Invariants: m, n, k >= 0; c does not overlap a or b.
template <typename T>
struct GemmArgs {
  int64_t m = 0, n = 0, k = 0;
  const T* a = nullptr;
  int64_t a_rs = 0, a_cs = 0;
  const T* b = nullptr;
  int64_t b_rs = 0, b_cs = 0;
  T* c = nullptr;
  int64_t c_rs = 0, c_cs = 0;

  /// Three dense row-major matrices.
  static GemmArgs RowMajor(int64_t m, int64_t n, int64_t k, const T* a,
                           const T* b, T* c) {
    return {m, n, k, a, k, 1, b, n, 1, c, n, 1};
  }

  const T& A(int64_t i, int64_t p) const { return a[i * a_rs + p * a_cs]; }
  const T& B(int64_t p, int64_t j) const { return b[p * b_rs + j * b_cs]; }
  T& C(int64_t i, int64_t j) const { return c[i * c_rs + j * c_cs]; }
  // --8<-- [end:args]

  /// The product of rows [i0, i0 + rows) of a with columns [j0, j0 + cols)
  /// of b: that block of c, as a product of its own.
  GemmArgs Block(int64_t i0, int64_t rows, int64_t j0, int64_t cols) const {
    GemmArgs g = *this;
    g.m = rows;
    g.n = cols;
    g.a = a + i0 * a_rs;
    g.b = b + j0 * b_cs;
    g.c = c + i0 * c_rs + j0 * c_cs;
    return g;
  }

  /// c^T = b^T a^T: the same product with the roles of rows and columns
  /// swapped, which the strides express without moving a value.
  GemmArgs Transposed() const {
    return {n, m, k, b, b_cs, b_rs, a, a_cs, a_rs, c, c_cs, c_rs};
  }
};

}  // namespace minitf::kernels::gemm
