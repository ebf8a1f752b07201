#include "minitf/gpu/tensor_ops.h"

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "minitf/graph/shape_inference.h"
#include "minitf/tensor/kernels/array_ops.h"
#include "minitf/tensor/kernels/broadcast.h"
#include "minitf/tensor/kernels/checks.h"

namespace minitf::gpu {
namespace {

// Device addresses, never read on the host.
const void* In(const Tensor& t) { return t.device_data(); }
void* Out(Tensor& t) { return t.device_data(); }

// ---------------------------------------------------------------------------
// Chapter 1's checks (checks.h), so that the GPU's errors are the CPU's.

using kernels::CheckInitialized;
using kernels::CheckSameDType;

Status CheckTypes(std::string_view op, DTypeSet set, DType dtype) {
  if (Contains(set, dtype)) return Status::OK();
  return kernels::NoKernel(op, dtype, Names(set));
}

// A temporary of `bytes` on the default allocator, as a tensor of `dtype`
// so that its size is whole elements. An empty tensor when bytes is 0.
StatusOr<Tensor> Scratch(DType dtype, size_t bytes) {
  const int64_t elements =
      static_cast<int64_t>(bytes / static_cast<size_t>(DataTypeSize(dtype)));
  return Tensor::Allocate(dtype, TensorShape({elements}));
}

// ---------------------------------------------------------------------------
// Reductions: chapter 1's plan (kernels::PlanReduction, reduction_ops.h),
// the same checks and the same merging of neighbouring axes of one kind.

// x into *out along the plan: one [outer, middle, inner] pass per reduced
// run of the merged axes, innermost first, through temporaries; only the
// last pass divides (a mean). REQUIRES: reduced_count >= 1 and out has
// plan.out_shape with at least one element.
Status RunReduction(const GpuStreamContext& ctx, ReduceOp op, const Tensor& x,
                    const kernels::ReductionPlan& plan, Tensor* out) {
  const GpuKernels& k = *ctx.kernels;
  kernels::MergedAxes merged = kernels::MergeAxes(x.shape(), plan.reduced);
  Tensor src = x;
  while (true) {
    const kernels::ReductionPass pass = kernels::NextReductionPass(merged);
    if (pass.reduced_runs == 0) {  // only axes of size 1 were reduced: a copy
      return k.Cast(ctx.stream, x.dtype(), x.dtype(), In(src), Out(*out),
                    out->NumElements());
    }
    const bool last = pass.reduced_runs == 1;
    Tensor dst;
    if (last) {
      dst = *out;
    } else {
      TF_ASSIGN_OR_RETURN(
          dst,
          Tensor::Allocate(x.dtype(), TensorShape({pass.outer * pass.inner})));
    }
    TF_ASSIGN_OR_RETURN(
        Tensor scratch,
        Scratch(x.dtype(), k.ReduceScratchBytes(x.dtype(), pass.outer,
                                                pass.middle, pass.inner)));
    const int64_t divisor =
        last && op == ReduceOp::kMean ? plan.reduced_count : 1;
    TF_RETURN_IF_ERROR(
        k.Reduce(ctx.stream, op, x.dtype(), In(src), Out(dst), pass.outer,
                 pass.middle, pass.inner, divisor,
                 scratch.NumElements() > 0 ? Out(scratch) : nullptr));
    if (last) return Status::OK();
    kernels::RemoveReducedRun(pass, &merged);
    src = std::move(dst);
  }
}

// The value an empty reduction gives each output (chapter 1's identities).
Status FillIdentity(const GpuStreamContext& ctx, ReduceOp op, Tensor* out) {
  return SwitchDType(out->dtype(), [&]<typename T>() -> Status {
    T value{};
    if constexpr (!std::is_same_v<T, bool>) {
      switch (op) {
        case ReduceOp::kProd:
          value = T(1);
          break;
        case ReduceOp::kMax:
          value = std::numeric_limits<T>::has_infinity
                      ? -std::numeric_limits<T>::infinity()
                      : std::numeric_limits<T>::lowest();
          break;
        case ReduceOp::kMin:
          value = std::numeric_limits<T>::has_infinity
                      ? std::numeric_limits<T>::infinity()
                      : std::numeric_limits<T>::max();
          break;
        case ReduceOp::kMean:
          value = std::numeric_limits<T>::quiet_NaN();
          break;
        case ReduceOp::kSum:
          break;
      }
    }
    return ctx.kernels->Fill(ctx.stream, out->dtype(), &value, Out(*out),
                             out->NumElements());
  });
}

StatusOr<Tensor> ArgReduce(const GpuStreamContext& ctx, bool max,
                           const Tensor& x, int axis, DType output_type) {
  const char* op = max ? "ArgMax" : "ArgMin";
  TF_RETURN_IF_ERROR(kernels::CheckNumeric(op, x.dtype()));
  if (output_type != DT_INT32 && output_type != DT_INT64) {
    return errors::InvalidArgument(op, " has no kernel for output_type ",
                                   output_type, " (int32 or int64)");
  }
  TF_ASSIGN_OR_RETURN(kernels::ArgReducePlan plan,
                      kernels::PlanArgReduce(x, axis));
  TF_ASSIGN_OR_RETURN(Tensor out,
                      Tensor::Allocate(output_type, plan.out_shape));
  if (out.NumElements() == 0) return out;
  TF_RETURN_IF_ERROR(ctx.kernels->ArgReduce(ctx.stream, max, x.dtype(), In(x),
                                            output_type, Out(out), plan.outer,
                                            plan.n, plan.inner));
  return out;
}

StatusOr<Tensor> SoftmaxKernel(const GpuStreamContext& ctx, bool log,
                               const Tensor& logits) {
  const char* op = log ? "LogSoftmax" : "Softmax";
  TF_RETURN_IF_ERROR(kernels::CheckSoftmaxLogits(op, logits));
  TF_ASSIGN_OR_RETURN(Tensor out,
                      Tensor::Allocate(logits.dtype(), logits.shape()));
  if (out.NumElements() == 0) return out;
  const int64_t classes = logits.dim_size(logits.dims() - 1);
  TF_RETURN_IF_ERROR(
      ctx.kernels->Softmax(ctx.stream, log, logits.dtype(), In(logits),
                           Out(out), out.NumElements() / classes, classes));
  return out;
}

// ---------------------------------------------------------------------------
// Layer 3's checks of the optimizer updates (training_kernels.cc).

Status SameShape(const Tensor& var, const std::string& name,
                 const Tensor& other) {
  if (var.shape() == other.shape()) return Status::OK();
  return errors::InvalidArgument(
      "var and ", name, " do not have the same shape",
      var.shape().DebugString(), " ", other.shape().DebugString());
}

// Every tensor initialized and of var's dtype, float or double; the slots
// and the gradient of var's shape, the hyperparameters scalars.
Status CheckApply(
    std::string_view op, const Tensor& var,
    const std::vector<std::pair<const Tensor*, std::string>>& slots_and_grad,
    const std::vector<std::pair<const Tensor*, std::string>>& scalars) {
  if (!var.IsInitialized()) {
    return errors::FailedPrecondition("Attempting to use uninitialized value ",
                                      "var");
  }
  for (const auto& [t, name] : slots_and_grad) {
    if (!t->IsInitialized()) {
      return errors::FailedPrecondition(
          "Attempting to use uninitialized value ", name);
    }
    TF_RETURN_IF_ERROR(SameShape(var, name, *t));
  }
  for (const auto& [t, name] : scalars) {
    if (!t->IsInitialized()) {
      return errors::InvalidArgument(name, " is an uninitialized tensor");
    }
    if (t->dims() != 0) {
      return errors::InvalidArgument(
          name, " is not a scalar: ", t->shape().DebugString());
    }
  }
  if (var.dtype() != DT_FLOAT && var.dtype() != DT_DOUBLE) {
    return errors::InvalidArgument(op, " does not support ",
                                   std::string(DataTypeString(var.dtype())));
  }
  for (const auto& list : {slots_and_grad, scalars}) {
    for (const auto& [t, name] : list) {
      if (t->dtype() != var.dtype()) {
        return errors::InvalidArgument(op, " expects ", name, " of dtype ",
                                       var.dtype(), ", got ", t->dtype());
      }
    }
  }
  return Status::OK();
}

}  // namespace

// ---------------------------------------------------------------------------
// Elementwise.

StatusOr<Tensor> Unary(const GpuStreamContext& ctx, UnaryOp op,
                       const Tensor& x) {
  TF_RETURN_IF_ERROR(CheckInitialized(OpName(op), x, 0));
  TF_RETURN_IF_ERROR(CheckTypes(OpName(op), TypesOf(op), x.dtype()));
  TF_ASSIGN_OR_RETURN(Tensor out, Tensor::Allocate(x.dtype(), x.shape()));
  TF_RETURN_IF_ERROR(ctx.kernels->Unary(ctx.stream, op, x.dtype(), In(x),
                                        Out(out), x.NumElements()));
  return out;
}

StatusOr<Tensor> Binary(const GpuStreamContext& ctx, BinaryOp op,
                        const Tensor& x, const Tensor& y) {
  const char* name = OpName(op);
  TF_RETURN_IF_ERROR(CheckInitialized(name, x, 0));
  TF_RETURN_IF_ERROR(CheckInitialized(name, y, 1));
  TF_RETURN_IF_ERROR(CheckSameDType(name, x, y));
  TF_RETURN_IF_ERROR(CheckTypes(name, TypesOf(op), x.dtype()));
  TensorShape shape = x.shape();
  if (x.shape() != y.shape()) {
    TF_ASSIGN_OR_RETURN(shape, kernels::BroadcastShapes(x.shape(), y.shape()));
  }
  TF_ASSIGN_OR_RETURN(
      Tensor out,
      Tensor::Allocate(ReturnsBool(op) ? DT_BOOL : x.dtype(), shape));
  if (out.NumElements() == 0) return out;
  BroadcastLoops loops;
  if (x.shape() == y.shape()) {
    loops.dims[0] = out.NumElements();
    loops.x_strides[0] = loops.y_strides[0] = 1;
  } else {
    const kernels::BroadcastPlan plan(x.shape(), y.shape(), shape);
    if (plan.dims.size() > BroadcastLoops::kMaxDims) {
      return errors::Unimplemented(name, " on the GPU broadcasts over at most ",
                                   BroadcastLoops::kMaxDims,
                                   " merged dimensions; ", x.shape(), " vs. ",
                                   y.shape(), " needs ", plan.dims.size());
    }
    loops.rank = static_cast<int>(plan.dims.size());
    for (int d = 0; d < loops.rank; ++d) {
      loops.dims[d] = plan.dims[d];
      loops.x_strides[d] = plan.x_strides[d];
      loops.y_strides[d] = plan.y_strides[d];
    }
  }
  TF_RETURN_IF_ERROR(ctx.kernels->Binary(ctx.stream, op, x.dtype(), In(x),
                                         In(y), Out(out), loops));
  return out;
}

StatusOr<Tensor> BiasAdd(const GpuStreamContext& ctx, const Tensor& value,
                         const Tensor& bias) {
  TF_RETURN_IF_ERROR(CheckInitialized("BiasAdd", value, 0));
  TF_RETURN_IF_ERROR(CheckInitialized("BiasAdd", bias, 1));
  // Chapter 1's checks of the shapes (checks.h), then its Add's of dtypes.
  TF_RETURN_IF_ERROR(kernels::CheckBiasAdd(value, bias));
  const int64_t channels = value.dim_size(value.dims() - 1);
  TF_RETURN_IF_ERROR(CheckSameDType("BiasAdd", value, bias));
  TF_RETURN_IF_ERROR(CheckTypes("BiasAdd", DTypeSet::kNumbers, value.dtype()));
  TF_ASSIGN_OR_RETURN(Tensor out,
                      Tensor::Allocate(value.dtype(), value.shape()));
  if (out.NumElements() == 0) return out;
  TF_RETURN_IF_ERROR(
      ctx.kernels->BiasAdd(ctx.stream, value.dtype(), In(value), In(bias),
                           Out(out), out.NumElements() / channels, channels));
  return out;
}

StatusOr<Tensor> Cast(const GpuStreamContext& ctx, const Tensor& x, DType to) {
  TF_RETURN_IF_ERROR(kernels::CheckCast(x, to));
  if (to == x.dtype()) return x;
  TF_ASSIGN_OR_RETURN(Tensor out, Tensor::Allocate(to, x.shape()));
  TF_RETURN_IF_ERROR(ctx.kernels->Cast(ctx.stream, x.dtype(), to, In(x),
                                       Out(out), x.NumElements()));
  return out;
}

StatusOr<Tensor> Fill(const GpuStreamContext& ctx, const TensorShape& shape,
                      const Tensor& value) {
  TF_ASSIGN_OR_RETURN(TensorShape checked,
                      kernels::CheckFill(shape.dim_sizes(), value));
  TF_ASSIGN_OR_RETURN(Tensor out, Tensor::Allocate(value.dtype(), checked));
  // The value is on the host: Fill passes it to the kernel by value.
  TF_RETURN_IF_ERROR(ctx.kernels->Fill(ctx.stream, value.dtype(),
                                       value.raw_data(), Out(out),
                                       out.NumElements()));
  return out;
}

namespace {

// out = a gather of x by strides (GpuKernels::StridedCopy), from x's element
// `offset` on: `loops` lists (size, x stride) innermost first, at most
// BroadcastLoops::kMaxDims. The start is a device address computed on the
// host, as pointer arithmetic on device memory may be.
Status GatherByStrides(const GpuStreamContext& ctx, const char* name,
                       const Tensor& x, Tensor* out,
                       std::vector<std::pair<int64_t, int64_t>> loops,
                       int64_t offset = 0) {
  if (out->NumElements() == 0) return Status::OK();
  if (loops.empty()) loops.emplace_back(1, 0);
  if (loops.size() > BroadcastLoops::kMaxDims) {
    return errors::Unimplemented(
        name, " on the GPU takes at most ", BroadcastLoops::kMaxDims,
        " loops; ", x.shape(), " to ", out->shape(), " needs ", loops.size());
  }
  BroadcastLoops strided;
  strided.rank = static_cast<int>(loops.size());
  for (int d = 0; d < strided.rank; ++d) {
    strided.dims[d] = loops[strided.rank - 1 - d].first;
    strided.x_strides[d] = loops[strided.rank - 1 - d].second;
  }
  const void* start =
      static_cast<const char*>(In(x)) + offset * DataTypeSize(x.dtype());
  return ctx.kernels->StridedCopy(ctx.stream, x.dtype(), start, Out(*out),
                                  strided);
}

}  // namespace

StatusOr<Tensor> Tile(const GpuStreamContext& ctx, const Tensor& x,
                      const std::vector<int64_t>& multiples) {
  TF_RETURN_IF_ERROR(CheckInitialized("Tile", x, 0));
  TF_ASSIGN_OR_RETURN(TensorShape shape,
                      kernels::CheckTile(x.shape(), multiples));
  TF_ASSIGN_OR_RETURN(Tensor out, Tensor::Allocate(x.dtype(), shape));
  // The output seen as [m0, d0, m1, d1, ...]: along m the input repeats
  // (stride 0), along d it advances. Axes of 1 take no loop.
  std::vector<std::pair<int64_t, int64_t>> loops;
  int64_t stride = 1;
  for (int d = x.dims() - 1; d >= 0; --d) {
    if (x.dim_size(d) > 1) loops.emplace_back(x.dim_size(d), stride);
    if (multiples[d] > 1) loops.emplace_back(multiples[d], 0);
    stride *= x.dim_size(d);
  }
  TF_RETURN_IF_ERROR(GatherByStrides(ctx, "Tile", x, &out, std::move(loops)));
  return out;
}

StatusOr<Tensor> BroadcastTo(const GpuStreamContext& ctx, const Tensor& x,
                             const std::vector<int64_t>& shape) {
  TF_RETURN_IF_ERROR(CheckInitialized("BroadcastTo", x, 0));
  TF_RETURN_IF_ERROR(kernels::CheckBroadcastTo(x.shape(), shape));
  const int rank = static_cast<int>(shape.size());
  const int skip = rank - x.dims();
  TF_ASSIGN_OR_RETURN(Tensor out,
                      Tensor::Allocate(x.dtype(), TensorShape(shape)));
  // One loop per output axis longer than 1: the input's stride there, or 0
  // where the input has 1 (or no axis) and repeats.
  std::vector<std::pair<int64_t, int64_t>> loops;
  int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    const int in = d - skip;
    const bool repeats = in < 0 || x.dim_size(in) == 1;
    if (shape[d] > 1) loops.emplace_back(shape[d], repeats ? 0 : stride);
    if (in >= 0) stride *= x.dim_size(in);
  }
  TF_RETURN_IF_ERROR(
      GatherByStrides(ctx, "BroadcastTo", x, &out, std::move(loops)));
  return out;
}

