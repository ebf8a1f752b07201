// Gradients of the ops that move elements (graph/ops/array_ops.h), as
// TensorFlow's array_grad.py: each routes the gradient back to where the
// element came from.
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/train/gradients/grad_util.h"
#include "minitf/train/gradients/gradients.h"
#include "minitf/train/ops/grad_ops.h"

namespace minitf {
namespace {

using Grads = std::vector<Output>;

Output SliceOf(Output x, Output begin, Output size) {
  return ops::AddOp(NodeBuilder("Slice").Input(x).Input(begin).Input(size),
                    {x, begin, size});
}

Grads IdentityGrad(const Operation&, const Grads& g) { return {g[0]}; }
// Reshape back to the input's shape: a Const when at most one dim is
// unknown (as -1), a Shape op otherwise.
Grads ReshapeGrad(const Operation& op, const Grads& g) {
  const TensorShape& in = op.input(0).shape();
  if (!in.unknown_rank() && !in.IsFullyDefined()) {
    std::vector<int64_t> dims(in.dims());
    int unknown = 0;
    bool has_zero = false;
    for (int i = 0; i < in.dims(); ++i) {
      dims[i] = in.dim_size(i);
      unknown += dims[i] == None;
      has_zero |= dims[i] == 0;
    }
    if (unknown == 1 && !has_zero) return {reshape(g[0], dims), Output()};
  }
  return {grad::ReshapeTo(g[0], shape(op.input(0))), Output()};
}
Grads ExpandDimsGrad(const Operation& op, const Grads& g) {
  return {grad::ReshapeTo(g[0], shape(op.input(0))), Output()};
}
// Transpose by perm is undone by transpose by perm's inverse.
Grads TransposeGrad(const Operation& op, const Grads& g) {
  auto perm = grad::ConstIndices(op.input(1));
  if (!perm.has_value()) {
    throw errors::UnimplementedError(
        StrCat("Gradient of Transpose '", op.name(), "' needs a Const perm"));
  }
  std::vector<int> inverse(perm->size());
  for (size_t i = 0; i < perm->size(); ++i) inverse[(*perm)[i]] = i;
  return {transpose(g[0], inverse), Output()};
}

// --8<-- [start:concat_grad]
// Input i of a concat along `axis` is the slice of g that starts where the
// inputs before it end: begin = (sum of their shapes) * onehot(axis), size =
// shape(input i). Computed from Shape ops, so unknown dims work.
Grads ConcatGrad(const Operation& op, const Grads& g) {
  const int n = op.num_inputs() - 1;
  auto axis_value = grad::ConstIndices(op.input(n));
  const int rank = op.input(0).shape().dims();
  if (!axis_value.has_value() || rank < 0) {
    throw errors::UnimplementedError(
        StrCat("Gradient of ConcatV2 '", op.name(),
               "' needs a Const axis and inputs of known rank"));
  }
  const int axis =
      (*axis_value)[0] < 0 ? (*axis_value)[0] + rank : (*axis_value)[0];
  std::vector<int32_t> onehot(rank, 0);
  onehot[axis] = 1;
  Output mask = grad::IntVector(onehot);
  Output begin = grad::IntVector(std::vector<int32_t>(rank, 0));
  Grads result;
  for (int i = 0; i < n; ++i) {
    Output size = shape(op.input(i));
    result.push_back(SliceOf(g[0], begin, size));
    begin = begin + size * mask;
  }
  result.push_back(Output());
  return result;
}
// --8<-- [end:concat_grad]

// Pack (tf.stack) along `axis`: input i is the slice at position i of that
// axis, reshaped to drop it.
Grads PackGrad(const Operation& op, const Grads& g) {
  const int rank = op.output(0).shape().dims();
  const int64_t axis_attr =
      GetAttr<int64_t>(op.node()->attrs(), "axis").value();
  const int axis = axis_attr < 0 ? axis_attr + rank : axis_attr;
  std::vector<int32_t> keep(rank, 1), onehot(rank, 0);
  keep[axis] = 0;
  onehot[axis] = 1;
  Output size = shape(g[0]) * grad::IntVector(keep) + grad::IntVector(onehot);
  Grads result;
  for (int i = 0; i < op.num_inputs(); ++i) {
    std::vector<int32_t> begin(rank, 0);
    begin[axis] = i;
    result.push_back(grad::ReshapeTo(
        SliceOf(g[0], grad::IntVector(begin), size), shape(op.input(i))));
  }
  return result;
}

// Slice: g goes back to its place in a zero tensor of x's shape, padded by
// `begin` before and shape(x) - begin - shape(g) after each axis.
Grads SliceGrad(const Operation& op, const Grads& g) {
  Output x = op.input(0);
  Output begin = cast(op.input(1), DT_INT32);
  Output after = shape(x) - begin - shape(op.output(0));
  Output paddings = stack({begin, after}, 1);
  return {pad(g[0], paddings), Output(), Output()};
}

// Tile: each input element was copied once per repeat, so its gradient sums
// those copies: g reshaped to [m0,d0,m1,d1,...] summed over the m axes.
Grads TileGrad(const Operation& op, const Grads& g) {
  const int rank = op.input(0).shape().dims();
  if (rank < 0) {
    throw errors::UnimplementedError(StrCat("Gradient of Tile '", op.name(),
                                            "' needs an input of known rank"));
  }
  Output multiples = cast(op.input(1), DT_INT32);
  Output pairs = transpose(stack({multiples, shape(op.input(0))}));
  Output split_shape = reshape(pairs, {-1});
  std::vector<int> axes;
  for (int i = 0; i < rank; ++i) axes.push_back(2 * i);
  return {reduce_sum(grad::ReshapeTo(g[0], split_shape), axes), Output()};
}

// BroadcastTo: summed over the axes broadcasting stretched, as Add's.
Grads BroadcastToGrad(const Operation& op, const Grads& g) {
  Output input_shape = shape(op.input(0));
  Output broadcast_shape = cast(op.input(1), DT_INT32);
  Node* args = ops::AddNode(NodeBuilder("BroadcastGradientArgs")
                                .Input(broadcast_shape)
                                .Input(input_shape),
                            {broadcast_shape, input_shape});
  Output summed = grad::SumOver(g[0], Output(args, 1), /*keep_dims=*/true);
  return {grad::ReshapeTo(summed, input_shape), Output()};
}

}  // namespace

MINITF_REGISTER_GRADIENT("Tile", TileGrad);
MINITF_REGISTER_GRADIENT("BroadcastTo", BroadcastToGrad);
MINITF_REGISTER_GRADIENT("Identity", IdentityGrad);
MINITF_REGISTER_GRADIENT("Reshape", ReshapeGrad);
MINITF_REGISTER_GRADIENT("ExpandDims", ExpandDimsGrad);
MINITF_REGISTER_GRADIENT("Transpose", TransposeGrad);
MINITF_REGISTER_GRADIENT("ConcatV2", ConcatGrad);
MINITF_REGISTER_GRADIENT("Pack", PackGrad);
MINITF_REGISTER_GRADIENT("Slice", SliceGrad);

MINITF_NOT_DIFFERENTIABLE("Const");
MINITF_NOT_DIFFERENTIABLE("Placeholder");
MINITF_NOT_DIFFERENTIABLE("Shape");
MINITF_NOT_DIFFERENTIABLE("Size");
MINITF_NOT_DIFFERENTIABLE("Rank");
MINITF_NOT_DIFFERENTIABLE("Fill");
MINITF_NOT_DIFFERENTIABLE("ZerosLike");
MINITF_NOT_DIFFERENTIABLE("OnesLike");
MINITF_NOT_DIFFERENTIABLE("OneHot");
MINITF_NOT_DIFFERENTIABLE("BroadcastGradientArgs");
MINITF_NOT_DIFFERENTIABLE("Range");

}  // namespace minitf
