#include "minitf/train/ops/grad_ops.h"

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

}  // namespace

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