// ---------------------------------------------------------------------------
// Transpose, Concat, Stack and Slice: chapter 1's plans, copied by the GPU.

StatusOr<Tensor> Transpose(const GpuStreamContext& ctx, const Tensor& x,
                           const std::vector<int>& perm) {
  TF_ASSIGN_OR_RETURN(kernels::TransposePlan plan,
                      kernels::PlanTranspose(x, perm));
  TF_ASSIGN_OR_RETURN(Tensor out, Tensor::Allocate(x.dtype(), plan.out_shape));
  // The plan's walk of the input, innermost first, is the gather's loops.
  std::vector<std::pair<int64_t, int64_t>> loops;
  for (size_t j = plan.counts.size(); j-- > 0;) {
    loops.emplace_back(plan.counts[j], plan.strides[j]);
  }
  if (loops.size() <= 1) loops = {{x.NumElements(), 1}};
  TF_RETURN_IF_ERROR(
      GatherByStrides(ctx, "Transpose", x, &out, std::move(loops)));
  return out;
}

namespace {

// Each input's rows into its columns of out:[plan.outer, sum of chunks].
StatusOr<Tensor> Interleave(const GpuStreamContext& ctx,
                            const std::vector<Tensor>& values,
                            const kernels::ConcatPlan& plan) {
  TF_ASSIGN_OR_RETURN(Tensor out,
                      Tensor::Allocate(values[0].dtype(), plan.out_shape));
  if (out.NumElements() == 0) return out;
  const int64_t row = out.NumElements() / plan.outer;
  const int64_t element = DataTypeSize(out.dtype());
  int64_t column = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    void* at = static_cast<char*>(Out(out)) + column * element;
    TF_RETURN_IF_ERROR(ctx.kernels->CopyRows(ctx.stream, out.dtype(),
                                             In(values[i]), plan.chunks[i], at,
                                             row, plan.outer, plan.chunks[i]));
    column += plan.chunks[i];
  }
  return out;
}

}  // namespace

