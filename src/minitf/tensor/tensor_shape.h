// TensorShape: the dimensions of a tensor, possibly not all known yet.
//
// A shape is a list of dimension sizes: [] is a scalar, [2,3] a 2x3 matrix.
// Graph construction (chapter 2) has to reason about tensors before any data
// exists, so a shape may leave a dimension unknown (tf::None, printed `?`), or
// not even know its rank (printed `<unknown>`). A Tensor always has a fully
// defined shape; placeholders and shape inference use the partial ones.
//
//   tf::TensorShape s({2, 3});        // s.num_elements() == 6, prints [2,3]
//   tf::TensorShape batch({tf::None, 784});   // prints [?,784]
//   batch.IsCompatibleWith(tf::TensorShape({100, 784}));   // true
//   tf::TensorShape::UnknownRank();   // prints <unknown>
#pragma once

#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "minitf/tensor/status.h"

namespace minitf {

/// An unknown dimension size, as Python's None in tf.placeholder(shape=[None]).
inline constexpr int64_t None = -1;

/// Invariants: every dimension is >= 0 or None; an unknown-rank shape has no
/// dimensions. The class does not check its input (it is built everywhere on
/// hot paths): FromDims() validates sizes that come from a user.
class TensorShape {
 public:
  /// The shape of a scalar: rank 0, one element.
  TensorShape() = default;
  TensorShape(std::initializer_list<int64_t> dims) : dims_(dims) {}
  explicit TensorShape(std::vector<int64_t> dims) : dims_(std::move(dims)) {}
  explicit TensorShape(std::span<const int64_t> dims)
      : dims_(dims.begin(), dims.end()) {}

  /// A shape whose rank is unknown, as tf.placeholder(shape=None).
  static TensorShape UnknownRank();
  /// Checks sizes from a user: each must be >= 0 (or None when
  /// `allow_unknown`), and the element count must fit in int64.
  static StatusOr<TensorShape> FromDims(std::span<const int64_t> dims,
                                        bool allow_unknown);

  bool unknown_rank() const { return unknown_rank_; }
  /// The rank; -1 when unknown_rank().
  int dims() const {
    return unknown_rank_ ? -1 : static_cast<int>(dims_.size());
  }
  /// REQUIRES: 0 <= i < dims().
  int64_t dim_size(int i) const { return dims_[i]; }
  const std::vector<int64_t>& dim_sizes() const { return dims_; }

  /// True when the rank and every dimension are known.
  bool IsFullyDefined() const;
  /// The product of the dimensions; -1 unless IsFullyDefined().
  int64_t num_elements() const;

  void AddDim(int64_t size) { dims_.push_back(size); }
  void set_dim(int i, int64_t size) { dims_[i] = size; }

  /// True when some fully defined shape could match both: equal ranks (or an
  /// unknown rank) and, dimension by dimension, equal sizes or a None.
  bool IsCompatibleWith(const TensorShape& other) const;

  /// "[2,3]", "[?,784]", "[]" for a scalar, "<unknown>" for unknown rank.
  std::string DebugString() const;

  bool operator==(const TensorShape& other) const = default;

 private:
  std::vector<int64_t> dims_;
  bool unknown_rank_ = false;
};

std::ostream& operator<<(std::ostream& os, const TensorShape& shape);

}  // namespace minitf
