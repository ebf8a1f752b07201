// Reshape, Transpose, Concat, Stack and Slice: the kernels that move values
// without computing. Cast is in cast_op.cc; Fill and OneHot in fill_ops.cc.
#include "minitf/tensor/kernels/array_ops.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <span>
#include <string>

#include "minitf/tensor/kernels/checks.h"

namespace minitf::kernels {
namespace {

Status CheckInitialized(const Tensor& x, std::string_view op,
                        std::string_view what) {
  if (!x.IsInitialized()) {
    return errors::InvalidArgument(op, " got an uninitialized tensor as ",
                                   what);
  }
  return Status::OK();
}

int64_t Product(std::span<const int64_t> dims) {
  return std::accumulate(dims.begin(), dims.end(), int64_t{1},
                         std::multiplies<>());
}

// Row-major strides, in elements: stride[i] is how far one step along axis i
// moves in memory.
std::vector<int64_t> Strides(std::span<const int64_t> dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (int i = static_cast<int>(dims.size()) - 2; i >= 0; --i) {
    strides[i] = strides[i + 1] * dims[i + 1];
  }
  return strides;
}

// --8<-- [start:odometer]
// Calls fn(offset) once per index of an array of shape `counts`, in row-major
// order, where offset = base + sum(index[i] * strides[i]). Like a car's
// odometer, the last axis turns fastest; when an axis wraps around it resets
// and carries into the one before. Each step costs one addition (amortised),
// not a multiply per axis.
template <typename Fn>
void ForEachOffset(std::span<const int64_t> counts,
                   std::span<const int64_t> strides, int64_t base, Fn&& fn) {
  const int64_t total = Product(counts);
  std::vector<int64_t> index(counts.size(), 0);
  int64_t offset = base;
  for (int64_t n = 0; n < total; ++n) {
    fn(offset);
    for (int axis = static_cast<int>(counts.size()) - 1; axis >= 0; --axis) {
      offset += strides[axis];
      if (++index[axis] < counts[axis]) break;
      offset -= strides[axis] * counts[axis];
      index[axis] = 0;
    }
  }
}
// --8<-- [end:odometer]

std::string JoinInts(std::span<const int> values) {
  std::string s;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) s += ',';
    s += std::to_string(values[i]);
  }
  return s;
}

// Writes each input's next `chunks[i]` elements in turn, `outer` times: the
// copy loop of both Concat and Stack. Each chunk is one contiguous memcpy.
template <typename T>
void InterleaveChunks(const std::vector<Tensor>& values,
                      const std::vector<int64_t>& chunks, int64_t outer,
                      T* out) {
  for (int64_t o = 0; o < outer; ++o) {
    for (size_t i = 0; i < values.size(); ++i) {
      out = std::copy_n(values[i].data<T>() + o * chunks[i], chunks[i], out);
    }
  }
}

Status CheckSameDType(const std::vector<Tensor>& values, std::string_view op) {
  if (values.empty())
    return errors::InvalidArgument(op, " expects at least one input");
  for (size_t i = 0; i < values.size(); ++i) {
    TF_RETURN_IF_ERROR(
        CheckInitialized(values[i], op, StrCat("values[", i, "]")));
    if (values[i].dtype() != values[0].dtype()) {
      return errors::InvalidArgument(
          op, " expects all inputs to have one dtype: values[0] is ",
          values[0].dtype(), " but values[", i, "] is ", values[i].dtype());
    }
  }
  return Status::OK();
}

}  // namespace