StatusOr<Tensor> Concat(const GpuStreamContext& ctx,
                        const std::vector<Tensor>& values, int axis) {
  TF_ASSIGN_OR_RETURN(kernels::ConcatPlan plan,
                      kernels::PlanConcat(values, axis));
  return Interleave(ctx, values, plan);
}

StatusOr<Tensor> Stack(const GpuStreamContext& ctx,
                       const std::vector<Tensor>& values, int axis) {
  TF_ASSIGN_OR_RETURN(kernels::ConcatPlan plan,
                      kernels::PlanStack(values, axis));
  return Interleave(ctx, values, plan);
}

StatusOr<Tensor> Slice(const GpuStreamContext& ctx, const Tensor& x,
                       const std::vector<int64_t>& begin,
                       const std::vector<int64_t>& size) {
  TF_ASSIGN_OR_RETURN(kernels::SlicePlan plan,
                      kernels::PlanSlice(x, begin, size));
  TF_ASSIGN_OR_RETURN(Tensor out, Tensor::Allocate(x.dtype(), plan.out_shape));
  if (out.NumElements() == 0) return out;
  // A gather from the slice's first element, along the output's axes longer
  // than 1, each with x's stride.
  std::vector<std::pair<int64_t, int64_t>> loops;
  for (int d = x.dims() - 1; d >= 0; --d) {
    if (out.dim_size(d) > 1) {
      loops.emplace_back(out.dim_size(d), plan.strides[d]);
    }
  }
  TF_RETURN_IF_ERROR(
      GatherByStrides(ctx, "Slice", x, &out, std::move(loops), plan.base));
  return out;
}

