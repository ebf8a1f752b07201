// Tests of exercise 02_tower_loop. The starter throws UnimplementedError, so
// every test fails on it; a correct BuildTowers makes one set of variables,
// puts each tower in its device and name scopes, and leaves the variable
// scope as it found it.
#include "tower_loop.h"

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
#include "minitf/train/variables.h"

namespace minitf::exercises {
namespace {

// A model of one variable, w:[3,2] of ones, and tower k's data x = k+1 in
// a [1,3] row: loss = sum(x·w), so d loss/dw is k+1 everywhere.
struct Model {
  int calls = 0;
  Output operator()() {
    Variable w = get_variable("w", {3, 2}, ones_initializer());
    const float k = static_cast<float>(++calls);
    Output x = constant({k, k, k}, {1, 3}, "x");
    return reduce_sum(matmul(x, w));
  }
};

// The device a node built here under device_scope(spec) asks for.
std::string Requested(const std::string& spec) {
  Graph g;
  graph_scope use(g);
  device_scope on(spec);
  return constant(1.f).node()->requested_device();
}

TEST(TowerLoopExerciseTest, OneSetOfVariablesForAllTowers) {
  Graph g;
  graph_scope use(g);
  Model model;
  std::vector<std::vector<Output>> grads =
      BuildTowers(3, [&] { return model(); });
  EXPECT_EQ(model.calls, 3);
  ASSERT_EQ(trainable_variables().size(), 1u);
  EXPECT_EQ(trainable_variables()[0].name(), "w:0");
  ASSERT_EQ(grads.size(), 3u);
  for (const auto& tower : grads) ASSERT_EQ(tower.size(), 1u);
}

TEST(TowerLoopExerciseTest, EachTowerInItsScopesAndOnItsGpu) {
  Graph g;
  graph_scope use(g);
  Model model;
  std::vector<std::vector<Output>> grads =
      BuildTowers(2, [&] { return model(); });
  ASSERT_EQ(grads.size(), 2u);
  ASSERT_EQ(grads[1].size(), 1u);
  for (int i = 0; i < 2; ++i) {
    const std::string tower = "tower_" + std::to_string(i) + "/";
    EXPECT_EQ(grads[i][0].name().rfind(tower, 0), 0u) << grads[i][0].name();
    EXPECT_EQ(grads[i][0].node()->requested_device(),
              Requested("/gpu:" + std::to_string(i)));
    ASSERT_NE(g.FindNode(tower + "x"), nullptr) << "no " << tower << "x";
  }
}

TEST(TowerLoopExerciseTest, TheTowersRunOnTheirGpus) {
  Graph g;
  graph_scope use(g);
  Model model;
  std::vector<std::vector<Output>> grads =
      BuildTowers(3, [&] { return model(); });
  ASSERT_EQ(grads.size(), 3u);
  Session sess(ConfigProto{.gpu_options = {.virtual_gpus = 3}});
  sess.run(global_variables_initializer());
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(grads[i].size(), 1u);
    Tensor dw = sess.run(grads[i][0]);
    ASSERT_EQ(dw.NumElements(), 6);
    for (int j = 0; j < 6; ++j) {
      EXPECT_FLOAT_EQ(dw.data<float>()[j], i + 1.f) << "tower " << i;
    }
  }
}

TEST(TowerLoopExerciseTest, ReuseEndsWithTheLoop) {
  Graph g;
  graph_scope use(g);
  Model model;
  BuildTowers(2, [&] { return model(); });
  EXPECT_EQ(get_variable_scope().reuse(), Reuse::kFalse);
  // A new variable can be created again, and "w" cannot be made twice.
  EXPECT_EQ(get_variable("v", {2}).name(), "v:0");
  try {
    get_variable("w", {3, 2});
    ADD_FAILURE() << "a second w was created";
  } catch (const errors::InvalidArgumentError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("Variable w already exists", 0), 0u)
        << e.what();
  }
}

}  // namespace
}  // namespace minitf::exercises
