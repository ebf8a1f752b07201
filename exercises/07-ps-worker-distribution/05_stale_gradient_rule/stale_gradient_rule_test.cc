// Exercise 05_stale_gradient_rule's tests: the rule on the steps the
// chapter's synchronous training meets, on the edges of int64, and beside
// the library's ConditionalAccumulator, which must accept and drop the same
// gradients.
#include "stale_gradient_rule.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "minitf/distributed/training/conditional_accumulator.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"

namespace tf = minitf;
using tf::exercises::GradientIsStale;

namespace {

TEST(StaleGradientRule, AGradientOfTheCurrentStepCounts) {
  EXPECT_FALSE(GradientIsStale(0, 0));
  EXPECT_FALSE(GradientIsStale(7, 7));
}

TEST(StaleGradientRule, AGradientOfAnEarlierStepIsStale) {
  EXPECT_TRUE(GradientIsStale(0, 1));
  EXPECT_TRUE(GradientIsStale(6, 7));
  EXPECT_TRUE(GradientIsStale(9, 1000));
}

TEST(StaleGradientRule, AGradientOfALaterStepCounts) {
  // After set_global_step moves the accumulator back, or a worker ahead.
  EXPECT_FALSE(GradientIsStale(11, 10));
  EXPECT_FALSE(GradientIsStale(1000, 0));
}

TEST(StaleGradientRule, AnyInt64) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  EXPECT_TRUE(GradientIsStale(kMin, kMax));
  EXPECT_FALSE(GradientIsStale(kMax, kMin));
  EXPECT_TRUE(GradientIsStale(-1, 0));
  EXPECT_FALSE(GradientIsStale(-5, -5));
}

// The library's accumulator at `global_step` given a gradient of
// `local_step`: whether it dropped it.
bool LibraryDrops(int64_t local_step, int64_t global_step) {
  tf::Graph graph;
  tf::graph_scope use(graph);
  tf::Output grad = tf::placeholder(tf::DT_FLOAT);
  tf::Output step = tf::placeholder(tf::DT_INT64, {});
  tf::Output new_step = tf::placeholder(tf::DT_INT64, {});
  tf::ConditionalAccumulator acc(tf::DT_FLOAT, {1});
  tf::Operation set_step = acc.set_global_step(new_step);
  tf::Operation apply = acc.apply_grad(grad, step);
  tf::Output count = acc.num_accumulated();
  tf::Session sess;
  sess.run(set_step, {{new_step, global_step}});
  sess.run(apply, {{grad, tf::Tensor({1.f})}, {step, local_step}});
  return sess.run(count).scalar<int32_t>() == 0;
}

TEST(StaleGradientRule, AgreesWithTheLibrarysAccumulator) {
  for (int64_t global_step : {0, 1, 5}) {
    for (int64_t local_step = -2; local_step <= 7; ++local_step) {
      EXPECT_EQ(GradientIsStale(local_step, global_step),
                LibraryDrops(local_step, global_step))
          << "a gradient of local step " << local_step << " at global step "
          << global_step;
    }
  }
}

}  // namespace
