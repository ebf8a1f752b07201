// Seed 004's two average_gradients against TensorFlow 2.21's tf.compat.v1
// (disable_v2_behavior): the nodes each builds, named as TensorFlow names
// them, and the finding of the chapter: over the dense gradients of
// tf.gradients both give the same mean, to the bit.
#include "minitf/towers/average_gradients.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/tensor/errors.h"
#include "minitf/towers/variable_sharing/init_ops.h"
#include "minitf/towers/variable_sharing/variable_scope.h"
#include "minitf/train/gradients/gradients.h"
#include "minitf/train/optimizers/gradient_descent.h"
#include "minitf/train/variables.h"
#include "towers_testing.h"

namespace minitf {
namespace {

using testing::ErrorOf;

Tensor Matrix(const std::vector<float>& v, int64_t rows, int64_t cols) {
  return errors::ValueOrThrow(Tensor::FromVector(v, TensorShape({rows, cols})));
}

// The oracle's graph: two towers of loss = sum(x·w), w:[4,3] shared.
//   for i in range(2):
//     with tf.name_scope("tower_%d" % i):
//       with tf.variable_scope("model", reuse=tf.AUTO_REUSE):
//         w = tf.get_variable("w", [4, 3], initializer=tf.ones_initializer())
//       x = tf.placeholder(tf.float32, [None, 4], name="x")
//       loss = tf.reduce_sum(tf.matmul(x, w))
//       grads.append(tf.gradients(loss, tf.trainable_variables()))
struct TwoTowers {
  std::vector<Output> xs;
  std::vector<std::vector<Output>> grads;
};

TwoTowers BuildTwoTowers() {
  TwoTowers t;
  for (int i = 0; i < 2; ++i) {
    name_scope tower("tower_" + std::to_string(i));
    Variable w = [] {
      variable_scope model("model", AUTO_REUSE);
      return get_variable("w", {4, 3}, ones_initializer());
    }();
    Output x = placeholder(DT_FLOAT, {None, 4}, "x");
    Output loss = reduce_sum(matmul(x, w));
    t.xs.push_back(x);
    t.grads.push_back(gradients({loss}, {w}));
  }
  return t;
}

std::vector<std::string> NodesFrom(const Graph& g, int first) {
  std::vector<std::string> names;
  for (int i = first; i < g.num_nodes(); ++i) {
    names.push_back(g.node(i)->name() + " " + g.node(i)->type_string());
  }
  return names;
}

TEST(AverageGradientsTest, BuildsTensorFlowsNodesBothWays) {
  Graph g;
  graph_scope use(g);
  TwoTowers t = BuildTwoTowers();
  EXPECT_EQ(t.grads[0][0].name(),
            "tower_0/gradients/tower_0/MatMul_grad/MatMul_1:0");
  int first = g.num_nodes();
  std::vector<Output> a1 = average_gradients(t.grads);
  EXPECT_EQ(NodesFrom(g, first),
            (std::vector<std::string>{
                "ExpandDims/dim Const", "ExpandDims ExpandDims",
                "ExpandDims_1/dim Const", "ExpandDims_1 ExpandDims",
                "concat/axis Const", "concat ConcatV2",
                "Mean/reduction_indices Const", "Mean Mean"}));
  first = g.num_nodes();
  std::vector<Output> a2 = average_gradients_stacked(t.grads);
  // tf.reduce_mean(grads_per_var, 0): the list becomes a Pack, "Mean_1/input".
  EXPECT_EQ(NodesFrom(g, first),
            (std::vector<std::string>{"Mean_1/input Pack",
                                      "Mean_1/reduction_indices Const",
                                      "Mean_1 Mean"}));
}

// --8<-- [start:agree]
TEST(AverageGradientsTest, BothVersionsAgreeToTheBit) {
  Graph g;
  graph_scope use(g);
  TwoTowers t = BuildTwoTowers();
  std::vector<Output> a1 = average_gradients(t.grads);
  std::vector<Output> a2 = average_gradients_stacked(t.grads);
  Session sess;
  sess.run(global_variables_initializer());
  // Towers of different batch sizes, 3 and 2 rows: d sum(x·w)/dw[k][j] is
  // the sum of column k of x, the same for every j.
  Tensor x0 = Matrix(
      {.1f, .2f, .3f, .4f, .5f, .6f, .7f, .8f, .9f, 1.f, 1.1f, 1.2f}, 3, 4);
  Tensor x1 = Matrix({1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f, 8.f}, 2, 4);
  auto r = sess.run({a1[0], a2[0]}, {{t.xs[0], x0}, {t.xs[1], x1}});
  const float expected[4] = {(1.5f + 6.f) / 2, (1.8f + 8.f) / 2,
                             (2.1f + 10.f) / 2, (2.4f + 12.f) / 2};
  for (int k = 0; k < 4; ++k) {
    for (int j = 0; j < 3; ++j) {
      EXPECT_NEAR(r[0].data<float>()[k * 3 + j], expected[k], 1e-5);
      // Both reduce the same [2,4,3] tensor with the same kernel.
      EXPECT_EQ(r[0].data<float>()[k * 3 + j], r[1].data<float>()[k * 3 + j]);
    }
  }
}
// --8<-- [end:agree]

TEST(AverageGradientsTest, PairsKeepTheFirstTowersVariable) {
  Graph g;
  graph_scope use(g);
  std::vector<train::Optimizer::GradsAndVars> tower_grads;
  std::vector<Output> xs;
  train::GradientDescentOptimizer opt(0.1);
  for (int i = 0; i < 2; ++i) {
    name_scope tower("tower_" + std::to_string(i));
    Variable w = [] {
      variable_scope model("model", AUTO_REUSE);
      return get_variable("w", {4, 3}, ones_initializer());
    }();
    xs.push_back(placeholder(DT_FLOAT, {None, 4}, "x"));
    tower_grads.push_back(opt.compute_gradients(reduce_sum(matmul(xs[i], w))));
  }
  auto averaged = average_gradients(tower_grads);
  ASSERT_EQ(averaged.size(), 1u);
  EXPECT_EQ(averaged[0].second.name(), "model/w:0");
  Operation train_op = opt.apply_gradients(averaged);
  Session sess;
  sess.run(global_variables_initializer());
  sess.run(train_op, {{xs[0], Matrix({1.f, 0.f, 0.f, 0.f}, 1, 4)},
                      {xs[1], Matrix({3.f, 0.f, 0.f, 0.f}, 1, 4)}});
  Tensor w = sess.run(averaged[0].second.value());
  EXPECT_FLOAT_EQ(w.data<float>()[0], 1.f - 0.1f * 2.f);  // mean of 1 and 3
  EXPECT_FLOAT_EQ(w.data<float>()[3], 1.f);               // row 1 untouched
}

TEST(AverageGradientsTest, BadTowersAreTypedErrors) {
  Graph g;
  graph_scope use(g);
  Output a = constant({1.f, 2.f}, {2}, "a");
  Output b = constant({1.f, 2.f, 3.f}, {3}, "b");
  EXPECT_EQ(
      ErrorOf([] { average_gradients(std::vector<std::vector<Output>>{}); }),
      "average_gradients: no towers");
  EXPECT_EQ(ErrorOf([&] {
              average_gradients({{a, a}, {a}});
            }),
            "average_gradients: tower 1 has 1 gradient(s), tower 0 has 2");
  // A variable the loss does not reach has the gradient None.
  EXPECT_EQ(ErrorOf([&] {
              average_gradients({{a}, {Output()}});
            }),
            "Tried to convert 'input' to a tensor and failed. Error: None "
            "values not supported.");
  EXPECT_EQ(ErrorOf([&] {
              average_gradients_stacked({{Output()}, {Output()}});
            }),
            "Failed to convert elements of (None, None) to Tensor. Consider "
            "casting elements to a supported type.");
  EXPECT_NE(ErrorOf([&] { average_gradients({{a}, {b}}); }), "");
  EXPECT_NE(ErrorOf([&] { average_gradients_stacked({{a}, {b}}); }), "");
}

}  // namespace
}  // namespace minitf
