// Tests of exercise 03_stale_accumulator. The starter throws
// UnimplementedError, so every test fails on it; a correct accumulator
// gives the library's ConditionalAccumulator's answers (the last test runs
// both on the same gradients).
#include "stale_accumulator.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "exercise_checks.h"
#include "minitf/distributed/training/conditional_accumulator.h"
#include "minitf/graph/config.h"
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
  EXPECT_TRUE(SameValues(*mean, {2.f, 3.f}));
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
  EXPECT_TRUE(SameValues(*acc.TryTakeGrad(2), {3.f, 4.f}));
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
      // The library's take waits until it holds two gradients. When yours
      // counted one it dropped (or dropped one it kept), the take would wait
      // for ever; the deadline turns that into a failure that says so.
      std::vector<Tensor> t;
      try {
        t = sess.run({take}, {}, RunOptions{.timeout_in_ms = 5000}, nullptr);
      } catch (const errors::DeadlineExceededError&) {
        FAIL() << "the library's take_grad never returned within 5 s: "
                  "after the gradient of local step "
               << local_step
               << " your accumulator counts 2 gradients (global step "
               << mine.global_step()
               << "), the library's fewer. It dropped as stale a gradient "
                  "that yours kept, or your count is off.";
      }
      std::vector<float> expected = {t[0].flat<float>()(0),
                                     t[0].flat<float>()(1)};
      EXPECT_TRUE(SameValues(*mine.TryTakeGrad(2), expected));
    }
  }
  EXPECT_EQ(mine.global_step(), 2);
}

}  // namespace
}  // namespace minitf::exercises