// ---------------------------------------------------------------------------
// Reductions.

StatusOr<Tensor> Reduce(const GpuStreamContext& ctx, ReduceOp op,
                        const Tensor& x, const kernels::Axes& axes,
                        bool keep_dims) {
  TF_RETURN_IF_ERROR(kernels::CheckNumeric(OpName(op), x.dtype()));
  TF_ASSIGN_OR_RETURN(kernels::ReductionPlan plan,
                      kernels::PlanReduction(x.shape(), axes, keep_dims));
  TF_ASSIGN_OR_RETURN(Tensor out, Tensor::Allocate(x.dtype(), plan.out_shape));
  if (out.NumElements() == 0) return out;
  if (plan.reduced_count == 0) {
    if (op == ReduceOp::kMean) {
      TF_RETURN_IF_ERROR(kernels::CheckMeanOfEmpty(x, plan.reduced_count));
    }
    TF_RETURN_IF_ERROR(FillIdentity(ctx, op, &out));
    return out;
  }
  TF_RETURN_IF_ERROR(RunReduction(ctx, op, x, plan, &out));
  return out;
}

StatusOr<Tensor> ArgMax(const GpuStreamContext& ctx, const Tensor& x, int axis,
                        DType output_type) {
  return ArgReduce(ctx, /*max=*/true, x, axis, output_type);
}

