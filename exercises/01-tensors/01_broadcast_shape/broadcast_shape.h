// Exercise 01_broadcast_shape: the shape of an elementwise op on two tensors.
//
// `x + y` works on tensors of different shapes when the shapes broadcast.
// NumPy's rule, which TensorFlow follows: line the shapes up from the right
// and pair their dimensions; a shape that runs out early counts as 1s; each
// pair must be equal or contain a 1, and the result takes the larger size.
// Every binary kernel of chapter 1 starts by computing this shape.
//
//   BroadcastShape({2, 3}, {3});      // [2,3]: y is added to every row
//   BroadcastShape({4, 1}, {1, 5});   // [4,5]: both operands stretch
//   BroadcastShape({}, {2, 2});       // [2,2]: a scalar goes with anything
//   BroadcastShape({2, 3}, {2});      // InvalidArgument
//                                     // "Incompatible shapes: [2,3] vs. [2]"
#pragma once

#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor_shape.h"

namespace minitf::exercises {

/// The shape of an elementwise op on operands of shapes `a` and `b`, by
/// NumPy's broadcasting rule.
///
/// Errors (InvalidArgument): "Incompatible shapes: <a> vs. <b>" when a pair
/// of dimensions differs and neither is 1; "BroadcastShape needs fully
/// defined shapes, got <a> and <b>" when either shape has an unknown rank or
/// an unknown (None) dimension.
StatusOr<TensorShape> BroadcastShape(const TensorShape& a,
                                     const TensorShape& b);

}  // namespace minitf::exercises
