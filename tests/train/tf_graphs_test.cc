// The training graphs of the seed programs and chapter 3's MLP, node for
// node against TensorFlow's: names, ops, inputs, control inputs, requested
// devices and attrs, in the order the nodes were made. Seed 000's program
// with devices is chapter 4's (tests/device/session/tf_graphs_device_test.cc):
// only its device layer spells "/device:cpu:0" as TensorFlow does. The expected
// lists in testdata/tf_graphs/ were written by TensorFlow itself
// (tools/dump_tf_graphs.py, which names the TensorFlow version in each
// file's header); this test prints minitf's GraphDef the same way and needs
// no TensorFlow to run.
#include <gtest/gtest.h>

#include <string>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/ops/nn_ops.h"
#include "minitf/graph/ops/random_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/train/ops/grad_ops.h"
#include "minitf/train/optimizers/adam.h"
#include "minitf/train/optimizers/gradient_descent.h"
#include "minitf/train/variables.h"
#include "tf_graph_text.h"

namespace minitf {
namespace {

using tf_graphs::ExpectSameNodes;

// --- The graphs, as tools/dump_tf_graphs.py builds them ---------------------

TEST(TfGraphsTest, Seed000LinearRegression) {
  Graph g;
  graph_scope use(g);
  auto w = Variable(0.0f, "weight");
  auto b = Variable(0.0f, "bias");
  auto x = placeholder(DT_FLOAT, {None});
  auto out = placeholder(DT_FLOAT, {None});
  auto y = w * x + b;
  auto loss = reduce_mean(square(y - out));
  train::GradientDescentOptimizer optimizer(0.01);
  optimizer.minimize(loss);
  ExpectSameNodes(g, "seed_000");
}

Output SoftmaxModel() {
  auto x = placeholder(DT_FLOAT, {None, 784});
  auto W = Variable(zeros({784, 10}));
  auto b = Variable(zeros({10}));
  auto y = nn::softmax(matmul(x, W) + b);
  auto y_ = placeholder(DT_FLOAT, {None, 10});
  return reduce_mean(-reduce_sum(y_ * log(y), std::vector<int>{1}));
}

TEST(TfGraphsTest, Seed002SoftmaxRegression) {
  Graph g;
  graph_scope use(g);
  train::GradientDescentOptimizer(0.1).minimize(SoftmaxModel());
  ExpectSameNodes(g, "seed_002");
}

TEST(TfGraphsTest, Seed003WithGlobalStep) {
  Graph g;
  graph_scope use(g);
  auto cross_entropy = SoftmaxModel();
  auto global_step =
      Variable(Tensor(int64_t{0}), "global_step", /*trainable=*/false);
  train::GradientDescentOptimizer(0.1).minimize(cross_entropy, &global_step);
  ExpectSameNodes(g, "seed_003");
}

// The MLP's graph matches TensorFlow's from the gradient of its second
// MatMul on (the first node that reads nothing of the loss): ReLU's,
// MatMul's and Add's gradients, Adam's slots, hyperparameters, updates and
// powers. Before that it differs in two places. TruncatedNormal's seed2:
// TensorFlow 2.21 numbers a graph's random ops from 0, minitf from 1. And
// TensorFlow builds the fused loss as a scope
// "softmax_cross_entropy_with_logits_sg" of 32 nodes: StopGradient on the
// labels, both operands flattened to matrices from their run-time shapes,
// the loss reshaped back, with the static shapes restored by set_shape;
// minitf builds the one op, as it has no set_shape to restore them with.
TEST(TfGraphsTest, Chapter3MlpFromTheSecondMatMulsGradient) {
  Graph g;
  graph_scope use(g);
  set_random_seed(1);
  auto x = placeholder(DT_FLOAT, {None, 784});
  auto y_ = placeholder(DT_FLOAT, {None, 10});
  auto W1 = Variable(truncated_normal({784, 256}, 0.0, 0.05), "W1");
  auto b1 = Variable(zeros({256}), "b1");
  auto W2 = Variable(truncated_normal({256, 10}, 0.0, 0.05), "W2");
  auto b2 = Variable(zeros({10}), "b2");
  auto hidden = nn::relu(matmul(x, W1) + b1);
  auto logits = matmul(hidden, W2) + b2;
  auto loss = reduce_mean(nn::softmax_cross_entropy_with_logits(y_, logits));
  train::AdamOptimizer(0.001).minimize(loss);
  ExpectSameNodes(g, "mlp", "gradients/MatMul_1_grad/MatMul");
}

}  // namespace
}  // namespace minitf