StatusOr<Tensor> ArgMin(const GpuStreamContext& ctx, const Tensor& x, int axis,
                        DType output_type) {
  return ArgReduce(ctx, /*max=*/false, x, axis, output_type);
}

// ---------------------------------------------------------------------------
// Softmax and the cross-entropy losses.

StatusOr<Tensor> Softmax(const GpuStreamContext& ctx, const Tensor& logits) {
  return SoftmaxKernel(ctx, /*log=*/false, logits);
}

StatusOr<Tensor> LogSoftmax(const GpuStreamContext& ctx, const Tensor& logits) {
  return SoftmaxKernel(ctx, /*log=*/true, logits);
}

namespace {

// The outputs of a softmax cross-entropy of logits:[rows, classes]:
// loss:[rows], and backprop shaped as the logits.
Status AllocateCrossEntropy(const Tensor& logits, Tensor* loss,
                            Tensor* backprop) {
  TF_ASSIGN_OR_RETURN(
      *loss,
      Tensor::Allocate(logits.dtype(), TensorShape({logits.dim_size(0)})));
  TF_ASSIGN_OR_RETURN(*backprop,
                      Tensor::Allocate(logits.dtype(), logits.shape()));
  return Status::OK();
}

}  // namespace

Status SoftmaxCrossEntropyWithLogits(const GpuStreamContext& ctx,
                                     const Tensor& logits, const Tensor& labels,
                                     Tensor* loss, Tensor* backprop) {
  const char* op = "SoftmaxCrossEntropyWithLogits";
  TF_RETURN_IF_ERROR(CheckInitialized(op, logits, 0));
  TF_RETURN_IF_ERROR(CheckInitialized(op, labels, 1));
  if (logits.dims() != 2 || labels.shape() != logits.shape()) {
    return errors::InvalidArgument(
        "logits and labels must be same size and 2-D: logits_size=",
        ShapeErrorString(logits.shape()),
        " labels_size=", ShapeErrorString(labels.shape()));
  }
  TF_RETURN_IF_ERROR(CheckSameDType(op, logits, labels));
  TF_RETURN_IF_ERROR(CheckTypes(op, DTypeSet::kReals, logits.dtype()));
  TF_RETURN_IF_ERROR(AllocateCrossEntropy(logits, loss, backprop));
  const int64_t rows = logits.dim_size(0);
  const int64_t classes = logits.dim_size(1);
  if (rows == 0) return Status::OK();
  return ctx.kernels->SoftmaxCrossEntropy(ctx.stream, logits.dtype(),
                                          In(logits), In(labels), Out(*loss),
                                          Out(*backprop), rows, classes);
}

