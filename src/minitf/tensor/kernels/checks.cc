#include "minitf/tensor/kernels/checks.h"

#include <string>
#include <utility>

namespace minitf::kernels {
namespace {

// Fill's value: an initialized scalar.
Status CheckFillValue(const Tensor& value) {
  if (!value.IsInitialized()) {
    return errors::InvalidArgument(
        "Fill got an uninitialized tensor as its value");
  }
  if (value.dims() != 0) {
    return errors::InvalidArgument("value must be a scalar, got shape ",
                                   value.shape());
  }
  return Status::OK();
}

}  // namespace

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
  TF_RETURN_IF_ERROR(CheckFillValue(value));
  // Tensor::Allocate checks the sizes too, but a user's negative size
  // deserves TensorFlow's message.
  return TensorShape::FromDims(dims, /*allow_unknown=*/false);
}

Status CheckFillInputs(const Tensor& dims, const Tensor& value) {
  if (dims.dims() != 1) {
    return errors::InvalidArgument("dims must be a vector, got shape ",
                                   dims.shape());
  }
  return CheckFillValue(value);
}

StatusOr<TensorShape> CheckTile(const TensorShape& x,
                                const std::vector<int64_t>& multiples) {
  if (static_cast<int>(multiples.size()) != x.dims()) {
    return errors::InvalidArgument(
        "Expected multiples argument to be a vector of length ", x.dims(),
        " but got length ", multiples.size());
  }
  std::vector<int64_t> dims(x.dims());
  for (int d = 0; d < x.dims(); ++d) {
    if (multiples[d] < 0) {
      return errors::InvalidArgument("Expected multiples[", d,
                                     "] >= 0, but got ", multiples[d]);
    }
    dims[d] = x.dim_size(d) * multiples[d];
  }
  return TensorShape(std::move(dims));
}

Status CheckBroadcastTo(const TensorShape& x,
                        const std::vector<int64_t>& shape) {
  const int skip = static_cast<int>(shape.size()) - x.dims();
  bool ok = skip >= 0;
  for (int d = 0; ok && d < x.dims(); ++d) {
    ok = x.dim_size(d) == 1 || x.dim_size(d) == shape[d + skip];
  }
  if (ok) return Status::OK();
  // The target as the user wrote it: a negative size stays as it is.
  std::string to;
  for (size_t d = 0; d < shape.size(); ++d) {
    to += (d ? "," : "") + std::to_string(shape[d]);
  }
  return errors::InvalidArgument("Unable to broadcast tensor of shape ", x,
                                 " to tensor of shape [", to, "]");
}

Status CheckMeanOfEmpty(const Tensor& x, int64_t reduced_count) {
  if (reduced_count != 0 || !DataTypeIsInteger(x.dtype())) return Status::OK();
  return errors::InvalidArgument("Mean of an empty set of ", x.dtype(),
                                 " values is undefined (reducing shape ",
                                 x.shape(), ")");
}

Status CheckSoftmaxLogits(std::string_view op, const Tensor& logits) {
  if (!DataTypeIsFloating(logits.dtype())) {
    return errors::InvalidArgument(op, " has no kernel for dtype ",
                                   logits.dtype());
  }
  if (logits.dims() == 0) {
    return errors::InvalidArgument("logits must have >= 1 dimension, got ",
                                   logits.shape());
  }
  return Status::OK();
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
