#include "minitf/train/gradients/grad_util.h"

#include <algorithm>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/shape_inference.h"
#include "minitf/train/ops/grad_ops.h"

namespace minitf::grad {

Output IntVector(const std::vector<int32_t>& values) {
  return constant(errors::ValueOrThrow(Tensor::FromVector(
      values, TensorShape({static_cast<int64_t>(values.size())}))));
}

std::optional<std::vector<int64_t>> ConstIndices(const Output& t) {
  if (!t.node()->IsConstant()) return std::nullopt;
  auto value = GetAttr<Tensor>(t.node()->attrs(), "value");
  if (!value.ok()) return std::nullopt;
  auto v = IndexValues(value.value());
  if (!v.ok()) return std::nullopt;
  return v.value();
}

Output SumOver(Output x, Output axes, bool keep_dims) {
  return ops::AddOp(
      NodeBuilder("Sum").Input(x).Input(axes).Attr("keep_dims", keep_dims),
      {x, axes});
}

Output ReshapeTo(Output x, Output shape) {
  return ops::AddOp(NodeBuilder("Reshape").Input(x).Input(shape), {x, shape});
}

// --8<-- [start:reduce_broadcast]
namespace {

// TensorFlow's _InferGradientReductionAxes: the axes broadcasting stretched
// for x and for y, when the static shapes decide it; nullopt when a dim that
// matters is unknown (then only the run-time shapes can tell).
std::optional<std::pair<std::vector<int>, std::vector<int>>> StaticAxes(
    const TensorShape& sx, const TensorShape& sy) {
  if (sx.unknown_rank() || sy.unknown_rank()) return std::nullopt;
  const int rank = std::max(sx.dims(), sy.dims());
  std::vector<int> ax, ay;
  for (int axis = 0; axis < rank; ++axis) {
    const int ix = axis - (rank - sx.dims()), iy = axis - (rank - sy.dims());
    const int64_t dx = ix < 0 ? 1 : sx.dim_size(ix);
    const int64_t dy = iy < 0 ? 1 : sy.dim_size(iy);
    if (dx == 1 && dy != 1) {
      ax.push_back(axis);
    } else if (dy == 1 && dx != 1) {
      ay.push_back(axis);
    } else if (dx == None || dy == None) {
      return std::nullopt;
    }
  }
  return std::make_pair(ax, ay);
}

}  // namespace

// TensorFlow's SmartBroadcastGradientArgs and _ReduceGradientArg: the
// shapes of x and y always; the axes to sum over from the static shapes
// when they decide it (a Const), else from BroadcastGradientArgs at run
// time. A gradient is summed (keeping dims) and reshaped only when its
// input was broadcast.
std::pair<Output, Output> ReduceBroadcast(Output gx, Output gy, Output x,
                                          Output y) {
  if (!gx.valid() && !gy.valid()) return {gx, gy};
  Output shape_x = shape(x), shape_y = shape(y);
  auto reduce = [](Output g, Output shape_g, auto axes) {
    return ReshapeTo(reduce_sum(g, axes, /*keep_dims=*/true), shape_g);
  };
  const TensorShape& sx = x.shape();
  const TensorShape& sy = y.shape();
  if (auto axes = StaticAxes(sx, sy)) {
    if (gx.valid() && (!axes->first.empty() || sx.dims() < sy.dims())) {
      gx = reduce(gx, shape_x, axes->first);
    }
    if (gy.valid() && (!axes->second.empty() || sy.dims() < sx.dims())) {
      gy = reduce(gy, shape_y, axes->second);
    }
    return {gx, gy};
  }
  Node* args = ops::AddNode(
      NodeBuilder("BroadcastGradientArgs").Input(shape_x).Input(shape_y),
      {shape_x, shape_y});
  if (gx.valid()) {
    gx = ReshapeTo(SumOver(gx, Output(args, 0), /*keep_dims=*/true), shape_x);
  }
  if (gy.valid()) {
    gy = ReshapeTo(SumOver(gy, Output(args, 1), /*keep_dims=*/true), shape_y);
  }
  return {gx, gy};
}
// --8<-- [end:reduce_broadcast]

Output KeptShape(Output x, const std::vector<int64_t>& axes) {
  const int rank = x.shape().dims();
  std::vector<int32_t> keep(rank, 1), ones(rank, 0);
  for (int64_t a : axes) {
    const int64_t axis = a < 0 ? a + rank : a;
    keep[axis] = 0;
    ones[axis] = 1;
  }
  // shape(x) * keep + ones: x's dims, with 1 at each reduced axis.
  return shape(x) * IntVector(keep) + IntVector(ones);
}

Output ReducedShape(Output input_shape, Output axes) {
  Output input_rank = size(input_shape);
  axes = floormod(axes + input_rank, input_rank, "mod");
  Output axes_shape = shape(axes);
  Output positions = range(0, input_rank);
  Output ones;
  {
    ops::OpScope scope("", "ones", {axes_shape});
    Output one = constant(Tensor(int32_t{1}), "Const");
    ones = ops::AddOp(NodeBuilder("Fill", scope.op_name())
                          .ExactName()
                          .Input(axes_shape)
                          .Input(one),
                      {axes_shape, one});
  }
  return dynamic_stitch({positions, axes}, {input_shape, ones});
}

std::vector<int64_t> ReductionAxes(const Operation& op) {
  const int rank = op.input(0).shape().dims();
  auto axes = ConstIndices(op.input(1));
  if (!axes.has_value() || rank < 0) {
    throw errors::UnimplementedError(
        StrCat("Gradient of ", op.type(), " '", op.name(),
               "' needs constant axes and an input of known rank"));
  }
  for (int64_t& a : *axes) a = a < 0 ? a + rank : a;
  return *axes;
}

}  // namespace minitf::grad