Status SparseSoftmaxCrossEntropyWithLogits(const GpuStreamContext& ctx,
                                           const Tensor& logits,
                                           const Tensor& labels, Tensor* loss,
                                           Tensor* backprop) {
  const char* op = "SparseSoftmaxCrossEntropyWithLogits";
  TF_RETURN_IF_ERROR(CheckInitialized(op, logits, 0));
  TF_RETURN_IF_ERROR(CheckInitialized(op, labels, 1));
  if (logits.dims() != 2 || labels.dims() != 1 ||
      labels.dim_size(0) != logits.dim_size(0)) {
    return errors::InvalidArgument(
        "logits must be 2-D and labels 1-D with the same first dimension: "
        "logits_size=",
        ShapeErrorString(logits.shape()),
        " labels_size=", ShapeErrorString(labels.shape()));
  }
  TF_RETURN_IF_ERROR(CheckTypes(op, DTypeSet::kReals, logits.dtype()));
  if (labels.dtype() != DT_INT32 && labels.dtype() != DT_INT64) {
    return errors::InvalidArgument("No ", op, " kernel for labels of dtype ",
                                   labels.dtype(), " (int32 or int64)");
  }
  TF_RETURN_IF_ERROR(AllocateCrossEntropy(logits, loss, backprop));
  const int64_t rows = logits.dim_size(0);
  const int64_t classes = logits.dim_size(1);
  if (rows == 0) return Status::OK();
  return ctx.kernels->SparseSoftmaxCrossEntropy(
      ctx.stream, logits.dtype(), labels.dtype(), In(logits), In(labels),
      Out(*loss), Out(*backprop), rows, classes);
}

