// Fill, Zeros, Ones, ZerosLike, OnesLike and OneHot: tensors built from a
// shape and a few values rather than from another tensor's data.
#include <algorithm>

#include "minitf/tensor/kernels/array_ops.h"
#include "minitf/tensor/kernels/checks.h"

namespace minitf::kernels {
namespace {

StatusOr<Tensor> FillWith(DType dtype, const TensorShape& shape, double value) {
  TF_ASSIGN_OR_RETURN(Tensor out, Tensor::Allocate(dtype, shape));
  SwitchDType(dtype, [&]<typename T>() {
    std::fill_n(out.data<T>(), out.NumElements(), static_cast<T>(value));
  });
  return out;
}

// Tensor::Allocate checks the sizes too, but a user's negative size deserves
// TensorFlow's message (as CheckFill gives it).
StatusOr<TensorShape> ShapeFromUser(const std::vector<int64_t>& dims) {
  return TensorShape::FromDims(dims, /*allow_unknown=*/false);
}

}  // namespace

StatusOr<Tensor> Fill(const std::vector<int64_t>& shape, const Tensor& value) {
  TF_ASSIGN_OR_RETURN(TensorShape out_shape, CheckFill(shape, value));
  TF_ASSIGN_OR_RETURN(Tensor out, Tensor::Allocate(value.dtype(), out_shape));
  SwitchDType(value.dtype(), [&]<typename T>() {
    std::fill_n(out.data<T>(), out.NumElements(), value.scalar<T>());
  });
  return out;
}

StatusOr<Tensor> Zeros(const std::vector<int64_t>& shape, DType dtype) {
  TF_ASSIGN_OR_RETURN(TensorShape out_shape, ShapeFromUser(shape));
  return FillWith(dtype, out_shape, 0.0);
}

StatusOr<Tensor> Ones(const std::vector<int64_t>& shape, DType dtype) {
  TF_ASSIGN_OR_RETURN(TensorShape out_shape, ShapeFromUser(shape));
  return FillWith(dtype, out_shape, 1.0);
}

StatusOr<Tensor> ZerosLike(const Tensor& x) {
  if (!x.IsInitialized()) {
    return errors::InvalidArgument(
        "ZerosLike got an uninitialized tensor as its input");
  }
  return FillWith(x.dtype(), x.shape(), 0.0);
}

StatusOr<Tensor> OnesLike(const Tensor& x) {
  if (!x.IsInitialized()) {
    return errors::InvalidArgument(
        "OnesLike got an uninitialized tensor as its input");
  }
  return FillWith(x.dtype(), x.shape(), 1.0);
}

// indices:[d0..dk] -> out: the same shape with a `depth` axis inserted at
// `axis`. Viewed as indices:[prefix, suffix] and out:[prefix, depth, suffix],
// out[p, d, s] = on_value exactly when indices[p, s] == d.
StatusOr<Tensor> OneHot(const Tensor& indices, int64_t depth, float on_value,
                        float off_value, int axis) {
  if (!DataTypeIsInteger(indices.dtype())) {
    return errors::InvalidArgument("OneHot has no kernel for indices of dtype ",
                                   indices.dtype());
  }
  if (depth < 0) {
    return errors::InvalidArgument("depth must be non-negative, got: ", depth);
  }
  const int out_rank = indices.dims() + 1;
  if (axis != -1 && (axis < 0 || axis >= out_rank)) {
    return errors::InvalidArgument("Expected axis to be -1 or between [0, ",
                                   out_rank, ").  But received: ", axis);
  }
  if (axis == -1) axis = out_rank - 1;
  std::vector<int64_t> dims = indices.shape().dim_sizes();
  int64_t prefix = 1;
  for (int i = 0; i < axis; ++i) prefix *= dims[i];
  const int64_t suffix = prefix == 0 ? 0 : indices.NumElements() / prefix;
  dims.insert(dims.begin() + axis, depth);
  TF_ASSIGN_OR_RETURN(TensorShape out_shape, ShapeFromUser(dims));
  TF_ASSIGN_OR_RETURN(Tensor out, Tensor::Allocate(DT_FLOAT, out_shape));
  float* dst = out.data<float>();
  std::fill_n(dst, out.NumElements(), off_value);
  SwitchDType(indices.dtype(), [&]<typename T>() {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      const T* src = indices.data<T>();
      for (int64_t p = 0; p < prefix; ++p) {
        for (int64_t s = 0; s < suffix; ++s) {
          const int64_t index = src[p * suffix + s];
          if (index >= 0 && index < depth)
            dst[(p * depth + index) * suffix + s] = on_value;
        }
      }
    }
  });
  return out;
}

}  // namespace minitf::kernels
