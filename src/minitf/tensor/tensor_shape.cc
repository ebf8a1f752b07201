#include "minitf/tensor/tensor_shape.h"

#include <limits>

namespace minitf {

TensorShape TensorShape::UnknownRank() {
  TensorShape shape;
  shape.unknown_rank_ = true;
  return shape;
}

StatusOr<TensorShape> TensorShape::FromDims(std::span<const int64_t> dims,
                                            bool allow_unknown) {
  TensorShape shape(dims);
  int64_t product = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t d = dims[i];
    if (d == None && allow_unknown) continue;
    if (d < 0) {
      return errors::InvalidArgument("Dimension ", d,
                                     " must be >= 0 (dimension ", i,
                                     " of shape ", shape, ")");
    }
    if (d > 0 && product > std::numeric_limits<int64_t>::max() / d) {
      return errors::InvalidArgument("Shape ", shape, " has too many elements");
    }
    product *= d;
  }
  return shape;
}

bool TensorShape::IsFullyDefined() const {
  if (unknown_rank_) return false;
  for (int64_t d : dims_) {
    if (d < 0) return false;
  }
  return true;
}

int64_t TensorShape::num_elements() const {
  if (!IsFullyDefined()) return -1;
  int64_t n = 1;
  for (int64_t d : dims_) n *= d;
  return n;
}

bool TensorShape::IsCompatibleWith(const TensorShape& other) const {
  if (unknown_rank_ || other.unknown_rank_) return true;
  if (dims_.size() != other.dims_.size()) return false;
  for (size_t i = 0; i < dims_.size(); ++i) {
    if (dims_[i] != None && other.dims_[i] != None &&
        dims_[i] != other.dims_[i])
      return false;
  }
  return true;
}

std::string TensorShape::DebugString() const {
  if (unknown_rank_) return "<unknown>";
  std::string s = "[";
  for (size_t i = 0; i < dims_.size(); ++i) {
    if (i > 0) s += ",";
    s += dims_[i] == None ? "?" : std::to_string(dims_[i]);
  }
  return s + "]";
}

std::ostream& operator<<(std::ostream& os, const TensorShape& shape) {
  return os << shape.DebugString();
}

}  // namespace minitf
