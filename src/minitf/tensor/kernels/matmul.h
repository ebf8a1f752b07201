// MatMul: the product of two matrices, through Eigen's GEMM.
//
// a:[m,k] b:[k,n] -> [m,n], with optional transposes of either input. The
// kernel views the three buffers as row-major Eigen matrices and evaluates
// `out.noalias() = a * b`, so it is exactly as fast as Eigen itself: the
// Tensor layer adds no copy and no overhead (the benchmark of chapter 1
// measures that). SetNumThreads picks how many threads GEMM uses.
//
//   StatusOr<Tensor> c = kernels::MatMul(a, b);                 // [2,3]x[3,2]
//   StatusOr<Tensor> g = kernels::MatMul(x, dy, /*transpose_a=*/true, false);
#pragma once

#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor.h"

namespace minitf::kernels {

/// REQUIRES nothing: rank, dtype and inner-dimension mismatches are
/// InvalidArgument ("Matrix size-incompatible: In[0]: [2,3], In[1]: [2,3]").
/// Supports float, double, int32 and int64.
StatusOr<Tensor> MatMul(const Tensor& a, const Tensor& b,
                        bool transpose_a = false, bool transpose_b = false);

/// Threads used by matmul (Eigen's OpenMP GEMM); by default, one per core.
void SetNumThreads(int n);
int GetNumThreads();

}  // namespace minitf::kernels
