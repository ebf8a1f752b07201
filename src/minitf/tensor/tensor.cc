#include "minitf/tensor/tensor.h"

#include <cstring>

namespace minitf {

Tensor::Tensor(DType dtype, const TensorShape& shape)
    : Tensor(cpu_allocator(), dtype, shape) {}

Tensor::Tensor(Allocator* allocator, DType dtype, const TensorShape& shape)
    : dtype_(dtype), shape_(shape), num_elements_(shape.num_elements()) {
  MINITF_CHECK(DataTypeIsValid(dtype) && shape.IsFullyDefined());
  buffer_ =
      std::make_shared<Buffer>(allocator, num_elements_ * DataTypeSize(dtype));
  MINITF_CHECK(buffer_->data() != nullptr);
}

StatusOr<Tensor> Tensor::Allocate(DType dtype, const TensorShape& shape,
                                  Allocator* allocator) {
  if (!DataTypeIsValid(dtype)) {
    return errors::InvalidArgument("Cannot allocate a tensor of invalid dtype ",
                                   int{dtype});
  }
  // Negative sizes and overflowing products first, so that [-5] is reported
  // as a bad dimension rather than as a partially known shape.
  TF_ASSIGN_OR_RETURN(TensorShape checked,
                      TensorShape::FromDims(shape.dim_sizes(), true));
  if (!shape.IsFullyDefined()) {
    return errors::InvalidArgument(
        "Cannot allocate a tensor of partially known shape ", shape);
  }
  const int64_t num_elements = checked.num_elements();
  // Checked before multiplying: a signed overflow would be undefined.
  if (num_elements > INT64_MAX / DataTypeSize(dtype)) {
    return errors::ResourceExhausted("Tensor of shape ", shape, " and type ",
                                     dtype, " does not fit in memory");
  }
  Tensor t;
  t.dtype_ = dtype;
  t.shape_ = std::move(checked);
  t.num_elements_ = num_elements;
  t.buffer_ = std::make_shared<Buffer>(
      allocator, static_cast<size_t>(num_elements * DataTypeSize(dtype)));
  if (t.buffer_->data() == nullptr) {
    return errors::ResourceExhausted("OOM when allocating tensor with shape",
                                     shape, " and type ", dtype, " on ",
                                     allocator->Name());
  }
  return t;
}

Tensor Tensor::DeepCopy() const {
  if (!IsInitialized()) return Tensor();
  Tensor copy(buffer_->allocator(), dtype_, shape_);
  std::memcpy(copy.buffer_->data(), buffer_->data(), buffer_->size());
  return copy;
}

StatusOr<Tensor> Tensor::Reshaped(const TensorShape& shape) const {
  if (!IsInitialized()) {
    return errors::FailedPrecondition(
        "Cannot reshape an uninitialized tensor to ", shape);
  }
  // Validated first: the element count of an unchecked shape may overflow.
  TF_ASSIGN_OR_RETURN(TensorShape checked,
                      TensorShape::FromDims(shape.dim_sizes(), true));
  if (!shape.IsFullyDefined() || checked.num_elements() != NumElements()) {
    return errors::InvalidArgument(
        "Cannot reshape a tensor with ", NumElements(), " elements to shape ",
        shape, " (", shape.IsFullyDefined() ? checked.num_elements() : -1,
        " elements)");
  }
  Tensor t = *this;
  t.shape_ = std::move(checked);
  return t;
}

void Tensor::CheckAccess(DType requested) const {
  MINITF_CHECK(IsInitialized());
  MINITF_CHECK(requested == dtype_);
  MINITF_CHECK(buffer_->allocator()->HostAccessible());
}

std::string Tensor::DebugString() const {
  if (!IsInitialized()) return "Tensor<uninitialized>";
  return StrCat("Tensor<type: ", dtype_, " shape: ", shape_,
                " values: ", ToString(), ">");
}

}  // namespace minitf
