// Array kernels: change a tensor's shape or dtype, build or combine tensors.
//
// None of these does arithmetic. Reshape is O(1): the result shares its
// input's buffer. Transpose, concat, stack and slice copy, in contiguous runs
// wherever the layout allows. Cast converts element by element.
//
//   kernels::Reshape(x, {-1, 2});                 // [2,3] -> [3,2]
//   kernels::Transpose(x, std::nullopt);          // reverse the axes
//   kernels::Concat({a, b}, 0);  kernels::Stack({a, b}, 1);
//   kernels::Slice(x, {0, 1}, {-1, 2});           // size -1: to the end
//   kernels::OneHot(labels, 10, 1.f, 0.f, -1);    // int labels -> float [n,10]
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor.h"

namespace minitf::kernels {

/// Shares x's buffer. At most one -1 in `shape`, inferred from the rest.
StatusOr<Tensor> Reshape(const Tensor& x, const std::vector<int64_t>& shape);
/// `perm` defaults to the reversed axes.
StatusOr<Tensor> Transpose(const Tensor& x,
                           const std::optional<std::vector<int>>& perm);
/// All inputs of one dtype and equal shapes except along `axis`.
StatusOr<Tensor> Concat(const std::vector<Tensor>& values, int axis);
/// All inputs of one dtype and shape; the new axis is in [-(rank+1), rank].
StatusOr<Tensor> Stack(const std::vector<Tensor>& values, int axis);
/// `begin` and `size` have one entry per axis; size -1 takes the rest.
StatusOr<Tensor> Slice(const Tensor& x, const std::vector<int64_t>& begin,
                       const std::vector<int64_t>& size);
/// Transpose, Concat, Stack and Slice each check their inputs and plan
/// their copy in a function of its own, so that the GPU's kernels of the
/// same ops (a later layer) check them in the same words and copy the same
/// runs. The plans read shapes only.

/// Transpose's output shape and its copy, simplified: axes of size 1
/// dropped and input axes that stay neighbours merged into one. The output
/// walks the input along `counts`, outermost first, stepping `strides`
/// elements of the input; one axis or none: nothing moves (a plain copy).
struct TransposePlan {
  TensorShape out_shape;
  std::vector<int64_t> counts, strides;
};
StatusOr<TransposePlan> PlanTranspose(
    const Tensor& x, const std::optional<std::vector<int>>& perm);

/// Concat and Stack as one copy: the output is [outer, sum of chunks], row
/// o the inputs' rows o (chunks[i] elements of input i) laid end to end.
struct ConcatPlan {
  TensorShape out_shape;
  int64_t outer = 1;
  std::vector<int64_t> chunks;
};
StatusOr<ConcatPlan> PlanConcat(const std::vector<Tensor>& values, int axis);
StatusOr<ConcatPlan> PlanStack(const std::vector<Tensor>& values, int axis);

/// Slice's output shape and where it starts in x: `base` elements in, x's
/// row-major `strides` along each axis.
struct SlicePlan {
  TensorShape out_shape;
  int64_t base = 0;
  std::vector<int64_t> strides;
};
StatusOr<SlicePlan> PlanSlice(const Tensor& x,
                              const std::vector<int64_t>& begin,
                              const std::vector<int64_t>& size);

/// Converts every element; floats to integers truncate toward zero and
/// saturate at the integer's range (NaN becomes 0); int64 to int32 wraps;
/// nonzero (and NaN) is true. Casting to x's own dtype returns x, shared.
StatusOr<Tensor> Cast(const Tensor& x, DType dtype);

/// A tensor of `shape` with every element `value` (a scalar tensor).
StatusOr<Tensor> Fill(const std::vector<int64_t>& shape, const Tensor& value);
StatusOr<Tensor> Zeros(const std::vector<int64_t>& shape, DType dtype);
StatusOr<Tensor> Ones(const std::vector<int64_t>& shape, DType dtype);
StatusOr<Tensor> ZerosLike(const Tensor& x);
StatusOr<Tensor> OnesLike(const Tensor& x);

/// int32/int64 `indices` -> float32 one-hot vectors along `axis` (-1: last).
/// Indices outside [0, depth) give an all-`off_value` vector, as TensorFlow's.
StatusOr<Tensor> OneHot(const Tensor& indices, int64_t depth, float on_value,
                        float off_value, int axis);

}  // namespace minitf::kernels
