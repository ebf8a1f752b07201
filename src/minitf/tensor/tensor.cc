#include "minitf/tensor/tensor.h"

#include <cstring>

namespace minitf {

Tensor::Tensor(DType dtype, const TensorShape& shape) : Tensor(cpu_allocator(), dtype, shape) {}

Tensor::Tensor(Allocator* allocator, DType dtype, const TensorShape& shape)
    : dtype_(dtype), shape_(shape), num_elements_(shape.num_elements()) {
  MINITF_CHECK(DataTypeIsValid(dtype) && shape.IsFullyDefined());
  buffer_ = std::make_shared<Buffer>(allocator, num_elements_ * DataTypeSize(dtype));
  MINITF_CHECK(buffer_->data() != nullptr);
}

StatusOr<Tensor> Tensor::Allocate(DType dtype, const TensorShape& shape, Allocator* allocator) {
  if (!DataTypeIsValid(dtype)) {
    return errors::InvalidArgument("Cannot allocate a tensor of invalid dtype ", int{dtype});
  }
  if (!shape.IsFullyDefined()) {
    return errors::InvalidArgument("Cannot allocate a tensor of partially known shape ", shape);
  }
  TF_ASSIGN_OR_RETURN(TensorShape checked, TensorShape::FromDims(shape.dim_sizes(), false));
  Tensor t;
  t.dtype_ = dtype;
  t.shape_ = std::move(checked);
  t.num_elements_ = t.shape_.num_elements();
  const int64_t bytes = t.num_elements_ * DataTypeSize(dtype);
  if (t.num_elements_ > INT64_MAX / DataTypeSize(dtype)) {
    return errors::ResourceExhausted("Tensor of shape ", shape, " and type ", dtype,
                                     " does not fit in memory");
  }
  t.buffer_ = std::make_shared<Buffer>(allocator, static_cast<size_t>(bytes));
  if (t.buffer_->data() == nullptr) {
    return errors::ResourceExhausted("OOM when allocating tensor with shape", shape, " and type ",
                                     dtype, " on ", allocator->Name());
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
  if (!shape.IsFullyDefined() || shape.num_elements() != NumElements()) {
    return errors::InvalidArgument("Cannot reshape a tensor with ", NumElements(),
                                   " elements to shape ", shape, " (",
                                   shape.IsFullyDefined() ? shape.num_elements() : -1,
                                   " elements)");
  }
  Tensor t = *this;
  t.shape_ = shape;
  return t;
}

void Tensor::CheckAccess(DType requested) const {
  MINITF_CHECK(IsInitialized());
  MINITF_CHECK(requested == dtype_);
  MINITF_CHECK(buffer_->allocator()->HostAccessible());
}

std::string Tensor::DebugString() const {
  if (!IsInitialized()) return "Tensor<uninitialized>";
  return StrCat("Tensor<type: ", dtype_, " shape: ", shape_, " values: ", ToString(), ">");
}

}  // namespace minitf
