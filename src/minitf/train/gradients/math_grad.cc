// Gradients of the arithmetic, reduction and linear-algebra ops
// (graph/ops/math_ops.h), as TensorFlow's math_grad.py. Each takes the
// forward op and dL/d(output) and builds dL/d(input) for every input.
#include <algorithm>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/train/gradients/grad_util.h"
#include "minitf/train/gradients/gradients.h"
#include "minitf/train/ops/grad_ops.h"

namespace minitf {
namespace {

using Grads = std::vector<Output>;

// Elementwise binary ops: the local derivatives, then the broadcast
// reduction back to each input's shape.
Grads Binary(const Operation& op, Output gx, Output gy) {
  auto [rx, ry] = grad::ReduceBroadcast(gx, gy, op.input(0), op.input(1));
  return {rx, ry};
}

// TensorFlow's _ShapesFullySpecifiedAndEqual: nothing was broadcast and
// every shape is known, so no reduction is built at all.
bool SameFullShapes(const Output& x, const Output& y, const Output& g) {
  return x.shape().IsFullyDefined() && x.shape() == y.shape() &&
         x.shape() == g.shape();
}

Grads AddGrad(const Operation& op, const Grads& g) {
  if (SameFullShapes(op.input(0), op.input(1), g[0])) return {g[0], g[0]};
  return Binary(op, g[0], g[0]);
}
Grads SubGrad(const Operation& op, const Grads& g) {
  if (SameFullShapes(op.input(0), op.input(1), g[0])) {
    return {g[0], negative(g[0])};
  }
  return Binary(op, g[0], negative(g[0]));
}
Grads MulGrad(const Operation& op, const Grads& g) {
  Output x = op.input(0), y = op.input(1);
  if (SameFullShapes(x, y, g[0]) &&
      (g[0].dtype() == DT_FLOAT || g[0].dtype() == DT_INT32)) {
    return {multiply(g[0], y), multiply(g[0], x)};
  }
  Output gx = multiply(g[0], y);
  Output gy = multiply(x, g[0]);
  return Binary(op, gx, gy);
}
// z = x / y: dz/dx = 1/y, dz/dy = -x/y^2.
Grads RealDivGrad(const Operation& op, const Grads& g) {
  Output x = op.input(0), y = op.input(1);
  return Binary(op, g[0] / y, g[0] * (negative(x) / y / y));
}
// Maximum passes the gradient to the input that won (x on ties), Minimum
// likewise.
Grads SelectGrad(const Operation& op, const Grads& g, bool is_max) {
  Output x = op.input(0), y = op.input(1);
  Output x_wins =
      cast(is_max ? greater_equal(x, y) : less_equal(x, y), g[0].dtype());
  return Binary(op, g[0] * x_wins, g[0] * (1.0 - x_wins));
}

Grads NegGrad(const Operation&, const Grads& g) { return {negative(g[0])}; }
// 2x is built after g is ready (a control edge on the Const), as
// TensorFlow does, so it does not take memory early.
Grads SquareGrad(const Operation& op, const Grads& g) {
  control_dependencies after({g[0]});
  Output two = internal::ScalarConst(2.0, op.input(0).dtype(), "Const");
  return {multiply(g[0], multiply(op.input(0), two))};
}
Grads SqrtGrad(const Operation& op, const Grads& g) {
  return {g[0] * (0.5 / op.output(0))};
}
Grads ExpGrad(const Operation& op, const Grads& g) {
  return {g[0] * op.output(0)};
}
Grads LogGrad(const Operation& op, const Grads& g) {
  control_dependencies after({g[0]});
  return {g[0] * reciprocal(op.input(0))};
}
// y = 1/x: dy/dx = -y^2.
Grads ReciprocalGrad(const Operation& op, const Grads& g) {
  Output y = op.output(0);
  return {negative(g[0]) * (y * y)};
}
Grads AbsGrad(const Operation& op, const Grads& g) {
  return {g[0] * sign(op.input(0))};
}
// Sign is flat almost everywhere: a zero gradient, as TensorFlow gives.
Grads SignGrad(const Operation& op, const Grads&) {
  return {zeros_like(op.input(0))};
}
Grads SigmoidGrad(const Operation& op, const Grads& g) {
  Output y = op.output(0);
  return {g[0] * (y * (1.0 - y))};
}
Grads TanhGrad(const Operation& op, const Grads& g) {
  Output y = op.output(0);
  return {g[0] * (1.0 - y * y)};
}

// --8<-- [start:matmul_grad]
// C = A B: dA = dC B^T, dB = A^T dC; the transposes of the forward op move
// into the products so that no Transpose node is built.
Grads MatMulGrad(const Operation& op, const Grads& g) {
  const bool ta = GetAttr<bool>(op.node()->attrs(), "transpose_a").value();
  const bool tb = GetAttr<bool>(op.node()->attrs(), "transpose_b").value();
  Output a = op.input(0), b = op.input(1), dc = g[0];
  if (!ta && !tb) return {matmul(dc, b, false, true), matmul(a, dc, true)};
  if (!ta && tb) return {matmul(dc, b), matmul(dc, a, true)};
  if (ta && !tb) return {matmul(b, dc, false, true), matmul(a, dc)};
  return {matmul(b, dc, true, true), matmul(dc, a, true, true)};
}
// --8<-- [end:matmul_grad]

// --8<-- [start:sum_grad]
// Sum: every input element contributed once, so the gradient is g put back
// with the reduced axes as 1s and repeated over x's shape. Reducing all
// axes, the 1s are known now and Tile repeats; otherwise reduced_shape
// computes them at run time and BroadcastTo repeats.
Output SumBack(const Operation& op, Output g) {
  Output x = op.input(0);
  const TensorShape& sx = x.shape();
  auto axes = grad::ConstIndices(op.input(1));
  if (!sx.unknown_rank() && axes.has_value()) {
    bool all = static_cast<int>(axes->size()) == sx.dims();
    for (size_t i = 0; all && i < axes->size(); ++i) {
      all = (*axes)[i] == static_cast<int64_t>(i);
    }
    if (all) {
      Output kept = reshape(g, std::vector<int64_t>(sx.dims(), 1));
      return tile(kept, shape(x));
    }
    if (sx.IsFullyDefined()) {
      // Every shape known: the kept shape and the repeats are Consts.
      std::vector<int64_t> kept(sx.dims()), repeats(sx.dims(), 1);
      for (int i = 0; i < sx.dims(); ++i) kept[i] = sx.dim_size(i);
      for (int64_t a : *axes) {
        const int64_t axis = a < 0 ? a + sx.dims() : a;
        repeats[axis] = kept[axis];
        kept[axis] = 1;
      }
      Output reshaped = reshape(g, kept);
      ops::OpScope scope("", "Tile", {reshaped});
      Output multiples =
          constant(errors::ValueOrThrow(Tensor::FromVector(
                       std::vector<int32_t>(repeats.begin(), repeats.end()),
                       TensorShape({sx.dims()}))),
                   "multiples");
      return tile(reshaped, multiples, scope.op_name() + "/");
    }
  }
  Output input_shape = shape(x);
  if (!GetAttr<bool>(op.node()->attrs(), "keep_dims").value()) {
    Output kept_shape;
    {
      colocate_with with_shape(input_shape.op());
      kept_shape = grad::ReducedShape(input_shape, op.input(1));
    }
    g = grad::ReshapeTo(g, kept_shape);
  }
  return broadcast_to(g, input_shape);
}
// --8<-- [end:sum_grad]
Grads SumGrad(const Operation& op, const Grads& g) {
  return {SumBack(op, g[0]), Output()};
}
// Mean: Sum's gradient divided by how many elements each output averaged,
// the product of the reduced dims of x's run-time shape.
Grads MeanGrad(const Operation& op, const Grads& g) {
  Output sum_grad = SumBack(op, g[0]);
  const TensorShape& in = op.input(0).shape();
  const TensorShape& out = op.output(0).shape();
  if (in.IsFullyDefined() && out.IsFullyDefined()) {
    const int64_t factor =
        in.num_elements() / std::max<int64_t>(out.num_elements(), 1);
    Output f = internal::ScalarConst(static_cast<double>(factor),
                                     sum_grad.dtype(), "Const");
    return {sum_grad / f, Output()};
  }
  Output input_shape = shape(op.input(0));
  Output input_rank = size(input_shape);
  Output axes = cast(op.input(1), input_rank.dtype());
  axes = floormod(axes + input_rank, input_rank, "mod");
  Output factor = reduce_prod(gather(input_shape, axes));
  return {sum_grad / cast(factor, sum_grad.dtype()), Output()};
}
// Max and Min: the gradient is shared evenly by the elements equal to the
// result.
Grads MinOrMaxGrad(const Operation& op, const Grads& g) {
  Output kept_shape = grad::KeptShape(op.input(0), grad::ReductionAxes(op));
  Output y = grad::ReshapeTo(op.output(0), kept_shape);
  Output hits = cast(equal(y, op.input(0)), g[0].dtype());
  Output count = grad::SumOver(hits, op.input(1), /*keep_dims=*/true);
  return {hits / count * grad::ReshapeTo(g[0], kept_shape), Output()};
}
// Prod: d(prod)/dx_i = prod / x_i. REQUIRES nonzero inputs (TensorFlow
// uses cumulative products to allow zeros).
Grads ProdGrad(const Operation& op, const Grads& g) {
  Output kept_shape = grad::KeptShape(op.input(0), grad::ReductionAxes(op));
  Output y = grad::ReshapeTo(op.output(0), kept_shape);
  return {grad::ReshapeTo(g[0], kept_shape) * y / op.input(0), Output()};
}

// Cast between floating types passes the gradient back in the input's type;
// to or from an integer there is none.
Grads CastGrad(const Operation& op, const Grads& g) {
  const DType src = op.input(0).dtype(), dst = op.output(0).dtype();
  const bool floats = (src == DT_FLOAT || src == DT_DOUBLE) &&
                      (dst == DT_FLOAT || dst == DT_DOUBLE);
  return {floats ? cast(g[0], src) : Output()};
}
Grads AddNGrad(const Operation& op, const Grads& g) {
  return Grads(op.num_inputs(), g[0]);
}

}  // namespace

MINITF_REGISTER_GRADIENT("Add", AddGrad);
MINITF_REGISTER_GRADIENT("AddV2", AddGrad);
MINITF_REGISTER_GRADIENT("Sub", SubGrad);
MINITF_REGISTER_GRADIENT("Mul", MulGrad);
MINITF_REGISTER_GRADIENT("RealDiv", RealDivGrad);
MINITF_REGISTER_GRADIENT("Div", RealDivGrad);
MINITF_REGISTER_GRADIENT("Maximum", [](const Operation& op, const Grads& g) {
  return SelectGrad(op, g, true);
});
MINITF_REGISTER_GRADIENT("Minimum", [](const Operation& op, const Grads& g) {
  return SelectGrad(op, g, false);
});
MINITF_REGISTER_GRADIENT("Neg", NegGrad);
MINITF_REGISTER_GRADIENT("Square", SquareGrad);
MINITF_REGISTER_GRADIENT("Sqrt", SqrtGrad);
MINITF_REGISTER_GRADIENT("Exp", ExpGrad);
MINITF_REGISTER_GRADIENT("Log", LogGrad);
MINITF_REGISTER_GRADIENT("Abs", AbsGrad);
MINITF_REGISTER_GRADIENT("Reciprocal", ReciprocalGrad);
MINITF_REGISTER_GRADIENT("Sign", SignGrad);
MINITF_REGISTER_GRADIENT("Sigmoid", SigmoidGrad);
MINITF_REGISTER_GRADIENT("Tanh", TanhGrad);
MINITF_REGISTER_GRADIENT("MatMul", MatMulGrad);
MINITF_REGISTER_GRADIENT("Sum", SumGrad);
MINITF_REGISTER_GRADIENT("Mean", MeanGrad);
MINITF_REGISTER_GRADIENT("Max", MinOrMaxGrad);
MINITF_REGISTER_GRADIENT("Min", MinOrMaxGrad);
MINITF_REGISTER_GRADIENT("Prod", ProdGrad);
MINITF_REGISTER_GRADIENT("Cast", CastGrad);
MINITF_REGISTER_GRADIENT("AddN", AddNGrad);

MINITF_NOT_DIFFERENTIABLE("Equal");
MINITF_NOT_DIFFERENTIABLE("NotEqual");
MINITF_NOT_DIFFERENTIABLE("Less");
MINITF_NOT_DIFFERENTIABLE("LessEqual");
MINITF_NOT_DIFFERENTIABLE("Greater");
MINITF_NOT_DIFFERENTIABLE("GreaterEqual");
MINITF_NOT_DIFFERENTIABLE("LogicalAnd");
MINITF_NOT_DIFFERENTIABLE("LogicalOr");
MINITF_NOT_DIFFERENTIABLE("LogicalNot");
MINITF_NOT_DIFFERENTIABLE("ArgMax");
MINITF_NOT_DIFFERENTIABLE("ArgMin");

}  // namespace minitf
