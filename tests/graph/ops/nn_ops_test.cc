#include "minitf/graph/ops/nn_ops.h"

#include <gtest/gtest.h>

#include <cmath>

#include "kernel_harness.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"

namespace minitf {
namespace {

using testing::RunKernel;

std::string ShapeOf(const Output& o) { return PythonShapeString(o.shape()); }

TEST(NnOpsTest, ActivationsAndSoftmax) {
  Graph g;
  graph_scope use(g);
  Output x = constant({-1.f, 0.f, 2.f}, {3});
  Output r = nn::relu(x);
  EXPECT_EQ(r.op().type(), "Relu");
  EXPECT_EQ(RunKernel(r).value().ToVector<float>(),
            (std::vector<float>{0.f, 0.f, 2.f}));
  EXPECT_EQ(nn::sigmoid(x).op().type(), "Sigmoid");
  EXPECT_EQ(nn::tanh(x).op().type(), "Tanh");

  Output logits = constant({1.f, 2.f, 3.f, 1.f, 1.f, 1.f}, {2, 3});
  Output sm = nn::softmax(logits);
  EXPECT_EQ(sm.op().type(), "Softmax");
  EXPECT_EQ(ShapeOf(sm), "(2, 3)");
  std::vector<float> p = RunKernel(sm).value().ToVector<float>();
  const float z = std::exp(1.f) + std::exp(2.f) + std::exp(3.f);
  EXPECT_NEAR(p[0], std::exp(1.f) / z, 1e-6);
  EXPECT_NEAR(p[2], std::exp(3.f) / z, 1e-6);
  EXPECT_NEAR(p[4], 1.f / 3, 1e-6);
  Output ls = nn::log_softmax(logits);
  EXPECT_EQ(ls.op().type(), "LogSoftmax");
  EXPECT_NEAR(RunKernel(ls).value().ToVector<float>()[2], 3.f - std::log(z),
              1e-5);
  EXPECT_EQ(ShapeOf(nn::softmax(placeholder(DT_FLOAT, {None, 10}))), "(?, 10)");
  // Along axis 0: transposed to the last axis and back.
  Output sm0 = nn::softmax(logits, 0);
  EXPECT_EQ(sm0.op().type(), "Transpose");
  EXPECT_EQ(ShapeOf(sm0), "(2, 3)");
}

TEST(NnOpsTest, XwPlusBIsMatMulThenBiasAdd) {
  Graph g;
  graph_scope use(g);
  Output x = placeholder(DT_FLOAT, {None, 784});
  Output w = zeros({784, 10});
  Output b = zeros({10});
  Output y = nn::xw_plus_b(x, w, b);
  EXPECT_EQ(y.op().type(), "BiasAdd");
  EXPECT_EQ(y.op().name(), "xw_plus_b");
  EXPECT_EQ(y.op().input(0).name(), "xw_plus_b/MatMul:0");
  EXPECT_EQ(ShapeOf(y), "(?, 10)");
  Output bad = zeros({5});
  try {
    nn::xw_plus_b(x, w, bad);
    FAIL() << "expected an error";
  } catch (const errors::InvalidArgumentError& e) {
    EXPECT_EQ(std::string(e.what()).substr(0, 47),
              "Dimensions must be equal, but are 10 and 5 for ");
  }
  Output xs = constant({1.f, 2.f, 3.f, 4.f}, {2, 2});
  Output ws = constant({1.f, 0.f, 0.f, 1.f}, {2, 2});
  Output bs = constant({10.f, 20.f}, {2});
  EXPECT_EQ(RunKernel(nn::bias_add(xs, bs)).value().ToVector<float>(),
            (std::vector<float>{11.f, 22.f, 13.f, 24.f}));
  Output mm = matmul(xs, ws);
  EXPECT_EQ(mm.op().type(), "MatMul");
}

}  // namespace
}  // namespace minitf
