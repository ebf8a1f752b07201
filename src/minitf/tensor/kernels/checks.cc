#include "minitf/tensor/kernels/checks.h"

namespace minitf::kernels {

Status CheckInitialized(std::string_view op, const Tensor& t, int index) {
  if (t.IsInitialized()) return Status::OK();
  return errors::InvalidArgument("cannot compute ", op, " as input #", index,
                                 "(zero-based) is an uninitialized tensor");
}

Status CheckSameDType(std::string_view op, const Tensor& x, const Tensor& y,
                      int y_index) {
  if (x.dtype() == y.dtype()) return Status::OK();
  return errors::InvalidArgument("cannot compute ", op, " as input #", y_index,
                                 "(zero-based) was ", "expected to be a ",
                                 x.dtype(), " tensor but is a ", y.dtype(),
                                 " tensor");
}

Status NoKernel(std::string_view op, DType dtype, std::string_view takes) {
  return errors::InvalidArgument("No ", op, " kernel for dtype ", dtype, " (",
                                 op, " takes ", takes, ")");
}

bool IsNumeric(DType dtype) {
  return DataTypeIsFloating(dtype) || DataTypeIsInteger(dtype);
}

Status CheckNumeric(std::string_view op, DType dtype) {
  if (IsNumeric(dtype)) return Status::OK();
  return errors::InvalidArgument(op, " has no kernel for dtype ", dtype);
}

Status CheckCast(const Tensor& x, DType to) {
  if (!x.IsInitialized()) {
    return errors::InvalidArgument(
        "Cast got an uninitialized tensor as its input");
  }
  if (!DataTypeIsValid(to)) {
    return errors::InvalidArgument("Cast to invalid dtype ",
                                   static_cast<int>(to));
  }
  return Status::OK();
}

StatusOr<TensorShape> CheckFill(const std::vector<int64_t>& dims,
                                const Tensor& value) {
  if (!value.IsInitialized()) {
    return errors::InvalidArgument(
        "Fill got an uninitialized tensor as its value");
  }
  if (value.dims() != 0) {
    return errors::InvalidArgument("value must be a scalar, got shape ",
                                   value.shape());
  }
  // Tensor::Allocate checks the sizes too, but a user's negative size
  // deserves TensorFlow's message.
  return TensorShape::FromDims(dims, /*allow_unknown=*/false);
}

StatusOr<ArgReducePlan> PlanArgReduce(const Tensor& x, int axis) {
  const int rank = x.dims();
  if (axis < -rank || axis >= rank) {
    return errors::InvalidArgument("Expected dimension in the range [", -rank,
                                   ", ", rank, "), but got ", axis);
  }
  if (axis < 0) axis += rank;
  if (x.dim_size(axis) == 0) {
    return errors::InvalidArgument("Reduction axis ", axis,
                                   " is empty in shape ", x.shape());
  }
  ArgReducePlan plan;
  plan.n = x.dim_size(axis);
  for (int i = 0; i < rank; ++i) {
    if (i < axis) plan.outer *= x.dim_size(i);
    if (i > axis) plan.inner *= x.dim_size(i);
    if (i != axis) plan.out_shape.AddDim(x.dim_size(i));
  }
  return plan;
}

Status CheckSliceArgs(int rank, const std::vector<int64_t>& begin,
                      const std::vector<int64_t>& size) {
  if (static_cast<int>(begin.size()) != rank ||
      static_cast<int>(size.size()) != rank) {
    return errors::InvalidArgument(
        "Expected begin and size arguments to be 1-D tensors of size ", rank,
        ", but got shapes [", begin.size(), "] and [", size.size(),
        "] instead.");
  }
  return Status::OK();
}

Status CheckBiasAdd(const Tensor& value, const Tensor& bias) {
  if (value.dims() < 2) {
    return errors::InvalidArgument("Input tensor must be at least 2D: ",
                                   value.shape());
  }
  if (bias.dims() != 1) {
    return errors::InvalidArgument("Biases must be 1D: ", bias.shape());
  }
  if (bias.dim_size(0) != value.dim_size(value.dims() - 1)) {
    return errors::InvalidArgument(
        "Must provide as many biases as the last dimension of the input "
        "tensor: ",
        bias.shape(), " vs. ", value.shape());
  }
  return Status::OK();
}

Status CheckMatMulOperands(const Tensor& a, const Tensor& b) {
  if (a.dims() != 2) {
    return errors::InvalidArgument(
        "In[0] is not a matrix. Instead it has shape ", a.shape());
  }
  if (b.dims() != 2) {
    return errors::InvalidArgument(
        "In[1] is not a matrix. Instead it has shape ", b.shape());
  }
  return CheckSameDType("MatMul", a, b);
}

StatusOr<MatMulSizes> MatMulSizesOf(const Tensor& a, const Tensor& b,
                                    bool transpose_a, bool transpose_b) {
  MatMulSizes s;
  s.m = a.dim_size(transpose_a ? 1 : 0);
  s.k = a.dim_size(transpose_a ? 0 : 1);
  s.n = b.dim_size(transpose_b ? 0 : 1);
  if (b.dim_size(transpose_b ? 1 : 0) != s.k) {
    return errors::InvalidArgument(
        "Matrix size-incompatible: In[0]: ", a.shape(), ", In[1]: ", b.shape());
  }
  return s;
}

}  // namespace minitf::kernels
