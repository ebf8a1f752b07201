// Exercise 02_reduce_mean: average a tensor over some of its axes.
//
// A tensor keeps its elements in one flat buffer in row-major order: the last
// index moves fastest. The stride of axis d is the distance in that buffer
// between two elements whose coordinates differ by one along d: the product
// of the sizes after d, so a [2,3,4] tensor has strides (12,4,1). Strides turn
// a flat index into coordinates and back, which is all a reduction needs:
// every input element adds into the output element with the same coordinates
// on the kept axes.
//
//   Tensor x({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});   // [2,3]
//   ReduceMeanOverAxes(x, {0}, false);    // [3]   2.5 3.5 4.5
//   ReduceMeanOverAxes(x, {-1}, true);    // [2,1] 2 5
//   ReduceMeanOverAxes(x, {0, 1}, false); // []    3.5
//   ReduceMeanOverAxes(x, {}, false);     // [2,3] x's values
#pragma once

#include <vector>

#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor.h"

namespace minitf::exercises {

/// The mean of a float32 tensor over `axes`, as tf.reduce_mean(x, axes,
/// keep_dims). Each axis is in [-rank, rank), a negative one counting from the
/// end; an empty list reduces nothing. Reduced axes are dropped from the
/// shape, or kept with size 1 when `keep_dims`. A mean over zero elements is
/// NaN. The result has its own buffer.
///
///   x:[d0,...,dn-1] -> [the di of the axes not reduced]
///   (keep_dims: same rank, 1 on each reduced axis)
///
/// Errors (InvalidArgument), checked in this order: "ReduceMeanOverAxes needs
/// a float tensor, got int32" for any other dtype; "Invalid reduction
/// dimension (2 for input with 2 dimension(s)" for an axis out of range;
/// "Invalid reduction arguments: Axes contains duplicate dimension: 1" when two
/// axes name the same dimension (reported as a non-negative index).
StatusOr<Tensor> ReduceMeanOverAxes(const Tensor& x, std::vector<int> axes,
                                    bool keep_dims);

}  // namespace minitf::exercises
