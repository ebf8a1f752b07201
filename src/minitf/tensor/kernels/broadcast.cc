#include "minitf/tensor/kernels/broadcast.h"

#include <algorithm>

namespace minitf::kernels {
namespace {

// Dimension `i` of `shape` counted from the right (i = 1 is the last), or 1
// past its rank: broadcasting treats missing leading dimensions as size 1.
int64_t DimFromRight(const TensorShape& shape, int i) {
  return i <= shape.dims() ? shape.dim_size(shape.dims() - i) : 1;
}

}  // namespace

// --8<-- [start:broadcast_shapes]
StatusOr<TensorShape> BroadcastShapes(const TensorShape& x,
                                      const TensorShape& y) {
  if (!x.IsFullyDefined() || !y.IsFullyDefined()) {
    return errors::InvalidArgument(
        "Cannot broadcast shapes that are not fully defined: ", x, " vs. ", y);
  }
  const int rank = std::max(x.dims(), y.dims());
  std::vector<int64_t> out(rank);
  for (int i = 1; i <= rank; ++i) {
    const int64_t a = DimFromRight(x, i);
    const int64_t b = DimFromRight(y, i);
    // Equal sizes match; a 1 stretches to the other size, even to 0.
    if (a == b || b == 1) {
      out[rank - i] = a;
    } else if (a == 1) {
      out[rank - i] = b;
    } else {
      return errors::InvalidArgument("Incompatible shapes: ", x, " vs. ", y);
    }
  }
  return TensorShape(std::move(out));
}
// --8<-- [end:broadcast_shapes]

// --8<-- [start:plan_merge]
BroadcastPlan::BroadcastPlan(const TensorShape& x, const TensorShape& y,
                             const TensorShape& out) {
  // Pass 1, outermost first: drop size-1 output dimensions (they loop once)
  // and merge each dimension into the previous one when both inputs treat
  // them alike, i.e. each input repeats along both or steps along both.
  std::vector<bool> x_repeats;
  std::vector<bool> y_repeats;
  const int rank = out.dims();
  for (int i = rank; i >= 1; --i) {
    const int64_t n = DimFromRight(out, i);
    if (n == 1) continue;
    const bool x_rep = DimFromRight(x, i) == 1;
    const bool y_rep = DimFromRight(y, i) == 1;
    if (!dims.empty() && x_rep == x_repeats.back() &&
        y_rep == y_repeats.back()) {
      dims.back() *= n;
    } else {
      dims.push_back(n);
      x_repeats.push_back(x_rep);
      y_repeats.push_back(y_rep);
    }
  }
  if (dims.empty()) {  // A one-element output: one loop of one.
    dims.push_back(1);
    x_repeats.push_back(false);
    y_repeats.push_back(false);
  }
  // Pass 2, innermost first: an input that steps along a merged dimension
  // moves by the number of its own elements inside it; one that repeats, by 0.
  const size_t merged = dims.size();
  x_strides.resize(merged);
  y_strides.resize(merged);
  int64_t x_step = 1;
  int64_t y_step = 1;
  for (size_t k = merged; k-- > 0;) {
    x_strides[k] = x_repeats[k] ? 0 : x_step;
    y_strides[k] = y_repeats[k] ? 0 : y_step;
    if (!x_repeats[k]) x_step *= dims[k];
    if (!y_repeats[k]) y_step *= dims[k];
  }
}
// --8<-- [end:plan_merge]

}  // namespace minitf::kernels
