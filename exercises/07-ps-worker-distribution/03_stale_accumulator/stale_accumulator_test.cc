// Tests of exercise 03_stale_accumulator. The starter throws
// UnimplementedError, so every test fails on it; a correct accumulator
// gives the library's ConditionalAccumulator's answers (the last test runs
// both on the same gradients).
#include "stale_accumulator.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "minitf/distributed/conditional_accumulator.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/tensor/errors.h"

namespace minitf::exercises {
namespace {

TEST(StaleAccumulator, TakesTheMeanOnceEnoughAreIn) {
  StaleAccumulator acc(2);
  EXPECT_TRUE(acc.ApplyGrad(0, {1.f, 2.f}));
  EXPECT_FALSE(acc.TryTakeGrad(2).has_value());  // one of two
  EXPECT_EQ(acc.count(), 1);
  EXPECT_TRUE(acc.ApplyGrad(0, {3.f, 4.f}));
  std::optional<std::vector<float>> mean = acc.TryTakeGrad(2);
  ASSERT_TRUE(mean.has_value());
  EXPECT_EQ(*mean, (std::vector<float>{2.f, 3.f}));
  EXPECT_EQ(acc.count(), 0);
  EXPECT_EQ(acc.global_step(), 1);
}

TEST(StaleAccumulator, DropsStaleGradients) {
  StaleAccumulator acc(2);
  acc.ApplyGrad(0, {1.f, 1.f});
  ASSERT_TRUE(acc.TryTakeGrad(1).has_value());
  EXPECT_FALSE(acc.ApplyGrad(0, {9.f, 9.f}));  // the late worker's
  EXPECT_EQ(acc.count(), 0);
  EXPECT_TRUE(acc.ApplyGrad(1, {2.f, 4.f}));
  EXPECT_TRUE(acc.ApplyGrad(5, {4.f, 4.f}));  // ahead is not stale
  EXPECT_EQ(*acc.TryTakeGrad(2), (std::vector<float>{3.f, 4.f}));
  acc.SetGlobalStep(10);
  EXPECT_FALSE(acc.ApplyGrad(9, {1.f, 1.f}));
  EXPECT_TRUE(acc.ApplyGrad(10, {1.f, 1.f}));
}

TEST(StaleAccumulator, ErrorsAreTensorFlows) {
  StaleAccumulator acc(2);
  try {
    acc.ApplyGrad(0, {1.f, 2.f, 3.f});
    ADD_FAILURE() << "no error";
  } catch (const errors::InvalidArgumentError& e) {
    EXPECT_EQ(std::string(e.what()), "Shape mismatch: expected [2], got [3]");
  }
  // A stale gradient is dropped before its shape is looked at.
  acc.SetGlobalStep(3);
  EXPECT_FALSE(acc.ApplyGrad(0, {1.f, 2.f, 3.f}));
  try {
    acc.TryTakeGrad(0);
    ADD_FAILURE() << "no error";
  } catch (const errors::InvalidArgumentError& e) {
    EXPECT_EQ(std::string(e.what()),
              "Argument num_required must be positive, but was 0");
  }
}

// The same gradients, steps and takes through the library's accumulator.
TEST(StaleAccumulator, AgreesWithTheLibrary) {
  Graph graph;
  graph_scope use(graph);
  ConditionalAccumulator library(DT_FLOAT, {2});
  Output grad = placeholder(DT_FLOAT, {2});
  Output step = placeholder(DT_INT64, {});
  Operation apply = library.apply_grad(grad, step);
  Output take = library.take_grad(2);
  Session sess;
  StaleAccumulator mine(2);
  const std::vector<std::pair<int64_t, std::vector<float>>> grads = {
      {0, {1.f, 5.f}},
      {0, {3.f, 1.f}},
      {0, {7.f, 7.f}},
      {1, {2.f, 2.f}},
      {2, {4.f, 8.f}}};
  for (const auto& [local_step, g] : grads) {
    sess.run(apply, {{grad, Tensor({g[0], g[1]})}, {step, local_step}});
    mine.ApplyGrad(local_step, g);
    if (mine.count() == 2) {
      Tensor t = sess.run(take);
      std::vector<float> expected = {t.flat<float>()(0), t.flat<float>()(1)};
      EXPECT_EQ(*mine.TryTakeGrad(2), expected);
    }
  }
  EXPECT_EQ(mine.global_step(), 2);
}

}  // namespace
}  // namespace minitf::exercises
