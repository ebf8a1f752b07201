#include <gtest/gtest.h>

#include <vector>

#include "minitf/graph/api.h"
#include "minitf/train/api.h"

namespace minitf {
namespace {

// Seed 000's linear regression, trained with the seed's loss, optimizer and
// rate, must end at the least-squares line of the same data, computed here
// independently. The seed runs 100,000 steps (its program does too). At
// rate 0.01 each step multiplies the error by at most 0.994 in size (the
// Hessian's eigenvalues are 199.4 and 0.88), so 5,000 steps land on the
// line to within float32's rounding, far inside 1e-3.
TEST(MinimizeTest, SeedLinearRegressionReachesTheLeastSquaresLine) {
  Graph g;
  graph_scope use(g);
  Variable w(0.0f, "weight");
  Variable b(0.0f, "bias");
  Output x = placeholder(float32, {None});
  Output out = placeholder(float32, {None});
  Output y = w * x + b;
  Output loss = reduce_mean(square(y - out));
  train::GradientDescentOptimizer optimizer(0.01);
  Operation train_op = optimizer.minimize(loss);

  const std::vector<float> xs = {1, 23, 4, 5, 7, 5, 7};
  const std::vector<float> outs = {3, 5, 7, 9, 11, 13, 15};
  // Normal equations of y = w x + b, in double.
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    sx += xs[i];
    sy += outs[i];
    sxx += double(xs[i]) * xs[i];
    sxy += double(xs[i]) * outs[i];
  }
  const double n = xs.size();
  const double w_star = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  const double b_star = (sy - w_star * sx) / n;

  Session sess;
  sess.run(global_variables_initializer());
  const Tensor x_value = Tensor::FromVector(xs, TensorShape({7})).value();
  const Tensor out_value = Tensor::FromVector(outs, TensorShape({7})).value();
  float first_loss = 0;
  std::vector<Tensor> r;
  for (int i = 0; i < 5000; ++i) {
    r = sess.run({train_op, loss, w, b}, {{x, x_value}, {out, out_value}});
    if (i == 0) first_loss = r[1].scalar<float>();
  }
  // The seed's first step: w = b = 0, so the loss is mean(out^2) = 97.
  EXPECT_FLOAT_EQ(first_loss, 97.f);
  EXPECT_NEAR(r[2].scalar<float>(), w_star, 1e-3);
  EXPECT_NEAR(r[3].scalar<float>(), b_star, 1e-3);
}

TEST(MinimizeTest, ComputeGradientsPairsEachVariableWithItsGradient) {
  Graph g;
  graph_scope use(g);
  Variable w(2.0f, "w");
  Variable unused(1.0f, "unused");
  Output loss = square(Output(w));
  train::GradientDescentOptimizer optimizer(0.5);
  auto pairs = optimizer.compute_gradients(loss);
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_TRUE(pairs[0].first.valid());
  EXPECT_FALSE(pairs[1].first.valid());  // unused: None, as in TensorFlow.
  Session sess;
  sess.run(global_variables_initializer());
  EXPECT_FLOAT_EQ(sess.run(pairs[0].first).scalar<float>(), 4.f);
  sess.run(optimizer.apply_gradients(pairs));
  EXPECT_FLOAT_EQ(sess.run(Output(w)).scalar<float>(), 0.f);  // 2 - 0.5 * 4
}

}  // namespace
}  // namespace minitf

namespace minitf {
namespace {

TEST(MinimizeTest, NoVariablesIsAnError) {
  Graph g;
  graph_scope use(g);
  Output loss = square(constant(2.f));
  train::GradientDescentOptimizer optimizer(0.5);
  try {
    optimizer.minimize(loss);
    FAIL() << "expected an error";
  } catch (const errors::InvalidArgumentError& e) {
    EXPECT_STREQ(e.what(), "No variables to optimize.");
  }
}

}  // namespace
}  // namespace minitf
