// The layer's API as a program spells it, through the umbrella header
// <minitf/minitf.h> with every layer built (so its names must not clash with
// a lower layer's): a model built twice under one variable scope, the second
// time reusing the first one's variables, as the towers of this chapter do.
#include <gtest/gtest.h>
#include <minitf/minitf.h>

#include <vector>

namespace tf = minitf;

namespace {

// def model(x):
//   w = tf.get_variable("w", [3, 2],
//                       initializer=tf.truncated_normal_initializer(stddev=0.1))
//   b = tf.get_variable("b", [2], initializer=tf.zeros_initializer())
//   return tf.matmul(x, w) + b
tf::Output Model(tf::Output x) {
  auto w =
      tf::get_variable("w", {3, 2}, tf::truncated_normal_initializer(0.0, 0.1));
  auto b = tf::get_variable("b", {2}, tf::zeros_initializer());
  return tf::matmul(x, w) + b;
}

TEST(TowersApiTest, TwoTowersOneModel) {
  tf::Graph g;
  tf::graph_scope use(g);
  auto x = tf::constant({1.f, 2.f, 3.f}, {1, 3}, "x");
  std::vector<tf::Output> ys;
  for (int i = 0; i < 2; ++i) {
    tf::name_scope tower("tower_" + std::to_string(i));
    tf::variable_scope model("model", tf::AUTO_REUSE);
    ys.push_back(Model(x));
  }
  EXPECT_EQ(tf::trainable_variables().size(), 2u);
  EXPECT_EQ(tf::trainable_variables()[0].name(), "model/w:0");
  EXPECT_EQ(ys[0].name(), "tower_0/model/add:0");
  EXPECT_EQ(ys[1].name(), "tower_1/model/add:0");
  tf::Session sess;
  sess.run(tf::global_variables_initializer());
  auto r = sess.run({ys[0], ys[1]});
  EXPECT_EQ(r[0].data<float>()[0], r[1].data<float>()[0]);
  EXPECT_EQ(r[0].data<float>()[1], r[1].data<float>()[1]);
}

}  // namespace
