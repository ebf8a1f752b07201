// Broadcasting: how two shapes combine in an elementwise op.
//
// NumPy's rule, which TensorFlow follows: line the shapes up from the right;
// two dimensions are compatible when they are equal or one of them is 1; the
// result takes the larger. [2,3] with [3] gives [2,3]; [4,1] with [1,5] gives
// [4,5]; [2,3] with [2] fails. A kernel then walks the output and, for each
// input, steps through its elements with stride 0 along a broadcast dimension.
//
//   StatusOr<TensorShape> s = BroadcastShapes({2, 1, 3}, {4, 1});  // [2,4,3]
//   BroadcastPlan plan(x.shape(), y.shape(), *s);  // strides for the loops
#pragma once

#include <cstdint>
#include <vector>

#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor_shape.h"

namespace minitf::kernels {

/// The broadcast of two fully defined shapes, or InvalidArgument
/// "Incompatible shapes: [2,3] vs. [2]" (TensorFlow's kernel message).
StatusOr<TensorShape> BroadcastShapes(const TensorShape& x,
                                      const TensorShape& y);

/// The loops of a broadcast binary op, simplified: adjacent dimensions that
/// broadcast the same way are merged, so [100,200]+[100,200] is one loop of
/// 20000 and [64,10]+[10] is 64 rows of 10.
///
/// Invariants: dims, x_strides and y_strides have one entry per merged
/// dimension (outermost first), and at least one; the product of dims is the
/// output's element count. A stride (in elements) of 0 repeats that input
/// along the dimension, and no dimension repeats both inputs. The innermost
/// strides are 0 or 1: an input's innermost run is contiguous or one element
/// repeated.
struct BroadcastPlan {
  /// REQUIRES: `out` == BroadcastShapes(x, y).
  BroadcastPlan(const TensorShape& x, const TensorShape& y,
                const TensorShape& out);

  std::vector<int64_t> dims;
  std::vector<int64_t> x_strides;
  std::vector<int64_t> y_strides;
};

}  // namespace minitf::kernels
