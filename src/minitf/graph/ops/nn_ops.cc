#include "minitf/graph/ops/nn_ops.h"

#include <vector>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/shape_inference.h"

namespace minitf {
namespace {

Status SoftmaxShape(InferenceContext* c) {
  TF_RETURN_IF_ERROR(InferenceContext::WithRankAtLeast(c->input(0), 1));
  return shape_fns::UnchangedShape(c);
}

// BiasAdd: value of rank >= 2 and a bias vector as long as its last dim.
Status BiasAddShape(InferenceContext* c) {
  const TensorShape& value = c->input(0);
  TF_RETURN_IF_ERROR(InferenceContext::WithRankAtLeast(value, 2));
  TensorShape bias;
  TF_RETURN_IF_ERROR(InferenceContext::WithRank(c->input(1), 1, &bias));
  if (value.unknown_rank()) return shape_fns::UnknownShape(c);
  const int last = value.dims() - 1;
  int64_t channels;
  TF_RETURN_IF_ERROR(InferenceContext::Merge(value.dim_size(last),
                                             bias.dim_size(0), &channels));
  std::vector<int64_t> dims(value.dims());
  for (int i = 0; i < last; ++i) dims[i] = value.dim_size(i);
  dims[last] = channels;
  c->set_output(0, TensorShape(std::move(dims)));
  return Status::OK();
}

// _FusedMatMul: MatMul's shape (its own shape function decides it), and a
// bias that fits its columns as BiasAdd's does.
Status FusedMatMulShape(InferenceContext* c) {
  TF_ASSIGN_OR_RETURN(const OpDef* matmul,
                      OpRegistry::Global()->LookUp("MatMul"));
  TF_RETURN_IF_ERROR(matmul->shape_fn(c));
  const TensorShape product = c->output(0);
  int64_t cols = product.dim_size(1);
  for (int i = 2; i < c->num_inputs(); ++i) {
    TensorShape bias;
    TF_RETURN_IF_ERROR(InferenceContext::WithRank(c->input(i), 1, &bias));
    TF_RETURN_IF_ERROR(InferenceContext::Merge(cols, bias.dim_size(0), &cols));
  }
  c->set_output(0, TensorShape({product.dim_size(0), cols}));
  return Status::OK();
}

}  // namespace

// --8<-- [start:register_fused_matmul]
// TensorFlow's own op, which its remapper makes and no Python API builds:
// a MatMul whose output goes through the ops named in fused_ops, args being
// their extra inputs (the bias). epsilon and leakyrelu_alpha serve fusions
// this engine does not make. TensorFlow's T is {bfloat16, half, float};
// this engine, without 16-bit floats, takes float and double.
MINITF_REGISTER_OP("_FusedMatMul")
    .Input("a: T")
    .Input("b: T")
    .Input("args: num_args * T")
    .Output("product: T")
    .Attr("transpose_a: bool = false")
    .Attr("transpose_b: bool = false")
    .Attr("T: {float, double}")
    .Attr("num_args: int >= 0")
    .Attr("fused_ops: list(string) = []")
    .Attr("epsilon: float = 0.0001")
    .Attr("leakyrelu_alpha: float = 0.2")
    .SetShapeFn(FusedMatMulShape);
// --8<-- [end:register_fused_matmul]

MINITF_REGISTER_OP("Relu")
    .Input("features: T")
    .Output("activations: T")
    .Attr("T: {float, double, int32, int64}")
    .SetShapeFn(shape_fns::UnchangedShape);

MINITF_REGISTER_OP("Softmax")
    .Input("logits: T")
    .Output("softmax: T")
    .Attr("T: {float, double}")
    .SetShapeFn(SoftmaxShape);

MINITF_REGISTER_OP("LogSoftmax")
    .Input("logits: T")
    .Output("logsoftmax: T")
    .Attr("T: {float, double}")
    .SetShapeFn(SoftmaxShape);

MINITF_REGISTER_OP("BiasAdd")
    .Input("value: T")
    .Input("bias: T")
    .Attr("data_format: string = \"NHWC\"")
    .Output("output: T")
    .Attr("T: {float, double, int32, int64}")
    .SetShapeFn(BiasAddShape);

namespace nn {
namespace {

// --8<-- [start:softmax_axis]
// The Softmax op normalises the last axis only. For another axis, TensorFlow
// swaps it with the last one, applies the op, and swaps back.
Output SoftmaxOn(const char* op, Output logits, int axis,
                 const std::string& name) {
  const TensorShape& s = logits.shape();
  const bool is_last =
      axis == -1 || (!s.unknown_rank() && axis == s.dims() - 1);
  if (is_last) {
    return ops::AddOp(NodeBuilder(op, name).Input(logits), {logits});
  }
  if (s.unknown_rank()) {
    throw errors::UnimplementedError(
        StrCat(op, " along axis ", axis, " of '", logits.name(),
               "', whose rank is unknown, is not supported"));
  }
  const int rank = s.dims();
  if (axis < -rank || axis >= rank) {
    throw errors::InvalidArgumentError(StrCat(
        "Dimension (", axis, ") must be in the range [", -rank, ", ", rank,
        "), where ", rank, " is the number of dimensions in the input."));
  }
  if (axis < 0) axis += rank;
  std::vector<int> perm(rank);
  for (int i = 0; i < rank; ++i) perm[i] = i;
  std::swap(perm[axis], perm[rank - 1]);
  Output swapped = transpose(logits, perm);
  Output out = ops::AddOp(NodeBuilder(op).Input(swapped), {swapped});
  return transpose(out, perm, name.empty() ? "transpose" : name);
}
// --8<-- [end:softmax_axis]

}  // namespace

Output relu(Output features, const std::string& name) {
  return ops::AddOp(NodeBuilder("Relu", name).Input(features), {features});
}
Output sigmoid(Output x, const std::string& name) {
  return minitf::sigmoid(x, name);
}
Output tanh(Output x, const std::string& name) { return minitf::tanh(x, name); }
Output softmax(Output logits, int axis, const std::string& name) {
  return SoftmaxOn("Softmax", logits, axis, name);
}
Output log_softmax(Output logits, int axis, const std::string& name) {
  return SoftmaxOn("LogSoftmax", logits, axis, name);
}

Output bias_add(Output value, Output bias, const std::string& name) {
  return ops::AddOp(NodeBuilder("BiasAdd", name).Input(value).Input(bias),
                    {value, bias});
}

Output xw_plus_b(Output x, Output weights, Output biases,
                 const std::string& name) {
  ops::OpScope scope(name, "xw_plus_b", {x, weights, biases});
  Output mm = matmul(x, weights);
  return ops::AddOp(NodeBuilder("BiasAdd", scope.op_name())
                        .ExactName()
                        .Input(mm)
                        .Input(biases),
                    {mm, biases});
}

}  // namespace nn
}  // namespace minitf
