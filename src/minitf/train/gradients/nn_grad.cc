// Gradients of the neural-network ops (graph/ops/nn_ops.h and the fused
// losses of train/ops/grad_ops.h), as TensorFlow's nn_grad.py.
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/ops/nn_ops.h"
#include "minitf/train/gradients/grad_util.h"
#include "minitf/train/gradients/gradients.h"
#include "minitf/train/ops/grad_ops.h"

namespace minitf {
namespace {

using Grads = std::vector<Output>;

// TensorFlow's _ReluGrad: one ReluGrad op (ops/grad_ops.h) on Relu's
// output, which is > 0 exactly where its input is. Built from Greater, Cast
// and Mul instead, it took four ops and three [batch,units] temporaries.
Grads ReluGrad(const Operation& op, const Grads& g) {
  Output y = op.output(0);
  return {ops::AddOp(NodeBuilder("ReluGrad").Input(g[0]).Input(y), {g[0], y})};
}
// y = softmax(x) along the last axis: dx = (g - sum(g * y, -1)) * y.
Grads SoftmaxGrad(const Operation& op, const Grads& g) {
  Output y = op.output(0);
  Output sum_channels = reduce_sum(g[0] * y, -1, /*keep_dims=*/true);
  return {(g[0] - sum_channels) * y};
}
// y = log_softmax(x): dx = g - sum(g, -1) * exp(y).
Grads LogSoftmaxGrad(const Operation& op, const Grads& g) {
  return {g[0] - reduce_sum(g[0], -1, /*keep_dims=*/true) * exp(op.output(0))};
}
// The bias was added to every row: its gradient sums g over all axes but
// the last.
Grads BiasAddGrad(const Operation& op, const Grads& g) {
  const int rank = op.input(0).shape().dims();
  if (rank < 0) {
    throw errors::UnimplementedError(StrCat("Gradient of BiasAdd '", op.name(),
                                            "' needs an input of known rank"));
  }
  std::vector<int> axes;
  for (int i = 0; i + 1 < rank; ++i) axes.push_back(i);
  return {g[0], reduce_sum(g[0], axes)};
}

// --8<-- [start:xent_grad]
// The op already computed d(loss)/d(logits) as its backprop output; the
// incoming gradient g [batch] scales each row of it (TensorFlow's
// _BroadcastMul: ExpandDims to [batch,1], then multiply). The labels'
// gradient (dense op only) is -log_softmax(logits) per row.
Output BroadcastMul(Output vec, Output mat) {
  return expand_dims(vec, -1) * mat;
}

Grads XentGrad(const Operation& op, const Grads& g) {
  if (!g[0].valid()) return Grads(op.num_inputs());
  Output logits_grad = BroadcastMul(g[0], op.output(1));
  if (op.type() == "SparseSoftmaxCrossEntropyWithLogits") {
    return {logits_grad, Output()};
  }
  Output minus_log_p = negative(nn::log_softmax(op.input(0)));
  return {logits_grad, BroadcastMul(g[0], minus_log_p)};
}
// --8<-- [end:xent_grad]

// --8<-- [start:fused_matmul_grad]
// _FusedMatMul, z = act(op(a) op(b) + bias): back through the activation
// (ReluGrad on the fused output, which is > 0 exactly where the sum is),
// then the bias's gradient as BiasAdd's and a's and b's as MatMul's, whose
// gradient function reads the same inputs and transpose attrs from this
// op. TensorFlow registers no gradient for the op: its remapper makes it
// only in graphs that are run, after tf.gradients has built the backward
// pass from the unfused ops.
Grads FusedMatMulGrad(const Operation& op, const Grads& g) {
  const auto fused_ops =
      GetAttr<std::vector<std::string>>(op.node()->attrs(), "fused_ops")
          .value();
  const bool relu = fused_ops == std::vector<std::string>{"BiasAdd", "Relu"};
  if (!relu && fused_ops != std::vector<std::string>{"BiasAdd"}) {
    throw errors::UnimplementedError(
        StrCat("Gradient of _FusedMatMul '", op.name(),
               "' with fused_ops other than [BiasAdd] or [BiasAdd, Relu]"));
  }
  Output dz = relu ? ReluGrad(op, g)[0] : g[0];
  Grads grads = (*GradientRegistry::Global()->Lookup("MatMul"))(op, {dz});
  grads.push_back(reduce_sum(dz, std::vector<int>{0}));
  return grads;
}
// --8<-- [end:fused_matmul_grad]

}  // namespace

MINITF_REGISTER_GRADIENT("_FusedMatMul", FusedMatMulGrad);
MINITF_REGISTER_GRADIENT("Relu", ReluGrad);
MINITF_REGISTER_GRADIENT("Softmax", SoftmaxGrad);
MINITF_REGISTER_GRADIENT("LogSoftmax", LogSoftmaxGrad);
MINITF_REGISTER_GRADIENT("BiasAdd", BiasAddGrad);
MINITF_REGISTER_GRADIENT("SoftmaxCrossEntropyWithLogits", XentGrad);
MINITF_REGISTER_GRADIENT("SparseSoftmaxCrossEntropyWithLogits", XentGrad);

}  // namespace minitf
