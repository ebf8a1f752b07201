#include "minitf/tensor/kernels/reduction_ops.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <span>
#include <string_view>
#include <type_traits>

#include "minitf/tensor/kernels/checks.h"
#include "minitf/tensor/kernels/eigen_maps.h"

namespace minitf::kernels {
namespace {

// ---------------------------------------------------------------------------
// Reducers: what "combine" means for each op. Reduce() folds a contiguous run
// of values into one; Accumulate() folds a run into a run of accumulators,
// element by element. Both are Eigen expressions, so they vectorise.

template <typename T>
struct SumReducer {
  static T Identity() { return T(0); }
  static T Reduce(const ConstVec<T>& v) { return v.sum(); }
  static void Accumulate(Vec<T>& acc, const ConstVec<T>& v) { acc += v; }
};

template <typename T>
struct ProdReducer {
  static T Identity() { return T(1); }
  static T Reduce(const ConstVec<T>& v) { return v.prod(); }
  static void Accumulate(Vec<T>& acc, const ConstVec<T>& v) { acc *= v; }
};

// Max and min propagate NaN, as NumPy's np.max does: one NaN in a run makes
// its result NaN. Eigen's default policy is "whatever is fastest", so the
// policy is named explicitly. ArrayBase::max() takes no policy in Eigen 3.4,
// hence the functor.
template <typename T>
struct MaxReducer {
  static T Identity() {
    if constexpr (std::numeric_limits<T>::has_infinity)
      return -std::numeric_limits<T>::infinity();
    return std::numeric_limits<T>::lowest();
  }
  static T Reduce(const ConstVec<T>& v) {
    return v.template maxCoeff<Eigen::PropagateNaN>();
  }
  static void Accumulate(Vec<T>& acc, const ConstVec<T>& v) {
    acc = acc.binaryExpr(
        v, Eigen::internal::scalar_max_op<T, T, Eigen::PropagateNaN>());
  }
};

template <typename T>
struct MinReducer {
  static T Identity() {
    if constexpr (std::numeric_limits<T>::has_infinity)
      return std::numeric_limits<T>::infinity();
    return std::numeric_limits<T>::max();
  }
  static T Reduce(const ConstVec<T>& v) {
    return v.template minCoeff<Eigen::PropagateNaN>();
  }
  static void Accumulate(Vec<T>& acc, const ConstVec<T>& v) {
    acc = acc.binaryExpr(
        v, Eigen::internal::scalar_min_op<T, T, Eigen::PropagateNaN>());
  }
};

struct AllReducer {
  static bool Identity() { return true; }
  static bool Reduce(const ConstVec<bool>& v) { return v.all(); }
  static void Accumulate(Vec<bool>& acc, const ConstVec<bool>& v) {
    acc = acc && v;
  }
};

struct AnyReducer {
  static bool Identity() { return false; }
  static bool Reduce(const ConstVec<bool>& v) { return v.any(); }
  static void Accumulate(Vec<bool>& acc, const ConstVec<bool>& v) {
    acc = acc || v;
  }
};

// ---------------------------------------------------------------------------
// The one loop nest every reduction runs: x viewed as [outer, middle, inner],
// reduced over the middle axis, into out:[outer, inner]. REQUIRES: middle >= 1.
// --8<-- [start:reduce_middle]
template <typename T, typename R>
void ReduceMiddle(const T* x, int64_t outer, int64_t middle, int64_t inner,
                  T* out) {
  if (inner == 1) {
    // Row-wise ([reduce] and [keep,reduce]): each output folds `middle`
    // contiguous values, one vectorised Eigen reduction per row.
    for (int64_t i = 0; i < outer; ++i)
      out[i] = R::Reduce(ConstVec<T>(x + i * middle, middle));
    return;
  }
  // Column-wise ([reduce,keep] and [keep,reduce,keep]): add whole rows of
  // `inner` values into a row of accumulators. Rows are walked a tile of
  // 16 KiB of columns at a time, so the accumulators stay in the L1 cache
  // while the rows stream past them in runs long enough to prefetch.
  constexpr int64_t kTile = 16384 / sizeof(T);
  for (int64_t i = 0; i < outer; ++i) {
    const T* block = x + i * middle * inner;
    for (int64_t c = 0; c < inner; c += kTile) {
      const int64_t width = std::min(kTile, inner - c);
      Vec<T> acc(out + i * inner + c, width);
      acc = ConstVec<T>(block + c, width);
      for (int64_t r = 1; r < middle; ++r) {
        R::Accumulate(acc, ConstVec<T>(block + r * inner + c, width));
      }
    }
  }
}
// --8<-- [end:reduce_middle]

// Runs a planned reduction of x into out. Each pass reduces the innermost
// reduced run of the merged axes as [outer, middle, inner]. One pass suffices
// for the common patterns ([reduce], [keep,reduce], [reduce,keep],
// [keep,reduce,keep]); a longer alternation such as [reduce,keep,reduce] takes
// one pass per reduced run, through a scratch tensor.
// REQUIRES: plan.reduced_count >= 1 and out has plan.out_shape. Fails only
// when the scratch tensor finds no memory.
template <typename T, typename R>
Status RunReduction(const Tensor& x, const ReductionPlan& plan, Tensor* out) {
  MergedAxes merged = MergeAxes(x.shape(), plan.reduced);
  const T* src = x.data<T>();
  Tensor scratch;
  while (true) {
    const ReductionPass pass = NextReductionPass(merged);
    if (pass.reduced_runs == 0) {  // Only size-1 axes were reduced: a copy.
      std::copy_n(src, out->NumElements(), out->data<T>());
      return Status::OK();
    }
    if (pass.reduced_runs == 1) {
      ReduceMiddle<T, R>(src, pass.outer, pass.middle, pass.inner,
                         out->data<T>());
      return Status::OK();
    }
    TF_ASSIGN_OR_RETURN(
        Tensor next, Tensor::Allocate(DataTypeToEnum<T>::value,
                                      TensorShape({pass.outer * pass.inner})));
    ReduceMiddle<T, R>(src, pass.outer, pass.middle, pass.inner,
                       next.data<T>());
    RemoveReducedRun(pass, &merged);
    scratch = std::move(next);
    src = scratch.data<T>();
  }
}

// ---------------------------------------------------------------------------
// The kernels.

template <template <typename> class R>
StatusOr<Tensor> ReduceNumeric(std::string_view op, const Tensor& x,
                               const Axes& axes, bool keep_dims) {
  TF_RETURN_IF_ERROR(CheckNumeric(op, x.dtype()));
  TF_ASSIGN_OR_RETURN(ReductionPlan plan,
                      PlanReduction(x.shape(), axes, keep_dims));
  TF_ASSIGN_OR_RETURN(Tensor out, Tensor::Allocate(x.dtype(), plan.out_shape));
  Status status;
  SwitchDType(x.dtype(), [&]<typename T>() {
    if constexpr (!std::is_same_v<T, bool>) {
      if (plan.reduced_count == 0) {
        out.flat<T>().setConstant(R<T>::Identity());
      } else if (out.NumElements() > 0) {
        status = RunReduction<T, R<T>>(x, plan, &out);
      }
    }
  });
  TF_RETURN_IF_ERROR(status);
  return out;
}

template <typename R>
StatusOr<Tensor> ReduceBool(std::string_view op, const Tensor& x,
                            const Axes& axes, bool keep_dims) {
  if (x.dtype() != DT_BOOL) {
    return errors::InvalidArgument(op, " has no kernel for dtype ", x.dtype());
  }
  TF_ASSIGN_OR_RETURN(ReductionPlan plan,
                      PlanReduction(x.shape(), axes, keep_dims));
  TF_ASSIGN_OR_RETURN(Tensor out, Tensor::Allocate(DT_BOOL, plan.out_shape));
  if (plan.reduced_count == 0) {
    out.flat<bool>().setConstant(R::Identity());
  } else if (out.NumElements() > 0) {
    TF_RETURN_IF_ERROR((RunReduction<bool, R>(x, plan, &out)));
  }
  return out;
}

// The index of the largest (Better = greater) or smallest value along the
// middle axis of x:[outer, n, inner] -> out:[outer, inner]. Only a strictly
// better value replaces the best so far, so ties keep the first index; a NaN
// replaces any number and nothing replaces a NaN, so the first NaN wins.
// REQUIRES: n >= 1.
template <typename T, typename Better>
void ArgReduce(const T* x, int64_t outer, int64_t n, int64_t inner,
               int64_t* out) {
  const Better better;
  auto replaces = [&](T candidate, T best) {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(best)) return false;
      if (std::isnan(candidate)) return true;
    }
    return better(candidate, best);
  };
  for (int64_t o = 0; o < outer; ++o) {
    const T* block = x + o * n * inner;
    for (int64_t c = 0; c < inner; ++c) {
      T best = block[c];
      int64_t best_index = 0;
      for (int64_t k = 1; k < n; ++k) {
        const T candidate = block[k * inner + c];
        if (replaces(candidate, best)) {
          best = candidate;
          best_index = k;
        }
      }
      out[o * inner + c] = best_index;
    }
  }
}

