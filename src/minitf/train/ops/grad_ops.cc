#include "minitf/train/ops/grad_ops.h"

#include <algorithm>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/shape_inference.h"

namespace minitf {
namespace {

// Paddings known when the graph is built give a known output shape.
Status PadShape(InferenceContext* c) {
  const TensorShape& in = c->input(0);
  if (in.unknown_rank()) return shape_fns::UnknownShape(c);
  c->set_output(0, TensorShape(std::vector<int64_t>(in.dims(), None)));
  return Status::OK();
}

// Both losses: features (logits) [batch,classes] -> loss [batch], backprop
// [batch,classes].
Status XentShape(InferenceContext* c) {
  TensorShape logits;
  TF_RETURN_IF_ERROR(InferenceContext::WithRank(c->input(0), 2, &logits));
  const int64_t batch = logits.unknown_rank() ? None : logits.dim_size(0);
  c->set_output(0, TensorShape({batch}));
  c->set_output(1, logits);
  return Status::OK();
}

Status BroadcastGradientArgsShape(InferenceContext* c) {
  c->set_output(0, TensorShape({None}));
  c->set_output(1, TensorShape({None}));
  return Status::OK();
}

// Tile: each known dim times its known multiple.
Status TileShape(InferenceContext* c) {
  const TensorShape& in = c->input(0);
  const Tensor* multiples = c->input_tensor(1);
  if (in.unknown_rank()) return shape_fns::UnknownShape(c);
  std::vector<int64_t> dims(in.dims(), None);
  if (multiples != nullptr) {
    TF_ASSIGN_OR_RETURN(std::vector<int64_t> m, IndexValues(*multiples));
    if (static_cast<int>(m.size()) != in.dims()) {
      return errors::InvalidArgument(
          "Shape must be rank ", in.dims(), " but is rank ", m.size(),
          " for multiples of Tile on input ", ShapeErrorString(in));
    }
    for (int i = 0; i < in.dims(); ++i) {
      if (in.dim_size(i) != None) dims[i] = in.dim_size(i) * m[i];
    }
  }
  c->set_output(0, TensorShape(dims));
  return Status::OK();
}

// BroadcastTo and Range: the shape input, read when it is a constant.
Status ShapeFromInput1(InferenceContext* c) {
  TensorShape out;
  TF_RETURN_IF_ERROR(c->MakeShapeFromInput(1, &out));
  c->set_output(0, out);
  return Status::OK();
}

Status ExpandDimsShape(InferenceContext* c) {
  const TensorShape& in = c->input(0);
  const Tensor* dim = c->input_tensor(1);
  if (in.unknown_rank() || dim == nullptr) return shape_fns::UnknownShape(c);
  TF_ASSIGN_OR_RETURN(std::vector<int64_t> d, IndexValues(*dim));
  const int rank = in.dims() + 1;
  if (d.size() != 1 || d[0] < -rank || d[0] >= rank) {
    return errors::InvalidArgument("Tried to expand dim index ",
                                   d.empty() ? 0 : d[0], " for tensor with ",
                                   in.dims(), " dimensions.");
  }
  const int axis = static_cast<int>(d[0] < 0 ? d[0] + rank : d[0]);
  std::vector<int64_t> dims;
  for (int i = 0; i < in.dims(); ++i) dims.push_back(in.dim_size(i));
  dims.insert(dims.begin() + axis, 1);
  c->set_output(0, TensorShape(dims));
  return Status::OK();
}

// GatherV2 with batch_dims 0: params.shape[:axis] + indices.shape +
// params.shape[axis+1:].
Status GatherShape(InferenceContext* c) {
  const TensorShape& params = c->input(0);
  const TensorShape& indices = c->input(1);
  const Tensor* axis_t = c->input_tensor(2);
  if (params.unknown_rank() || indices.unknown_rank() || axis_t == nullptr) {
    return shape_fns::UnknownShape(c);
  }
  TF_ASSIGN_OR_RETURN(std::vector<int64_t> a, IndexValues(*axis_t));
  const int64_t axis = a[0] < 0 ? a[0] + params.dims() : a[0];
  if (axis < 0 || axis >= params.dims()) {
    return errors::InvalidArgument("Expected axis in the range [",
                                   -params.dims(), ", ", params.dims(),
                                   "), but got ", a[0]);
  }
  std::vector<int64_t> dims;
  for (int i = 0; i < axis; ++i) dims.push_back(params.dim_size(i));
  for (int i = 0; i < indices.dims(); ++i) dims.push_back(indices.dim_size(i));
  for (int i = axis + 1; i < params.dims(); ++i) {
    dims.push_back(params.dim_size(i));
  }
  c->set_output(0, TensorShape(dims));
  return Status::OK();
}

Status RangeShape(InferenceContext* c) {
  c->set_output(0, TensorShape({None}));
  return Status::OK();
}

// DynamicStitch: [?] + data[0].shape[indices[0].rank:].
Status DynamicStitchShape(InferenceContext* c) {
  const int n = c->num_inputs() / 2;
  const TensorShape& indices = c->input(0);
  const TensorShape& data = c->input(n);
  if (indices.unknown_rank() || data.unknown_rank()) {
    return shape_fns::UnknownShape(c);
  }
  std::vector<int64_t> dims = {None};
  for (int i = indices.dims(); i < data.dims(); ++i) {
    dims.push_back(data.dim_size(i));
  }
  c->set_output(0, TensorShape(dims));
  return Status::OK();
}

}  // namespace

MINITF_REGISTER_OP("Tile")
    .Input("input: T")
    .Input("multiples: Tmultiples")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tmultiples: {int32, int64} = int32")
    .SetShapeFn(TileShape);

MINITF_REGISTER_OP("BroadcastTo")
    .Input("input: T")
    .Input("shape: Tidx")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tidx: {int32, int64} = int32")
    .SetShapeFn(ShapeFromInput1);

MINITF_REGISTER_OP("ExpandDims")
    .Input("input: T")
    .Input("dim: Tdim")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tdim: {int32, int64} = int32")
    .SetShapeFn(ExpandDimsShape);

MINITF_REGISTER_OP("Reciprocal")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {float, double}")
    .SetShapeFn(shape_fns::UnchangedShape);

MINITF_REGISTER_OP("FloorMod")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr("T: {int32, int64, float, double}")
    .SetShapeFn(shape_fns::BroadcastBinaryOp);

MINITF_REGISTER_OP("GatherV2")
    .Input("params: Tparams")
    .Input("indices: Tindices")
    .Input("axis: Taxis")
    .Output("output: Tparams")
    .Attr("batch_dims: int = 0")
    .Attr("Tparams: type")
    .Attr("Tindices: {int32, int64}")
    .Attr("Taxis: {int32, int64}")
    .SetShapeFn(GatherShape);

MINITF_REGISTER_OP("Range")
    .Input("start: Tidx")
    .Input("limit: Tidx")
    .Input("delta: Tidx")
    .Output("output: Tidx")
    .Attr("Tidx: {int32, int64, float, double} = int32")
    .SetShapeFn(RangeShape);

MINITF_REGISTER_OP("DynamicStitch")
    .Input("indices: N * int32")
    .Input("data: N * T")
    .Output("merged: T")
    .Attr("N: int >= 1")
    .Attr("T: type")
    .SetShapeFn(DynamicStitchShape);

MINITF_REGISTER_OP("StopGradient")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(shape_fns::UnchangedShape);

MINITF_REGISTER_OP("BroadcastGradientArgs")
    .Input("s0: T")
    .Input("s1: T")
    .Output("r0: T")
    .Output("r1: T")
    .Attr("T: {int32, int64} = int32")
    .SetShapeFn(BroadcastGradientArgsShape);

MINITF_REGISTER_OP("Pad")
    .Input("input: T")
    .Input("paddings: Tpaddings")
    .Output("output: T")
    .Attr("T: type")
    .Attr("Tpaddings: {int32, int64} = int32")
    .SetShapeFn(PadShape);

// TensorFlow's ReluGrad: backprops = gradients * (features > 0), where
// features is Relu's input or, as the gradient passes it, its output (both
// are > 0 at the same places). One op instead of Greater, Cast and Mul.
MINITF_REGISTER_OP("ReluGrad")
    .Input("gradients: T")
    .Input("features: T")
    .Output("backprops: T")
    .Attr("T: {float, double, int32, int64}")
    .SetShapeFn(shape_fns::UnchangedShape);

MINITF_REGISTER_OP("SoftmaxCrossEntropyWithLogits")
    .Input("features: T")
    .Input("labels: T")
    .Output("loss: T")
    .Output("backprop: T")
    .Attr("T: {float, double}")
    .SetShapeFn(XentShape);

MINITF_REGISTER_OP("SparseSoftmaxCrossEntropyWithLogits")
    .Input("features: T")
    .Input("labels: Tlabels")
    .Output("loss: T")
    .Output("backprop: T")
    .Attr("T: {float, double}")
    .Attr("Tlabels: {int32, int64} = int64")
    .SetShapeFn(XentShape);

Output stop_gradient(Output input, const std::string& name) {
  return ops::AddOp(NodeBuilder("StopGradient", name).Input(input), {input});
}

Output pad(Output input, Output paddings, const std::string& name) {
  return ops::AddOp(NodeBuilder("Pad", name).Input(input).Input(paddings),
                    {input, paddings});
}

Output tile(Output input, Output multiples, const std::string& name) {
  return ops::AddOp(NodeBuilder("Tile", name).Input(input).Input(multiples),
                    {input, multiples});
}

Output broadcast_to(Output input, Output shape, const std::string& name) {
  return ops::AddOp(NodeBuilder("BroadcastTo", name).Input(input).Input(shape),
                    {input, shape});
}

Output expand_dims(Output input, int axis, const std::string& name) {
  ops::OpScope scope(name, "ExpandDims", {input});
  Output dim = constant(Tensor(int32_t{axis}), "dim");
  return ops::AddOp(NodeBuilder("ExpandDims", scope.op_name())
                        .ExactName()
                        .Input(input)
                        .Input(dim),
                    {input, dim});
}

Output reciprocal(Output x, const std::string& name) {
  return ops::AddOp(NodeBuilder("Reciprocal", name).Input(x), {x});
}

Output floormod(Output x, Output y, const std::string& name) {
  return ops::AddOp(NodeBuilder("FloorMod", name).Input(x).Input(y), {x, y});
}

Output gather(Output params, Output indices, int axis,
              const std::string& name) {
  ops::OpScope scope(name, "GatherV2", {params, indices});
  Output axis_t = constant(Tensor(int32_t{axis}), "axis");
  return ops::AddOp(NodeBuilder("GatherV2", scope.op_name())
                        .ExactName()
                        .Input(params)
                        .Input(indices)
                        .Input(axis_t)
                        .Attr("batch_dims", int64_t{0}),
                    {params, indices, axis_t});
}

Output range(int start, Output limit, int delta, const std::string& name) {
  ops::OpScope scope(name, "range", {limit});
  Output start_t = constant(Tensor(int32_t{start}), "start");
  Output delta_t = constant(Tensor(int32_t{delta}), "delta");
  return ops::AddOp(NodeBuilder("Range", scope.op_name())
                        .ExactName()
                        .Input(start_t)
                        .Input(limit)
                        .Input(delta_t),
                    {start_t, limit, delta_t});
}

Output dynamic_stitch(const std::vector<Output>& indices,
                      const std::vector<Output>& data,
                      const std::string& name) {
  std::vector<Output> all = indices;
  all.insert(all.end(), data.begin(), data.end());
  return ops::AddOp(
      NodeBuilder("DynamicStitch", name).Input(indices).Input(data), all);
}

namespace nn {

// TensorFlow's op takes (features, labels); the Python function takes them
// the other way round, by keyword. The loss is output 0.
Output softmax_cross_entropy_with_logits(Output labels, Output logits,
                                         const std::string& name) {
  return ops::AddOp(NodeBuilder("SoftmaxCrossEntropyWithLogits", name)
                        .Input(logits)
                        .Input(labels),
                    {logits, labels});
}

Output sparse_softmax_cross_entropy_with_logits(Output labels, Output logits,
                                                const std::string& name) {
  return ops::AddOp(NodeBuilder("SparseSoftmaxCrossEntropyWithLogits", name)
                        .Input(logits)
                        .Input(labels),
                    {logits, labels});
}

}  // namespace nn
}  // namespace minitf