StatusOr<Tensor> Reshape(const Tensor& x, const std::vector<int64_t>& shape) {
  TF_RETURN_IF_ERROR(CheckInitialized(x, "Reshape", "its input"));
  // Find the -1, if any, and multiply the other sizes.
  int unknown = -1;
  int64_t known_product = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (unknown != -1) {
        return errors::InvalidArgument(
            "Only one input size may be -1, not both ", unknown, " and ", i);
      }
      unknown = static_cast<int>(i);
    } else if (shape[i] < 0) {
      return errors::InvalidArgument("Size ", i, " must be non-negative, not ",
                                     shape[i]);
    } else if (shape[i] > 0 &&
               known_product > std::numeric_limits<int64_t>::max() / shape[i]) {
      return errors::InvalidArgument("Requested shape ", TensorShape(shape),
                                     " has too many elements");
    } else {
      known_product *= shape[i];
    }
  }
  // --8<-- [start:reshape_infer]
  // The -1 stands for whatever makes the element counts agree: the input's
  // count divided by the product of the other sizes, which must divide it.
  std::vector<int64_t> dims = shape;
  if (unknown != -1) {
    // With a 0 among the known sizes, any value of the -1 would fit.
    if (known_product == 0) {
      return errors::InvalidArgument(
          "Reshape cannot infer the missing input size for an empty tensor "
          "unless all specified input sizes are non-zero");
    }
    if (x.NumElements() % known_product != 0) {
      return errors::InvalidArgument(
          "Input to reshape is a tensor with ", x.NumElements(),
          " values, but the requested shape requires a multiple of ",
          known_product);
    }
    dims[unknown] = x.NumElements() / known_product;
  } else if (known_product != x.NumElements()) {
    return errors::InvalidArgument(
        "Input to reshape is a tensor with ", x.NumElements(),
        " values, but the requested shape has ", known_product);
  }
  // --8<-- [end:reshape_infer]
  return x.Reshaped(TensorShape(std::move(dims)));
}

// out:[x.shape[perm[0]], ..., x.shape[perm[r-1]]], out[i0..ir] = x[i at perm].
StatusOr<TransposePlan> PlanTranspose(
    const Tensor& x, const std::optional<std::vector<int>>& perm_arg) {
  TF_RETURN_IF_ERROR(CheckInitialized(x, "Transpose", "its input"));
  const int rank = x.dims();
  std::vector<int> perm(rank);
  if (perm_arg.has_value()) {
    perm = *perm_arg;
  } else {
    for (int i = 0; i < rank; ++i) perm[i] = rank - 1 - i;
  }
  if (static_cast<int>(perm.size()) != rank) {
    return errors::InvalidArgument("transpose expects a vector of size ", rank,
                                   ". But input(1) is a vector of size ",
                                   perm.size());
  }
  std::vector<bool> seen(rank, false);
  TransposePlan plan;
  for (int d : perm) {
    if (d < 0 || d >= rank) {
      return errors::InvalidArgument(d, " is out of range [0 .. ", rank, ")");
    }
    seen[d] = true;
    plan.out_shape.AddDim(x.dim_size(d));
  }
  for (int i = 0; i < rank; ++i) {
    if (!seen[i]) {
      return errors::InvalidArgument(i, " is missing from {", JoinInts(perm),
                                     "}.");
    }
  }

  // --8<-- [start:transpose_simplify]
  // Simplify first, as the reductions do: size-1 axes move no data, and input
  // axes that stay neighbours in the same order move as one. [2,3,4] with
  // perm {2,0,1} is [6,4] with perm {1,0}; {0,1,2} is a plain copy.
  std::vector<int> position(rank, -1);  // Among the axes of size > 1.
  std::vector<int64_t> sizes;
  for (int i = 0; i < rank; ++i) {
    if (x.dim_size(i) == 1) continue;
    position[i] = static_cast<int>(sizes.size());
    sizes.push_back(x.dim_size(i));
  }
  // Runs of consecutive input positions, taken in output order.
  std::vector<std::vector<int>> runs;
  for (int d : perm) {
    const int p = position[d];
    if (p < 0) continue;
    if (!runs.empty() && runs.back().back() + 1 == p) {
      runs.back().push_back(p);
    } else {
      runs.push_back({p});
    }
  }
  // Each run is one axis of the simplified input, which keeps input order.
  std::vector<int> by_input(runs.size());
  std::iota(by_input.begin(), by_input.end(), 0);
  std::sort(by_input.begin(), by_input.end(),
            [&](int a, int b) { return runs[a].front() < runs[b].front(); });
  std::vector<int64_t> in_dims(runs.size());
  std::vector<int> merged_perm(runs.size());
  for (size_t k = 0; k < by_input.size(); ++k) {
    int64_t size = 1;
    for (int p : runs[by_input[k]]) size *= sizes[p];
    in_dims[k] = size;
    merged_perm[by_input[k]] = static_cast<int>(k);
  }
  // --8<-- [end:transpose_simplify]

  const std::vector<int64_t> in_strides = Strides(in_dims);
  for (size_t j = 0; j < runs.size(); ++j) {
    plan.counts.push_back(in_dims[merged_perm[j]]);
    plan.strides.push_back(in_strides[merged_perm[j]]);
  }
  return plan;
}