template <typename Better>
StatusOr<Tensor> ArgReduceKernel(std::string_view op, const Tensor& x,
                                 int axis) {
  TF_RETURN_IF_ERROR(CheckNumeric(op, x.dtype()));
  TF_ASSIGN_OR_RETURN(ArgReducePlan plan, PlanArgReduce(x, axis));
  TF_ASSIGN_OR_RETURN(Tensor out, Tensor::Allocate(DT_INT64, plan.out_shape));
  SwitchDType(x.dtype(), [&]<typename T>() {
    if constexpr (!std::is_same_v<T, bool>) {
      ArgReduce<T, Better>(x.data<T>(), plan.outer, plan.n, plan.inner,
                           out.data<int64_t>());
    }
  });
  return out;
}

}  // namespace

// ---------------------------------------------------------------------------
// Planning: which axes are reduced, the output's shape, and the merged view.

StatusOr<ReductionPlan> PlanReduction(const TensorShape& shape,
                                      const Axes& axes, bool keep_dims) {
  const int rank = shape.dims();
  ReductionPlan plan;
  plan.reduced.assign(rank, !axes.has_value());
  if (axes.has_value()) {
    for (int axis : *axes) {
      if (axis < -rank || axis >= rank) {
        return errors::InvalidArgument("Invalid reduction dimension ", axis,
                                       " for input with ", rank, " dimensions");
      }
      const int a = axis < 0 ? axis + rank : axis;
      if (plan.reduced[a]) {
        return errors::InvalidArgument(
            "Invalid reduction arguments: Axes contains duplicate dimension: ",
            a);
      }
      plan.reduced[a] = true;
    }
  }
  for (int i = 0; i < rank; ++i) {
    if (plan.reduced[i]) {
      plan.reduced_count *= shape.dim_size(i);
      if (keep_dims) plan.out_shape.AddDim(1);
    } else {
      plan.out_shape.AddDim(shape.dim_size(i));
    }
  }
  return plan;
}

