// Small graph-building helpers shared by the gradient functions
// (math_grad.cc, array_grad.cc, nn_grad.cc): reductions and reshapes whose
// axes and shapes are tensors computed at run time, and the broadcast
// reduction of TensorFlow's _AddGrad.
//
//   auto [gx, gy] = grad::ReduceBroadcast(g, g, op.input(0), op.input(1));
//   // gx has x's shape, gy has y's, even where dims are unknown (tf::None).
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "minitf/graph/graph.h"

namespace minitf::grad {

/// A constant int32 vector.
Output IntVector(const std::vector<int32_t>& values);
/// The values of a Const index tensor (scalar or vector), or nullopt when
/// `t` is not a Const.
std::optional<std::vector<int64_t>> ConstIndices(const Output& t);

/// Sum(x, axes) with axes an int32 tensor: x -> x reduced over axes.
Output SumOver(Output x, Output axes, bool keep_dims = false);
/// Reshape(x, shape) with shape an int32 tensor.
Output ReshapeTo(Output x, Output shape);

/// The gradients gx, gy of a broadcasting binary op z = f(x, y), each
/// summed over the axes broadcasting stretched and reshaped to its input's
/// shape: BroadcastGradientArgs(Shape(x), Shape(y)) -> Sum -> Reshape. An
/// invalid g stays invalid.
std::pair<Output, Output> ReduceBroadcast(Output gx, Output gy, Output x,
                                          Output y);

/// The shape of x with every reduced axis set to 1 (keep_dims), as an int32
/// tensor; works with unknown dims. REQUIRES: rank of x known.
/// axes may be negative.
Output KeptShape(Output x, const std::vector<int64_t>& axes);
/// TensorFlow's math_ops.reduced_shape: `input_shape` (an int32 vector)
/// with a 1 at each of `axes`, computed at run time by DynamicStitch:
/// [2,3,5,7] and axes [1,2] -> [2,1,1,7].
Output ReducedShape(Output input_shape, Output axes);
/// The axes of a reduction op (input 1 of Sum ...), normalised to [0,rank).
/// Throws UnimplementedError when the axes are not a Const or x's rank is
/// unknown.
std::vector<int64_t> ReductionAxes(const Operation& op);

}  // namespace minitf::grad
