// The exercise override of the accumulator's stale-gradient rule
// (stale_gradient_override.h): while set, every accumulator asks it whether
// a gradient is stale; once removed, the library's rule is back.
#include "minitf/distributed/training/stale_gradient_override.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "distributed_testing.h"
#include "minitf/distributed/training/conditional_accumulator.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"

namespace tf = minitf;

namespace {

using tf::testing::Str;

class StaleGradientOverrideTest : public ::testing::Test {
 protected:
  void TearDown() override { tf::RemoveStaleGradientRuleOverrideForExercise(); }

  // Applies a gradient at local step 0 to an accumulator at global step 1;
  // returns how many gradients it then holds.
  std::string CountAfterAnOldGradient() {
    tf::Graph graph;
    tf::graph_scope use(graph);
    tf::Output grad = tf::placeholder(tf::DT_FLOAT);
    tf::Output step = tf::placeholder(tf::DT_INT64, {});
    tf::ConditionalAccumulator acc(tf::DT_FLOAT, {2});
    tf::Operation apply = acc.apply_grad(grad, step);
    tf::Output count = acc.num_accumulated();
    tf::Output new_step = tf::placeholder(tf::DT_INT64, {});
    tf::Operation set_step = acc.set_global_step(new_step);
    tf::Session sess;
    sess.run(set_step, {{new_step, int64_t{1}}});
    sess.run(apply, {{grad, tf::Tensor({1.f, 2.f})}, {step, int64_t{0}}});
    return Str(sess.run(count));
  }
};

TEST_F(StaleGradientOverrideTest, TheLibrarysRuleDropsAnOldGradient) {
  EXPECT_EQ(CountAfterAnOldGradient(), "0");
}

TEST_F(StaleGradientOverrideTest, TheOverrideDecidesAndSeesBothSteps) {
  std::vector<std::pair<int64_t, int64_t>> asked;
  tf::OverrideStaleGradientRuleForExercise(
      [&asked](int64_t local_step, int64_t global_step) {
        asked.emplace_back(local_step, global_step);
        return false;  // nothing is stale
      });
  EXPECT_EQ(CountAfterAnOldGradient(), "1");
  ASSERT_EQ(asked.size(), 1u);
  EXPECT_EQ(asked[0], std::make_pair(int64_t{0}, int64_t{1}));
}

TEST_F(StaleGradientOverrideTest, RemovingItBringsBackTheLibrarysRule) {
  tf::OverrideStaleGradientRuleForExercise(
      [](int64_t, int64_t) { return false; });
  tf::RemoveStaleGradientRuleOverrideForExercise();
  EXPECT_EQ(CountAfterAnOldGradient(), "0");
}

}  // namespace
