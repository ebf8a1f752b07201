// get_variable's initializers against TensorFlow 2.21's tf.compat.v1: the
// node names and constants expected here are what TensorFlow built.
#include "minitf/towers/variable_sharing/init_ops.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/towers/variable_sharing/variable_scope.h"

namespace minitf {
namespace {

std::vector<float> Values(const Tensor& t) {
  const float* p = t.data<float>();
  return std::vector<float>(p, p + t.NumElements());
}

// The scalar value of the Const node `name`.
float ConstValue(const Graph& g, const std::string& name) {
  const Node* n = g.FindNode(name);
  EXPECT_NE(n, nullptr) << name;
  if (n == nullptr) return NAN;
  return n->attrs().at("value").get<Tensor>().scalar<float>();
}

// tf.get_variable(name, [3], initializer=...) in scope "s".
TEST(InitOpsTest, EachInitializerBuildsTensorFlowsNodes) {
  Graph g;
  graph_scope use(g);
  variable_scope s("s");
  EXPECT_EQ(get_variable("b", {3}, zeros_initializer()).initial_value().name(),
            "s/b/Initializer/zeros:0");
  EXPECT_EQ(get_variable("c", {3}, ones_initializer()).initial_value().name(),
            "s/c/Initializer/ones:0");
  EXPECT_EQ(
      get_variable("d", {3}, constant_initializer(0.5)).initial_value().name(),
      "s/d/Initializer/Const:0");
  EXPECT_EQ(get_variable("e", {3}, random_normal_initializer(0.0, 2.0))
                .initial_value()
                .name(),
            "s/e/Initializer/random_normal:0");
  EXPECT_EQ(get_variable("f", {3}, truncated_normal_initializer(0.0, 2.0))
                .initial_value()
                .name(),
            "s/f/Initializer/truncated_normal:0");
  EXPECT_EQ(get_variable("h", {3}, glorot_uniform_initializer())
                .initial_value()
                .name(),
            "s/h/Initializer/random_uniform:0");
  EXPECT_EQ(get_variable("ru", {2}, random_uniform_initializer(-1.0, 1.0))
                .initial_value()
                .name(),
            "s/ru/Initializer/random_uniform:0");
  EXPECT_EQ(g.FindNode("s/e/Initializer/random_normal/RandomStandardNormal")
                ->type_string(),
            "RandomStandardNormal");
  EXPECT_EQ(ConstValue(g, "s/e/Initializer/random_normal/stddev"), 2.f);
}

// The default initializer is glorot_uniform: TensorFlow's max Const for
// shapes [], [5], [784, 10] and [3, 3, 2, 4] (min is its negative).
TEST(InitOpsTest, GlorotUniformLimitsAreTensorFlows) {
  Graph g;
  graph_scope use(g);
  get_variable("g0", {});
  get_variable("g1", {5});
  get_variable("g2", {784, 10});
  get_variable("g4", {3, 3, 2, 4});
  EXPECT_FLOAT_EQ(ConstValue(g, "g0/Initializer/random_uniform/max"),
                  1.73205078f);
  EXPECT_FLOAT_EQ(ConstValue(g, "g1/Initializer/random_uniform/max"),
                  0.774596691f);
  EXPECT_FLOAT_EQ(ConstValue(g, "g2/Initializer/random_uniform/max"),
                  0.086929135f);
  EXPECT_FLOAT_EQ(ConstValue(g, "g4/Initializer/random_uniform/max"),
                  0.333333343f);
  EXPECT_FLOAT_EQ(ConstValue(g, "g2/Initializer/random_uniform/min"),
                  -0.086929135f);
}

TEST(InitOpsTest, ComputeFans) {
  EXPECT_EQ(ComputeFans({}).fan_in, 1.0);
  EXPECT_EQ(ComputeFans({5}).fan_out, 5.0);
  EXPECT_EQ(ComputeFans({784, 10}).fan_in, 784.0);
  EXPECT_EQ(ComputeFans({784, 10}).fan_out, 10.0);
  EXPECT_EQ(ComputeFans({3, 3, 2, 4}).fan_in, 18.0);
  EXPECT_EQ(ComputeFans({3, 3, 2, 4}).fan_out, 36.0);
}

// An integer variable gets zeros by default, as in TensorFlow
// (tf.get_variable("iz", [2], dtype=tf.int32): "iz/Initializer/zeros").
TEST(InitOpsTest, IntegerVariablesStartAtZero) {
  Graph g;
  graph_scope use(g);
  Variable iz = get_variable("iz", {2}, nullptr, true,
                             {GraphKeys::GLOBAL_VARIABLES}, DT_INT32);
  EXPECT_EQ(iz.initial_value().name(), "iz/Initializer/zeros:0");
  EXPECT_EQ(iz.dtype(), DT_INT32);
  Session sess;
  sess.run(iz.initializer());
  EXPECT_EQ(sess.run(iz).data<int32_t>()[1], 0);
}

TEST(InitOpsTest, InitialValuesAreInRange) {
  Graph g;
  graph_scope use(g);
  Variable c = get_variable("c", {2, 2}, constant_initializer(3.0));
  Variable glorot = get_variable("w", {784, 10});
  Variable tn =
      get_variable("t", {1000}, truncated_normal_initializer(1.0, 0.5));
  Session sess;
  sess.run(global_variables_initializer());
  EXPECT_EQ(Values(sess.run(c)), (std::vector<float>{3.f, 3.f, 3.f, 3.f}));
  const float limit = std::sqrt(6.f / 794.f);
  for (float v : Values(sess.run(glorot))) {
    EXPECT_GE(v, -limit);
    EXPECT_LT(v, limit);
  }
  for (float v : Values(sess.run(tn))) {
    EXPECT_GE(v, 0.f);  // Within two standard deviations of the mean.
    EXPECT_LE(v, 2.f);
  }
}

}  // namespace
}  // namespace minitf