StatusOr<Tensor> Transpose(const Tensor& x,
                           const std::optional<std::vector<int>>& perm) {
  TF_ASSIGN_OR_RETURN(TransposePlan plan, PlanTranspose(x, perm));
  TF_ASSIGN_OR_RETURN(Tensor out, Tensor::Allocate(x.dtype(), plan.out_shape));
  const std::vector<int64_t>& counts = plan.counts;
  const std::vector<int64_t>& strides = plan.strides;
  SwitchDType(x.dtype(), [&]<typename T>() {
    const T* src = x.data<T>();
    T* dst = out.data<T>();
    if (counts.size() <= 1) {  // Nothing moves: the identity permutation.
      std::copy_n(src, x.NumElements(), dst);
      return;
    }
    // One output row at a time: a memcpy when the last output axis is also
    // the last input axis, else a strided gather.
    const int64_t n = counts.back();
    const int64_t stride = strides.back();
    auto copy_row = [&](int64_t offset) {
      const T* p = src + offset;
      if (stride == 1) {
        std::copy_n(p, n, dst);
      } else {
        for (int64_t i = 0; i < n; ++i) dst[i] = p[i * stride];
      }
      dst += n;
    };
    ForEachOffset(std::span(counts).first(counts.size() - 1),
                  std::span(strides).first(strides.size() - 1), 0, copy_row);
  });
  return out;
}

StatusOr<ConcatPlan> PlanConcat(const std::vector<Tensor>& values, int axis) {
  TF_RETURN_IF_ERROR(CheckSameDType(values, "ConcatOp"));
  const TensorShape& first = values[0].shape();
  const int rank = first.dims();
  if (rank == 0) {
    return errors::InvalidArgument(
        "ConcatOp : Can't concatenate scalars (use tf.stack instead)");
  }
  if (axis < -rank || axis >= rank) {
    return errors::InvalidArgument(
        "ConcatOp : Expected concatenating dimensions in the range [", -rank,
        ", ", rank, "), but got ", axis);
  }
  if (axis < 0) axis += rank;
  ConcatPlan plan;
  plan.out_shape = first;
  int64_t axis_total = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    const TensorShape& s = values[i].shape();
    if (s.dims() != rank) {
      return errors::InvalidArgument(
          "ConcatOp : Ranks of all input tensors should match: shape[0] = ",
          first, " vs. shape[", i, "] = ", s);
    }
    for (int d = 0; d < rank; ++d) {
      if (d != axis && s.dim_size(d) != first.dim_size(d)) {
        return errors::InvalidArgument(
            "ConcatOp : Dimensions of inputs should match: shape[0] = ", first,
            " vs. shape[", i, "] = ", s);
      }
    }
    axis_total += s.dim_size(axis);
    plan.chunks.push_back(Product(std::span(s.dim_sizes()).subspan(axis)));
  }
  plan.out_shape.set_dim(axis, axis_total);
  // Each input is [outer, its own chunk]: the output row `o` is the inputs'
  // rows `o` laid end to end.
  plan.outer = Product(std::span(first.dim_sizes()).first(axis));
  return plan;
}

StatusOr<ConcatPlan> PlanStack(const std::vector<Tensor>& values, int axis) {
  TF_RETURN_IF_ERROR(CheckSameDType(values, "Pack"));
  const TensorShape& first = values[0].shape();
  for (size_t i = 1; i < values.size(); ++i) {
    if (values[i].shape() != first) {
      return errors::InvalidArgument(
          "Shapes of all inputs must match: values[0].shape = ", first,
          " != values[", i, "].shape = ", values[i].shape());
    }
  }
  const int out_rank = first.dims() + 1;
  if (axis < -out_rank || axis >= out_rank) {
    return errors::InvalidArgument("axis = ", axis, " not in [", -out_rank,
                                   ", ", out_rank, ")");
  }
  if (axis < 0) axis += out_rank;
  std::vector<int64_t> dims = first.dim_sizes();
  dims.insert(dims.begin() + axis, static_cast<int64_t>(values.size()));
  // Stacking is concatenating inputs that have a size-1 axis at `axis`.
  ConcatPlan plan;
  plan.out_shape = TensorShape(dims);
  plan.outer = Product(std::span(first.dim_sizes()).first(axis));
  plan.chunks.assign(values.size(),
                     Product(std::span(first.dim_sizes()).subspan(axis)));
  return plan;
}