// ---------------------------------------------------------------------------
// MatMul.

StatusOr<Tensor> MatMul(const GpuStreamContext& ctx, const Tensor& a,
                        const Tensor& b, bool transpose_a, bool transpose_b) {
  TF_RETURN_IF_ERROR(CheckInitialized("MatMul", a, 0));
  TF_RETURN_IF_ERROR(CheckInitialized("MatMul", b, 1));
  // Chapter 1's checks (checks.h), in its order.
  TF_RETURN_IF_ERROR(kernels::CheckMatMulOperands(a, b));
  if (!DataTypeIsFloating(a.dtype())) {
    return errors::InvalidArgument("MatMul has no GPU kernel for dtype ",
                                   a.dtype(), " (float, double)");
  }
  TF_ASSIGN_OR_RETURN(kernels::MatMulSizes sizes,
                      kernels::MatMulSizesOf(a, b, transpose_a, transpose_b));
  const int64_t m = sizes.m, n = sizes.n, k = sizes.k;
  TF_ASSIGN_OR_RETURN(Tensor out,
                      Tensor::Allocate(a.dtype(), TensorShape({m, n})));
  if (out.NumElements() == 0) return out;
  const GpuKernels& kernels = *ctx.kernels;
  TF_ASSIGN_OR_RETURN(
      Tensor scratch,
      Scratch(a.dtype(), kernels.MatMulScratchBytes(a.dtype(), m, n, k,
                                                    transpose_a, transpose_b)));
  TF_RETURN_IF_ERROR(kernels.MatMul(
      ctx.stream, a.dtype(), In(a), In(b), Out(out), m, n, k, transpose_a,
      transpose_b, scratch.NumElements() > 0 ? Out(scratch) : nullptr));
  return out;
}

