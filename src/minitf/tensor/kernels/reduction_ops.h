// Reductions: sum, mean, max, min and prod over some axes, and argmax/argmin.
//
// reduce_sum(x, axes) adds up x along the listed axes. TensorFlow's rules:
// no axes given (std::nullopt) reduces everything; an empty list reduces
// nothing; negative axes count from the end; keep_dims leaves each reduced
// axis in place with size 1. The kernel merges adjacent axes that are reduced
// (or kept) together, so any reduction becomes a few nested Eigen loops.
//
//   kernels::ReduceSum(x, std::vector<int>{1}, false);  // x:[2,3] -> [2]
//   kernels::ReduceMean(x, std::nullopt, false);        // -> []
//   kernels::ArgMax(x, 1);                              // -> int64 [2]
//
// Empty reductions: sum 0, prod 1, max -inf (lowest for integers), min +inf
// (highest for integers), all true, any false, mean NaN for floats and
// InvalidArgument for integers. Max and min propagate NaN, as NumPy's np.max.
#pragma once

#include <optional>
#include <vector>

#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor.h"

namespace minitf::kernels {

using Axes = std::optional<std::vector<int>>;

/// Numeric dtypes. An axis out of [-rank, rank) or listed twice is
/// InvalidArgument.
StatusOr<Tensor> ReduceSum(const Tensor& x, const Axes& axes, bool keep_dims);
/// Integer means divide with truncation, as TensorFlow's.
StatusOr<Tensor> ReduceMean(const Tensor& x, const Axes& axes, bool keep_dims);
StatusOr<Tensor> ReduceMax(const Tensor& x, const Axes& axes, bool keep_dims);
StatusOr<Tensor> ReduceMin(const Tensor& x, const Axes& axes, bool keep_dims);
StatusOr<Tensor> ReduceProd(const Tensor& x, const Axes& axes, bool keep_dims);
/// bool tensors.
StatusOr<Tensor> ReduceAll(const Tensor& x, const Axes& axes, bool keep_dims);
StatusOr<Tensor> ReduceAny(const Tensor& x, const Axes& axes, bool keep_dims);

/// The int64 index of the largest (smallest) value along `axis`; the first on
/// ties, and the first NaN if there is one (as NumPy). An empty axis is
/// InvalidArgument.
StatusOr<Tensor> ArgMax(const Tensor& x, int axis);
StatusOr<Tensor> ArgMin(const Tensor& x, int axis);

}  // namespace minitf::kernels
