#include "minitf/train/gradients/gradients.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/ops/nn_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/graph/shape_inference.h"
#include "minitf/train/ops/grad_ops.h"

namespace minitf {

MINITF_REGISTER_OP("GradientsTestNoGrad")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: type")
    .SetShapeFn(shape_fns::UnchangedShape);

namespace {

Tensor Floats(std::vector<float> v, std::vector<int64_t> shape) {
  return Tensor::FromVector(v, TensorShape(shape)).value();
}
std::vector<float> Values(const Tensor& t) {
  return std::vector<float>(t.data<float>(), t.data<float>() + t.NumElements());
}

TEST(GradientsTest, SquareIsTwoX) {
  Graph g;
  graph_scope use(g);
  auto x = constant(Floats({1, 2, 3}, {3}), "x");
  auto dx = gradients({square(x)}, {x})[0];
  EXPECT_EQ(dx.node()->name().rfind("gradients/", 0), 0u) << dx.name();
  Session sess(SessionOptions{}, &g);
  EXPECT_EQ(Values(sess.run(dx)), (std::vector<float>{2, 4, 6}));
}

TEST(GradientsTest, MatMulGradientsByHand) {
  Graph g;
  graph_scope use(g);
  auto a = constant(Floats({1, 2, 3, 4}, {2, 2}), "a");
  auto b = constant(Floats({5, 6, 7, 8}, {2, 2}), "b");
  auto grads = gradients({matmul(a, b)}, {a, b});
  Session sess(SessionOptions{}, &g);
  // dA = ones * B^T: row sums of B; dB = A^T * ones: column sums of A.
  EXPECT_EQ(Values(sess.run(grads[0])), (std::vector<float>{11, 15, 11, 15}));
  EXPECT_EQ(Values(sess.run(grads[1])), (std::vector<float>{4, 4, 6, 6}));
}

// Relu's gradient is one ReluGrad op: g where the unit is on, g * 0 where it
// is off, so a NaN gradient stays NaN there, as in TensorFlow.
TEST(GradientsTest, ReluGradPassesGradientWhereOn) {
  Graph g;
  graph_scope use(g);
  auto x = constant(Floats({-1, 0, 2, 3}, {4}), "x");
  auto up = constant(Floats({std::nanf(""), 6, 7, 8}, {4}), "up");
  auto dx = gradients({nn::relu(x)}, {x}, {up})[0];
  EXPECT_EQ(dx.node()->type_string(), "ReluGrad");
  Session sess(SessionOptions{}, &g);
  const std::vector<float> v = Values(sess.run(dx));
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_EQ(v[1], 0.f);
  EXPECT_EQ(v[2], 7.f);
  EXPECT_EQ(v[3], 8.f);
}

// The fused loss and its gradient, by hand: row 0 is
// logsumexp(1, 2, 3) - 3; row 1 has logits far apart, whose exp underflows
// without the shift by the row's maximum: 0.5 * (1000 - 1000) + 0.5 * 1000.
TEST(GradientsTest, SoftmaxCrossEntropyByHand) {
  Graph g;
  graph_scope use(g);
  auto logits = constant(Floats({1, 2, 3, 1000, 0, -1000}, {2, 3}), "logits");
  auto labels = constant(Floats({0, 0, 1, 0.5, 0.5, 0}, {2, 3}), "labels");
  auto loss = nn::softmax_cross_entropy_with_logits(labels, logits);
  auto dlogits = gradients({loss}, {logits})[0];
  Session sess(SessionOptions{}, &g);
  const double e1 = std::exp(1.0), e2 = std::exp(2.0), e3 = std::exp(3.0);
  const double lse = std::log(e1 + e2 + e3);
  const std::vector<float> l = Values(sess.run(loss));
  EXPECT_NEAR(l[0], lse - 3, 1e-6);
  EXPECT_NEAR(l[1], 500, 1e-3);
  const std::vector<float> d = Values(sess.run(dlogits));
  const std::vector<double> want = {e1 / (e1 + e2 + e3),
                                    e2 / (e1 + e2 + e3),
                                    e3 / (e1 + e2 + e3) - 1,
                                    0.5,
                                    -0.5,
                                    0};
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(d[i], want[i], 1e-6);
}

TEST(GradientsTest, BroadcastAddAndMulReduceToInputShapes) {
  Graph g;
  graph_scope use(g);
  auto x = placeholder(DT_FLOAT, {None, 3}, "x");
  auto v = constant(Floats({1, 2, 3}, {3}), "v");
  auto c = constant(Floats({10, 20}, {2, 1}), "c");
  auto grads = gradients({(x + v) * c}, {x, v, c});
  EXPECT_EQ(grads[1].shape(), TensorShape({3}));
  Session sess(SessionOptions{}, &g);
  FeedDict feed = {{x, Floats({1, 1, 1, 2, 2, 2}, {2, 3})}};
  EXPECT_EQ(Values(sess.run(grads[0], feed)),
            (std::vector<float>{10, 10, 10, 20, 20, 20}));
  Tensor dv = sess.run(grads[1], feed);
  EXPECT_EQ(dv.shape(), TensorShape({3}));
  EXPECT_EQ(Values(dv), (std::vector<float>{30, 30, 30}));
  Tensor dc = sess.run(grads[2], feed);
  EXPECT_EQ(dc.shape(), TensorShape({2, 1}));
  EXPECT_EQ(Values(dc), (std::vector<float>{2 + 3 + 4, 3 + 4 + 5}));
}

TEST(GradientsTest, PathsAreSummedWithAddN) {
  Graph g;
  graph_scope use(g);
  auto x = constant(Floats({3}, {}), "x");
  auto y = x * x + x * 2.0f;  // dy/dx = 2x + 2 = 8
  auto dx = gradients({y}, {x})[0];
  bool has_add_n = false;
  for (Node* n : g.nodes()) has_add_n |= n->type_string() == "AddN";
  EXPECT_TRUE(has_add_n);
  Session sess(SessionOptions{}, &g);
  EXPECT_EQ(Values(sess.run(dx)), (std::vector<float>{8}));
}

TEST(GradientsTest, UnconnectedIsNoneAndStopGradientStops) {
  Graph g;
  graph_scope use(g);
  auto x = constant(Floats({3}, {}), "x");
  auto z = constant(Floats({4}, {}), "z");
  auto y = x * stop_gradient(x);  // d/dx = stopped value = 3
  auto grads = gradients({y}, {x, z});
  EXPECT_FALSE(grads[1].valid());
  Session sess(SessionOptions{}, &g);
  EXPECT_EQ(Values(sess.run(grads[0])), (std::vector<float>{3}));
  EXPECT_FALSE(gradients({stop_gradient(x)}, {x})[0].valid());
}

TEST(GradientsTest, GradYsScaleTheResult) {
  Graph g;
  graph_scope use(g);
  auto x = constant(Floats({1, 2}, {2}), "x");
  auto dx = gradients({square(x)}, {x}, {constant(Floats({3, 5}, {2}))})[0];
  Session sess(SessionOptions{}, &g);
  EXPECT_EQ(Values(sess.run(dx)), (std::vector<float>{6, 20}));
}

TEST(GradientsTest, NoGradientDefinedIsALookupError) {
  Graph g;
  graph_scope use(g);
  auto x = constant(Floats({1, 2}, {2}), "x");
  auto y = ops::AddOp(NodeBuilder("GradientsTestNoGrad", "odd").Input(x), {x});
  try {
    gradients({y}, {x});
    FAIL() << "no error";
  } catch (const errors::LookupError& e) {
    EXPECT_EQ(std::string(e.what()),
              "No gradient defined for operation 'odd' (op type: "
              "GradientsTestNoGrad)");
  }
}

TEST(GradientsTest, AFusionWithoutAGradientIsUnimplementedNamingTheNode) {
  // _FusedMatMul's gradient knows the two fusions the remapper makes; a
  // node built by hand with another activation has none.
  Graph g;
  graph_scope use(g);
  auto x = constant(Floats({1, 2, 3, 4}, {2, 2}), "x");
  auto bias = constant(Floats({1, 1}, {2}), "bias");
  auto y = ops::AddOp(
      NodeBuilder("_FusedMatMul", "fused")
          .Input(x)
          .Input(x)
          .Input(std::vector<Output>{bias})
          .Attr("fused_ops", std::vector<std::string>{"BiasAdd", "Elu"}),
      {x, x, bias});
  try {
    gradients({y}, {x});
    FAIL() << "no error";
  } catch (const errors::UnimplementedError& e) {
    EXPECT_EQ(std::string(e.what()),
              "Gradient of _FusedMatMul 'fused' with fused_ops other than "
              "[BiasAdd] or [BiasAdd, Relu]");
  }
}

TEST(GradientsTest, TensorsOfDifferentGraphsAreRefused) {
  Graph g1, g2;
  Output x, y;
  {
    graph_scope use(g1);
    x = constant(Floats({1}, {1}), "x");
  }
  {
    graph_scope use(g2);
    y = square(constant(Floats({1}, {1}), "x"));
  }
  EXPECT_THROW(gradients({y}, {x}), errors::InvalidArgumentError);
}

}  // namespace
}  // namespace minitf