// ---------------------------------------------------------------------------
// Optimizer updates.

Status ApplyGradientDescent(const GpuStreamContext& ctx, Tensor* var,
                            const Tensor& alpha, const Tensor& delta) {
  TF_RETURN_IF_ERROR(CheckApply("ApplyGradientDescent", *var,
                                {{&delta, "delta"}}, {{&alpha, "alpha"}}));
  return ctx.kernels->ApplyGradientDescent(ctx.stream, var->dtype(), Out(*var),
                                           In(alpha), In(delta),
                                           var->NumElements());
}

Status ApplyMomentum(const GpuStreamContext& ctx, Tensor* var, Tensor* accum,
                     const Tensor& lr, const Tensor& grad,
                     const Tensor& momentum, bool use_nesterov) {
  TF_RETURN_IF_ERROR(CheckApply("ApplyMomentum", *var,
                                {{accum, "accum"}, {&grad, "grad"}},
                                {{&lr, "lr"}, {&momentum, "momentum"}}));
  return ctx.kernels->ApplyMomentum(ctx.stream, var->dtype(), Out(*var),
                                    Out(*accum), In(lr), In(grad), In(momentum),
                                    use_nesterov, var->NumElements());
}

Status ApplyAdam(const GpuStreamContext& ctx, Tensor* var, Tensor* m, Tensor* v,
                 const Tensor& beta1_power, const Tensor& beta2_power,
                 const Tensor& lr, const Tensor& beta1, const Tensor& beta2,
                 const Tensor& epsilon, const Tensor& grad, bool use_nesterov) {
  TF_RETURN_IF_ERROR(CheckApply("ApplyAdam", *var,
                                {{m, "m"}, {v, "v"}, {&grad, "grad"}},
                                {{&beta1_power, "beta1_power"},
                                 {&beta2_power, "beta2_power"},
                                 {&lr, "lr"},
                                 {&beta1, "beta1"},
                                 {&beta2, "beta2"},
                                 {&epsilon, "epsilon"}}));
  return ctx.kernels->ApplyAdam(ctx.stream, var->dtype(), Out(*var), Out(*m),
                                Out(*v), In(beta1_power), In(beta2_power),
                                In(lr), In(beta1), In(beta2), In(epsilon),
                                In(grad), use_nesterov, var->NumElements());
}

Status ApplyRMSProp(const GpuStreamContext& ctx, Tensor* var, Tensor* ms,
                    Tensor* mom, const Tensor& lr, const Tensor& rho,
                    const Tensor& momentum, const Tensor& epsilon,
                    const Tensor& grad) {
  TF_RETURN_IF_ERROR(CheckApply("ApplyRMSProp", *var,
                                {{ms, "ms"}, {mom, "mom"}, {&grad, "grad"}},
                                {{&lr, "lr"},
                                 {&rho, "rho"},
                                 {&momentum, "momentum"},
                                 {&epsilon, "epsilon"}}));
  return ctx.kernels->ApplyRMSProp(
      ctx.stream, var->dtype(), Out(*var), Out(*ms), Out(*mom), In(lr), In(rho),
      In(momentum), In(epsilon), In(grad), var->NumElements());
}

}  // namespace minitf::gpu