// --8<-- [start:merge_axes]
MergedAxes MergeAxes(const TensorShape& shape,
                     const std::vector<bool>& reduced) {
  MergedAxes merged;
  bool previous = false;
  for (int i = 0; i < shape.dims(); ++i) {
    const int64_t size = shape.dim_size(i);
    if (size == 1) continue;
    if (!merged.sizes.empty() && reduced[i] == previous) {
      merged.sizes.back() *= size;
    } else {
      if (merged.sizes.empty()) merged.first_reduced = reduced[i];
      merged.sizes.push_back(size);
      previous = reduced[i];
    }
  }
  return merged;
}
// --8<-- [end:merge_axes]

ReductionPass NextReductionPass(const MergedAxes& merged) {
  ReductionPass pass;
  for (size_t i = 0; i < merged.sizes.size(); ++i) {
    if (merged.is_reduced(i)) {
      pass.run = static_cast<int>(i);
      ++pass.reduced_runs;
    }
  }
  if (pass.reduced_runs == 0) return pass;
  for (int i = 0; i < pass.run; ++i) pass.outer *= merged.sizes[i];
  pass.middle = merged.sizes[pass.run];
  for (size_t i = pass.run + 1; i < merged.sizes.size(); ++i) {
    pass.inner *= merged.sizes[i];
  }
  return pass;
}

