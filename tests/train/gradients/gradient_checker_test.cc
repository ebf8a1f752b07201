#include "minitf/train/gradients/gradient_checker.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/ops/nn_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/train/gradients/grad_util.h"
#include "minitf/train/gradients/gradients.h"
#include "minitf/train/ops/grad_ops.h"

namespace minitf {
namespace {

// One case per op type with a gradient: the function of x ([2,3] float64,
// values in [0.5,1.5], so Log, Sqrt and Prod see positive inputs and
// Maximum, Minimum and Relu no ties) that exercises it.
using Case = std::function<Output(Output x)>;

Output Other() {
  return constant(
      Tensor::FromVector(std::vector<double>{1.2, 0.7, 1.0, 0.6, 1.4, 0.9},
                         TensorShape({2, 3}))
          .value());
}
Output Row() {
  return constant(
      Tensor::FromVector(std::vector<double>{0.3, -0.4, 0.8}, TensorShape({3}))
          .value());
}

const std::map<std::string, Case>& Cases() {
  static const auto* cases = new std::map<std::string, Case>{
      {"Add",
       [](Output x) {
         Output row = Row();
         return ops::AddOp(NodeBuilder("Add").Input(x).Input(row), {x, row});
       }},
      {"AddV2", [](Output x) { return x + Row(); }},
      {"Sub", [](Output x) { return Row() - x; }},
      {"Mul", [](Output x) { return x * x * Row(); }},
      {"RealDiv", [](Output x) { return Row() / x; }},
      {"Div", [](Output x) { return div(x, Other()); }},
      {"Maximum", [](Output x) { return maximum(x, Other()); }},
      {"Minimum", [](Output x) { return minimum(x, Other()); }},
      {"Neg", [](Output x) { return negative(x); }},
      {"Square", [](Output x) { return square(x); }},
      {"Sqrt", [](Output x) { return sqrt(x); }},
      {"Exp", [](Output x) { return exp(x); }},
      {"Log", [](Output x) { return log(x); }},
      {"Reciprocal", [](Output x) { return reciprocal(x); }},
      {"Tile",
       [](Output x) {
         return tile(x, grad::IntVector({2, 1})) * 1.5;
       }},
      {"BroadcastTo",
       [](Output x) {
         return broadcast_to(reduce_sum(x, 0, true), grad::IntVector({2, 3})) *
                Other();
       }},
      {"ExpandDims", [](Output x) { return expand_dims(x, 1) * 2.0; }},
      {"Abs", [](Output x) { return abs(x - 1.0); }},
      {"Sign", [](Output x) { return sign(x - 1.0) * x; }},
      {"Sigmoid", [](Output x) { return sigmoid(x); }},
      {"Tanh", [](Output x) { return tanh(x); }},
      {"MatMul", [](Output x) { return matmul(x, Other(), false, true); }},
      {"Sum", [](Output x) { return reduce_sum(x, 1, true); }},
      {"Mean", [](Output x) { return reduce_mean(x, 0); }},
      {"Max", [](Output x) { return reduce_max(x, 1); }},
      {"Min", [](Output x) { return reduce_min(x); }},
      {"Prod", [](Output x) { return reduce_prod(x, 0); }},
      {"Cast",
       [](Output x) {
         // float64 -> float64: a float32 round trip would swamp central
         // differences in rounding.
         return ops::AddOp(NodeBuilder("Cast").Input(x).Attr("DstT", DT_DOUBLE),
                           {x});
       }},
      {"AddN",
       [](Output x) {
         return add_n({x, x * x, Other()});
       }},
      {"Identity", [](Output x) { return identity(x); }},
      {"Reshape",
       [](Output x) {
         return reshape(x * x, {3, 2});
       }},
      {"Transpose", [](Output x) { return transpose(x * Other()); }},
      {"ConcatV2",
       [](Output x) {
         return concat({x * x, x}, 1);
       }},
      {"Pack",
       [](Output x) {
         return stack({x * x, x}, 1);
       }},
      {"Slice",
       [](Output x) {
         return slice(x * x, {0, 1}, {2, 2});
       }},
      {"Relu", [](Output x) { return nn::relu(x - 1.0); }},
      {"Softmax", [](Output x) { return nn::softmax(x * Other()); }},
      {"LogSoftmax", [](Output x) { return nn::log_softmax(x * Other()); }},
      {"BiasAdd", [](Output x) { return nn::bias_add(x * x, Row()); }},
      {"_FusedMatMul",
       [](Output x) {
         // relu(x (x Other)^T - rowsums(x)): a, b and the bias all move.
         Output b = x * Other();
         Output bias = negative(reduce_sum(x, 1));
         return ops::AddOp(
             NodeBuilder("_FusedMatMul", "fused_matmul")
                 .Input(x)
                 .Input(b)
                 .Input(std::vector<Output>{bias})
                 .Attr("transpose_b", true)
                 .Attr("fused_ops",
                       std::vector<std::string>{"BiasAdd", "Relu"}),
             {x, b, bias});
       }},
      {"SoftmaxCrossEntropyWithLogits",
       [](Output x) {
         return nn::softmax_cross_entropy_with_logits(nn::softmax(x), x * 2.0);
       }},
      {"SparseSoftmaxCrossEntropyWithLogits",
       [](Output x) {
         return nn::sparse_softmax_cross_entropy_with_logits(
             constant(Tensor::FromVector(std::vector<int32_t>{2, 0},
                                         TensorShape({2}))
                          .value()),
             x * x);
       }},
  };
  return *cases;
}

// Every op type in the gradient registry has a case above, and its gradient
// matches central differences; a gradient registered without a case fails.
TEST(GradientCheckerTest, EveryRegisteredGradientMatchesFiniteDifferences) {
  std::mt19937 rng(20240603);
  std::uniform_real_distribution<double> dist(0.5, 1.5);
  for (const std::string& type : GradientRegistry::Global()->OpTypes()) {
    SCOPED_TRACE(type);
    auto it = Cases().find(type);
    ASSERT_NE(it, Cases().end()) << "no gradient-check case for " << type;
    Graph g;
    graph_scope use(g);
    Output x = placeholder(DT_DOUBLE, {2, 3}, "x");
    Output y = it->second(x);
    bool built = false;
    for (Node* n : g.nodes()) built |= n->type_string() == type;
    EXPECT_TRUE(built) << "the case does not build a " << type;
    Tensor value(DT_DOUBLE, TensorShape({2, 3}));
    for (int i = 0; i < 6; ++i) value.data<double>()[i] = dist(rng);
    EXPECT_LT(test::compute_gradient_error(x, value, y), 1e-6);
  }
}

TEST(GradientCheckerTest, JacobiansOfSquareAreDiagonal) {
  Graph g;
  graph_scope use(g);
  Output x = placeholder(DT_DOUBLE, {2}, "x");
  auto [theory, numeric] = test::compute_gradient(
      x,
      Tensor::FromVector(std::vector<double>{1, 3}, TensorShape({2})).value(),
      square(x));
  EXPECT_EQ(theory.shape(), TensorShape({2, 2}));
  const double* t = theory.data<double>();
  EXPECT_EQ(std::vector<double>(t, t + 4), (std::vector<double>{2, 0, 0, 6}));
  EXPECT_NEAR(numeric.data<double>()[3], 6.0, 1e-6);
}

TEST(GradientCheckerTest, AWrongGradientShowsAsALargeError) {
  Graph g;
  graph_scope use(g);
  Output x = placeholder(DT_DOUBLE, {2}, "x");
  // stop_gradient hides half of d(x*x)/dx: the checker sees x, not 2x.
  Output y = x * stop_gradient(x);
  EXPECT_GT(test::compute_gradient_error(
                x,
                Tensor::FromVector(std::vector<double>{1, 3}, TensorShape({2}))
                    .value(),
                y),
            0.9);
}

}  // namespace
}  // namespace minitf
