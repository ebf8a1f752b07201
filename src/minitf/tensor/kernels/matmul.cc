#include "minitf/tensor/kernels/matmul.h"

#include <omp.h>

#include <Eigen/Core>
#include <algorithm>
#include <type_traits>

#include "minitf/tensor/kernels/checks.h"
#include "minitf/tensor/kernels/gemm/v7_narrow.h"
#include "minitf/tensor/kernels/intra_op.h"

namespace minitf::kernels {
namespace {

// --8<-- [start:matmul_kernel]
// out:[m,n] = op(a) * op(b), where op transposes when asked. Eigen's
// .transpose() of a row-major map is a free view, so no copy is made. This
// is the whole kernel for small, degenerate and integer products; float and
// double products of any size go through GemmMatMul below, chapter 1's own
// GEMM, which Eigen's product is the reference for in the tests.
template <typename T>
void MatMulKernel(const Tensor& a, const Tensor& b, bool transpose_a,
                  bool transpose_b, Tensor* out) {
  auto x = a.matrix<T>();
  auto y = b.matrix<T>();
  auto z = out->matrix<T>();
  if (!transpose_a && !transpose_b) {
    z.noalias() = x * y;
  } else if (transpose_a && !transpose_b) {
    z.noalias() = x.transpose() * y;
  } else if (!transpose_a && transpose_b) {
    z.noalias() = x * y.transpose();
  } else {
    z.noalias() = x.transpose() * y.transpose();
  }
}
// --8<-- [end:matmul_kernel]

// --8<-- [start:gemm_orientation]
// out:[m,n] = op(a) op(b) through version 7 of chapter 1's GEMM
// (gemm/v7_narrow.h), whose strided operands cover every transpose
// combination without a copy: a row-major [r,c] buffer has strides (c, 1),
// its transpose (1, c). Version 7 picks the method for the shape: dot
// products for a c of a few columns, the packed GEMM of version 6 for the
// rest, turned around where c is narrower than its tile. Inside an OpenMP
// parallel region the product stays on the calling thread.
template <typename T>
Status GemmMatMul(const Tensor& a, const Tensor& b, bool transpose_a,
                  bool transpose_b, Tensor* out) {
  const int64_t m = out->dim_size(0);
  const int64_t n = out->dim_size(1);
  const int64_t k = a.dim_size(transpose_a ? 0 : 1);
  const int64_t a_cols = a.dim_size(1);
  const int64_t b_cols = b.dim_size(1);
  gemm::GemmArgs<T> g{m, n, k};
  g.a = a.data<T>();
  g.a_rs = transpose_a ? 1 : a_cols;
  g.a_cs = transpose_a ? a_cols : 1;
  g.b = b.data<T>();
  g.b_rs = transpose_b ? 1 : b_cols;
  g.b_cs = transpose_b ? b_cols : 1;
  g.c = out->data<T>();
  g.c_rs = n;
  g.c_cs = 1;
  const int threads = omp_in_parallel() ? 1 : IntraOpThreads();
  if (!gemm::v7::Gemm(g, threads)) {
    return errors::ResourceExhausted(
        "OOM when allocating the packing buffers of MatMul for ", a.shape(),
        " x ", b.shape());
  }
  return Status::OK();
}
// --8<-- [end:gemm_orientation]

}  // namespace

StatusOr<Tensor> MatMul(const Tensor& a, const Tensor& b, bool transpose_a,
                        bool transpose_b) {
  TF_RETURN_IF_ERROR(CheckMatMulOperands(a, b));
  if (a.dtype() == DT_BOOL) {
    return errors::InvalidArgument("MatMul has no kernel for dtype bool");
  }
  TF_ASSIGN_OR_RETURN(MatMulSizes sizes,
                      MatMulSizesOf(a, b, transpose_a, transpose_b));
  const int64_t m = sizes.m, n = sizes.n, k = sizes.k;
  TF_ASSIGN_OR_RETURN(Tensor out,
                      Tensor::Allocate(a.dtype(), TensorShape({m, n})));
  // Eigen's own choices stand where its expression would not reach its GEMM
  // either: an empty product, a matrix-vector product (m or n is 1), and a
  // tiny one (sizes summing under 20, Eigen's threshold), which it computes
  // element by element.
  const bool use_gemm = m > 1 && n > 1 && k > 0 && m + n + k >= 20;
  Status status;
  SwitchDType(a.dtype(), [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      if (use_gemm) {
        status = GemmMatMul<T>(a, b, transpose_a, transpose_b, &out);
        return;
      }
    }
    if constexpr (!std::is_same_v<T, bool>) {
      MatMulKernel<T>(a, b, transpose_a, transpose_b, &out);
    }
  });
  TF_RETURN_IF_ERROR(status);
  return out;
}

namespace {

// --8<-- [start:fused_tail]
// out:[m,n] = max(out + bias, 0) (or out + bias) on rows [begin, end): one
// read and one write of each value, where BiasAdd and Relu make two of each
// and a tensor apiece.
template <typename T>
void BiasAddRelu(const Tensor& bias, bool relu, int64_t begin, int64_t end,
                 Tensor* out) {
  const int64_t n = out->dim_size(1);
  using Rows = Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Eigen::Map<const Eigen::Array<T, 1, Eigen::Dynamic>> b(bias.data<T>(), n);
  Eigen::Map<Rows> z(out->data<T>() + begin * n, end - begin, n);
  if (relu) {
    z = (z.rowwise() + b).cwiseMax(T(0));
  } else {
    z.rowwise() += b;
  }
}
// --8<-- [end:fused_tail]

}  // namespace

StatusOr<Tensor> FusedMatMul(const Tensor& a, const Tensor& b,
                             const Tensor& bias, bool transpose_a,
                             bool transpose_b, bool relu) {
  if (a.dtype() != DT_FLOAT && a.dtype() != DT_DOUBLE) {
    return errors::InvalidArgument("_FusedMatMul has no kernel for dtype ",
                                   DataTypeString(a.dtype()));
  }
  TF_ASSIGN_OR_RETURN(Tensor out, MatMul(a, b, transpose_a, transpose_b));
  TF_RETURN_IF_ERROR(CheckSameDType("_FusedMatMul", a, bias, /*y_index=*/2));
  TF_RETURN_IF_ERROR(CheckBiasAdd(out, bias));
  // The rows split between the threads, each given 65,536 values or more
  // (a split of fewer costs about what it saves).
  const int64_t m = out.dim_size(0);
  const int threads =
      ThreadsFor(static_cast<double>(out.NumElements()), 1 << 16, m,
                 omp_in_parallel() ? 1 : IntraOpThreads());
  SwitchDType(a.dtype(), [&]<typename T>() {
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      if (threads <= 1) return BiasAddRelu<T>(bias, relu, 0, m, &out);
      ParallelFor(threads, [&](int t) {
        BiasAddRelu<T>(bias, relu, m * t / threads, m * (t + 1) / threads,
                       &out);
      });
    }
  });
  return out;
}

}  // namespace minitf::kernels
