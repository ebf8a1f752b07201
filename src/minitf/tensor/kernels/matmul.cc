#include "minitf/tensor/kernels/matmul.h"

#include <omp.h>

#include <Eigen/Core>

namespace minitf::kernels {
namespace {

// --8<-- [start:matmul_kernel]
// out:[m,n] = op(a) * op(b), where op transposes when asked. Eigen's
// .transpose() of a row-major map is a free view, so no copy is made.
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

}  // namespace

StatusOr<Tensor> MatMul(const Tensor& a, const Tensor& b, bool transpose_a,
                        bool transpose_b) {
  if (a.dims() != 2) {
    return errors::InvalidArgument(
        "In[0] is not a matrix. Instead it has shape ", a.shape());
  }
  if (b.dims() != 2) {
    return errors::InvalidArgument(
        "In[1] is not a matrix. Instead it has shape ", b.shape());
  }
  if (a.dtype() != b.dtype()) {
    return errors::InvalidArgument(
        "cannot compute MatMul as input #1(zero-based) was expected ",
        "to be a ", a.dtype(), " tensor but is a ", b.dtype(), " tensor");
  }
  if (a.dtype() == DT_BOOL) {
    return errors::InvalidArgument("MatMul has no kernel for dtype bool");
  }
  const int64_t m = a.dim_size(transpose_a ? 1 : 0);
  const int64_t k = a.dim_size(transpose_a ? 0 : 1);
  const int64_t k2 = b.dim_size(transpose_b ? 1 : 0);
  const int64_t n = b.dim_size(transpose_b ? 0 : 1);
  if (k != k2) {
    return errors::InvalidArgument(
        "Matrix size-incompatible: In[0]: ", a.shape(), ", In[1]: ", b.shape());
  }
  TF_ASSIGN_OR_RETURN(Tensor out,
                      Tensor::Allocate(a.dtype(), TensorShape({m, n})));
  SwitchDType(a.dtype(), [&]<typename T>() {
    if constexpr (!std::is_same_v<T, bool>) {
      MatMulKernel<T>(a, b, transpose_a, transpose_b, &out);
    }
  });
  return out;
}

void SetNumThreads(int n) {
  // Eigen's GEMM parallelises with OpenMP; both settings must agree.
  omp_set_num_threads(n < 1 ? 1 : n);
  Eigen::setNbThreads(n < 1 ? 1 : n);
}

int GetNumThreads() { return Eigen::nbThreads(); }

}  // namespace minitf::kernels
