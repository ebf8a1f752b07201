// The CPU reference of the teaching GEMMs: the plain triple loop every GPU
// version is checked against on the emulator. Like cublasSgemm it computes
// c = alpha * a b + beta * c in single precision, but on row-major matrices
// (cuBLAS is column-major: the tests get a row-major product from it by
// asking for the transpose, c^T = b^T a^T, which is the same memory).
//
//   std::vector<float> a(m * k), b(k * n), c(m * n);
//   minitf::gpu::gemm::gemm_reference(m, n, k, 1.f, a.data(), b.data(), 0.f,
//                                     c.data());
#pragma once

namespace minitf::gpu::gemm {

/// a:[m,k] b:[k,n] c:[m,n] -> c = alpha * a b + beta * c, row-major, with
/// each dot product summed in float from p = 0 to k - 1. With beta = 0, c is
/// only written (BLAS's rule), so it may start as anything, NaN included.
/// REQUIRES: m, n, k >= 0; a, b and c hold m*k, k*n and m*n floats.
void gemm_reference(int m, int n, int k, float alpha, const float* a,
                    const float* b, float beta, float* c);

}  // namespace minitf::gpu::gemm
