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

/// What a reduction of a tensor of `shape` over some axes does: which axes
/// fold, the output's shape, and how many input values fold into each
/// output. Shared by every kernel that reduces (chapter 5's GPU ones too),
/// so that they all check the axes the same way.
struct ReductionPlan {
  std::vector<bool> reduced;  ///< One entry per input axis.
  TensorShape out_shape;
  int64_t reduced_count = 1;  ///< Input values folded into each output.
};

/// The plan for `axes` (TensorFlow's rules above). InvalidArgument for an
/// axis out of [-rank, rank) ("Invalid reduction dimension 2 for input with
/// 2 dimensions") or listed twice ("Invalid reduction arguments: Axes
/// contains duplicate dimension: 1").
StatusOr<ReductionPlan> PlanReduction(const TensorShape& shape,
                                      const Axes& axes, bool keep_dims);

// --8<-- [start:merged_axes]
/// A reduction only cares, for each axis, whether it is reduced or kept, and
/// row-major order lays neighbouring axes of the same kind out as one longer
/// axis. So [2,3,4,5] reducing axes {1,2} is the same loop as [2,12,5]
/// reducing axis 1, and reducing every axis of any shape is one flat run.
/// Axes of size 1 are dropped first: they can join either neighbour. After
/// merging, sizes alternate kept/reduced, and `first_reduced` says which
/// comes first.
struct MergedAxes {
  std::vector<int64_t> sizes;
  bool first_reduced = false;

  bool is_reduced(size_t i) const { return (i % 2 == 0) == first_reduced; }
};

/// `shape` with its neighbouring axes of one kind (`reduced[i]`) merged.
MergedAxes MergeAxes(const TensorShape& shape,
                     const std::vector<bool>& reduced);
// --8<-- [end:merged_axes]

/// One pass of a reduction: the innermost reduced run of merged axes, with
/// the input seen as [outer, middle, inner] and middle folded. Every
/// reducing kernel (chapter 5's GPU ones too) walks a reduction this way,
/// one pass per reduced run, innermost first.
struct ReductionPass {
  int run = -1;          ///< Index of the run in MergedAxes::sizes.
  int reduced_runs = 0;  ///< Reduced runs left, this one included.
  int64_t outer = 1;
  int64_t middle = 1;
  int64_t inner = 1;
};

/// The pass over the innermost reduced run of `merged`; reduced_runs 0 when
/// no run is reduced (only axes of size 1 were: the reduction is a copy).
ReductionPass NextReductionPass(const MergedAxes& merged);

/// `merged` once `pass` has folded its run: the run goes, and the kept runs
/// on either side of it (runs alternate) merge into one.
void RemoveReducedRun(const ReductionPass& pass, MergedAxes* merged);

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