void RemoveReducedRun(const ReductionPass& pass, MergedAxes* merged) {
  std::vector<int64_t>& sizes = merged->sizes;
  const int run = pass.run;
  if (static_cast<size_t>(run) + 1 < sizes.size()) {
    sizes[run - 1] *= sizes[run + 1];
    sizes.erase(sizes.begin() + run, sizes.begin() + run + 2);
  } else {
    sizes.pop_back();
  }
}

StatusOr<Tensor> ReduceSum(const Tensor& x, const Axes& axes, bool keep_dims) {
  return ReduceNumeric<SumReducer>("Sum", x, axes, keep_dims);
}

StatusOr<Tensor> ReduceMean(const Tensor& x, const Axes& axes, bool keep_dims) {
  TF_RETURN_IF_ERROR(CheckNumeric("Mean", x.dtype()));
  TF_ASSIGN_OR_RETURN(ReductionPlan plan,
                      PlanReduction(x.shape(), axes, keep_dims));
  TF_ASSIGN_OR_RETURN(Tensor out, Tensor::Allocate(x.dtype(), plan.out_shape));
  if (out.NumElements() == 0) return out;
  TF_RETURN_IF_ERROR(CheckMeanOfEmpty(x, plan.reduced_count));
  Status status;
  SwitchDType(x.dtype(), [&]<typename T>() {
    if constexpr (std::is_floating_point_v<T>) {
      if (plan.reduced_count == 0) {
        out.flat<T>().setConstant(std::numeric_limits<T>::quiet_NaN());
        return;
      }
      status = RunReduction<T, SumReducer<T>>(x, plan, &out);
      if (status.ok()) out.flat<T>() /= static_cast<T>(plan.reduced_count);
    } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      // C++ integer division truncates toward zero, as TensorFlow's mean.
      status = RunReduction<T, SumReducer<T>>(x, plan, &out);
      if (!status.ok()) return;
      for (T& v : std::span(out.data<T>(), out.NumElements())) {
        v = static_cast<T>(static_cast<int64_t>(v) / plan.reduced_count);
      }
    }
  });
  TF_RETURN_IF_ERROR(status);
  return out;
}

StatusOr<Tensor> ReduceMax(const Tensor& x, const Axes& axes, bool keep_dims) {
  return ReduceNumeric<MaxReducer>("Max", x, axes, keep_dims);
}

StatusOr<Tensor> ReduceMin(const Tensor& x, const Axes& axes, bool keep_dims) {
  return ReduceNumeric<MinReducer>("Min", x, axes, keep_dims);
}

StatusOr<Tensor> ReduceProd(const Tensor& x, const Axes& axes, bool keep_dims) {
  return ReduceNumeric<ProdReducer>("Prod", x, axes, keep_dims);
}

StatusOr<Tensor> ReduceAll(const Tensor& x, const Axes& axes, bool keep_dims) {
  return ReduceBool<AllReducer>("All", x, axes, keep_dims);
}

StatusOr<Tensor> ReduceAny(const Tensor& x, const Axes& axes, bool keep_dims) {
  return ReduceBool<AnyReducer>("Any", x, axes, keep_dims);
}

StatusOr<Tensor> ArgMax(const Tensor& x, int axis) {
  return ArgReduceKernel<std::greater<>>("ArgMax", x, axis);
}

StatusOr<Tensor> ArgMin(const Tensor& x, int axis) {
  return ArgReduceKernel<std::less<>>("ArgMin", x, axis);
}

}  // namespace minitf::kernels
