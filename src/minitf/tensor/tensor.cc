#include "minitf/tensor/tensor.h"

#include <cstring>
#include <limits>

namespace minitf {
namespace {

// --8<-- [start:inline_buffer]
// Room for std::shared_ptr's control block (the two reference counts, the
// STL allocator below and the Buffer itself) ahead of the data, which then
// starts on a 64-byte boundary.
constexpr size_t kInlineHeaderBytes = 2 * Allocator::kAlignment;

// The STL allocator that std::allocate_shared uses to place a Buffer's
// control block at the start of a block taken from an Allocator in advance;
// freeing the control block frees the whole block, data included.
template <typename T>
struct InlineBlock {
  using value_type = T;

  InlineBlock(Allocator* allocator, void* block)
      : allocator(allocator), block(block) {}
  template <typename U>
  InlineBlock(const InlineBlock<U>& other)  // NOLINT: rebinding
      : allocator(other.allocator), block(other.block) {}

  T* allocate(size_t n) {
    static_assert(sizeof(T) <= kInlineHeaderBytes &&
                  alignof(T) <= Allocator::kAlignment);
    MINITF_CHECK(n == 1);
    return static_cast<T*>(block);
  }
  void deallocate(T* p, size_t) { allocator->DeallocateRaw(p); }
  bool operator==(const InlineBlock&) const = default;

  Allocator* allocator;
  void* block;
};
// --8<-- [end:inline_buffer]

}  // namespace

Buffer::Buffer(Allocator* allocator, size_t num_bytes)
    : allocator_(allocator),
      data_(allocator->AllocateRaw(Allocator::kAlignment, num_bytes)),
      size_(num_bytes),
      owns_data_(true) {}

std::shared_ptr<Buffer> Buffer::Create(Allocator* allocator, size_t num_bytes) {
  if (!allocator->HostAccessible()) {
    auto buffer = std::make_shared<Buffer>(allocator, num_bytes);
    return buffer->data() == nullptr ? nullptr : buffer;
  }
  if (num_bytes > std::numeric_limits<size_t>::max() - kInlineHeaderBytes) {
    return nullptr;
  }
  auto* block = static_cast<char*>(allocator->AllocateRaw(
      Allocator::kAlignment, kInlineHeaderBytes + num_bytes));
  if (block == nullptr) return nullptr;
  return std::allocate_shared<Buffer>(InlineBlock<Buffer>(allocator, block),
                                      InlineData{}, allocator,
                                      block + kInlineHeaderBytes, num_bytes);
}

Tensor::Tensor(DType dtype, const TensorShape& shape)
    : Tensor(DefaultAllocator(), dtype, shape) {}

Tensor::Tensor(Allocator* allocator, DType dtype, const TensorShape& shape)
    : dtype_(dtype), shape_(shape), num_elements_(shape.num_elements()) {
  MINITF_CHECK(DataTypeIsValid(dtype) && shape.IsFullyDefined());
  buffer_ = Buffer::Create(allocator, num_elements_ * DataTypeSize(dtype));
  MINITF_CHECK(buffer_ != nullptr);
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
  t.buffer_ = Buffer::Create(
      allocator, static_cast<size_t>(num_elements * DataTypeSize(dtype)));
  if (t.buffer_ == nullptr) {
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
  CheckRawAccess();
  MINITF_CHECK(requested == dtype_);
}

void Tensor::CheckRawAccess() const {
  MINITF_CHECK(IsInitialized());
  MINITF_CHECK(buffer_->allocator()->HostAccessible());
}

std::string Tensor::DebugString() const {
  if (!IsInitialized()) return "Tensor<uninitialized>";
  return StrCat("Tensor<type: ", dtype_, " shape: ", shape_,
                " values: ", ToString(), ">");
}

}  // namespace minitf