namespace {

StatusOr<Tensor> Interleave(const std::vector<Tensor>& values,
                            const ConcatPlan& plan) {
  TF_ASSIGN_OR_RETURN(Tensor out,
                      Tensor::Allocate(values[0].dtype(), plan.out_shape));
  SwitchDType(out.dtype(), [&]<typename T>() {
    InterleaveChunks<T>(values, plan.chunks, plan.outer, out.data<T>());
  });
  return out;
}

}  // namespace

StatusOr<Tensor> Concat(const std::vector<Tensor>& values, int axis) {
  TF_ASSIGN_OR_RETURN(ConcatPlan plan, PlanConcat(values, axis));
  return Interleave(values, plan);
}

StatusOr<Tensor> Stack(const std::vector<Tensor>& values, int axis) {
  TF_ASSIGN_OR_RETURN(ConcatPlan plan, PlanStack(values, axis));
  return Interleave(values, plan);
}

StatusOr<SlicePlan> PlanSlice(const Tensor& x,
                              const std::vector<int64_t>& begin,
                              const std::vector<int64_t>& size) {
  TF_RETURN_IF_ERROR(CheckInitialized(x, "Slice", "its input"));
  const int rank = x.dims();
  TF_RETURN_IF_ERROR(CheckSliceArgs(rank, begin, size));
  std::vector<int64_t> sizes(rank);
  for (int i = 0; i < rank; ++i) {
    const int64_t dim = x.dim_size(i);
    if (begin[i] < 0 || begin[i] > dim) {
      return errors::InvalidArgument("Expected begin[", i, "] in [0, ", dim,
                                     "], but got ", begin[i]);
    }
    sizes[i] = size[i] == -1 ? dim - begin[i] : size[i];
    if (sizes[i] < 0 || sizes[i] > dim - begin[i]) {
      return errors::InvalidArgument("Expected size[", i, "] in [0, ",
                                     dim - begin[i], "], but got ", size[i]);
    }
  }
  SlicePlan plan;
  plan.out_shape = TensorShape(sizes);
  plan.strides = Strides(x.shape().dim_sizes());
  for (int i = 0; i < rank; ++i) plan.base += begin[i] * plan.strides[i];
  return plan;
}

StatusOr<Tensor> Slice(const Tensor& x, const std::vector<int64_t>& begin,
                       const std::vector<int64_t>& size) {
  TF_ASSIGN_OR_RETURN(SlicePlan plan, PlanSlice(x, begin, size));
  TF_ASSIGN_OR_RETURN(Tensor out, Tensor::Allocate(x.dtype(), plan.out_shape));
  if (out.NumElements() == 0) return out;
  // The trailing axes that are taken whole, plus the last one that is not,
  // are one contiguous run in memory: copy it with one memcpy.
  const int rank = x.dims();
  const std::vector<int64_t>& sizes = plan.out_shape.dim_sizes();
  const std::vector<int64_t>& strides = plan.strides;
  int run_axis = rank - 1;
  while (run_axis > 0 && sizes[run_axis] == x.dim_size(run_axis)) --run_axis;
  const int64_t run = rank == 0 ? 1 : sizes[run_axis] * strides[run_axis];
  SwitchDType(x.dtype(), [&]<typename T>() {
    const T* src = x.data<T>();
    T* dst = out.data<T>();
    ForEachOffset(
        std::span(sizes).first(std::max(run_axis, 0)),
        std::span(strides).first(std::max(run_axis, 0)), plan.base,
        [&](int64_t offset) { dst = std::copy_n(src + offset, run, dst); });
  });
  return out;
}

}  // namespace minitf::kernels
