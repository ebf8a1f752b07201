// MatMul: the product of two matrices.
//
// a:[m,k] b:[k,n] -> [m,n], with optional transposes of either input. Float
// and double products run chapter 1's own CPU GEMM (kernels/gemm/, version 7:
// packed blocks, a micro-kernel of fused multiply-adds, threads, and dot
// products for a narrow result), which reads a transposed input through its
// strides, so the Tensor layer adds no copy. Small, matrix-vector and
// integer products are Eigen's `out.noalias() = a * b` on the buffers viewed
// as row-major matrices.
// SetNumThreads (intra_op.h) picks how many threads GEMM uses, unless the
// calling thread named an intra-op pool, as chapter 4's CPU devices do.
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

/// MatMul, BiasAdd and, when `relu`, Relu in one kernel: TensorFlow's
/// _FusedMatMul with fused_ops ["BiasAdd"] or ["BiasAdd", "Relu"].
/// a:[m,k] b:[k,n] bias:[n] -> [m,n] = max(op(a) op(b) + bias, 0). The GEMM
/// writes the product; the bias and the activation are then applied to it
/// in one pass, its rows split between the threads, while the cache still
/// holds it: one read and write of the product where BiasAdd and Relu make
/// two, and no tensor of their own. float and double. Errors: MatMul's, then
/// BiasAdd's (CheckBiasAdd) for a bias that does not fit the product.
StatusOr<Tensor> FusedMatMul(const Tensor& a, const Tensor& b,
                             const Tensor& bias, bool transpose_a,
                             bool transpose_b, bool relu);

}  // namespace minitf::kernels
