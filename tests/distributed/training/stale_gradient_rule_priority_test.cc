// The accumulator's stale-gradient rule as a registration
// (conditional_accumulator.h): a rule registered above the library's
// priority 0 decides for every accumulator while it is there; once removed,
// the library's rule is back.
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

class StaleGradientRuleTest : public ::testing::Test {
 protected:
  void TearDown() override { (void)tf::UnregisterStaleGradientRule(1); }

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

TEST_F(StaleGradientRuleTest, TheLibrarysRuleDropsAnOldGradient) {
  EXPECT_EQ(CountAfterAnOldGradient(), "0");
}

TEST_F(StaleGradientRuleTest, AHigherRuleDecidesAndSeesBothSteps) {
  std::vector<std::pair<int64_t, int64_t>> asked;
  ASSERT_TRUE(tf::RegisterStaleGradientRule(
                  [&asked](int64_t local_step, int64_t global_step) {
                    asked.emplace_back(local_step, global_step);
                    return false;  // nothing is stale
                  },
                  1)
                  .ok());
  EXPECT_EQ(CountAfterAnOldGradient(), "1");
  ASSERT_EQ(asked.size(), 1u);
  EXPECT_EQ(asked[0], std::make_pair(int64_t{0}, int64_t{1}));
}

TEST_F(StaleGradientRuleTest, RemovingItBringsBackTheLibrarysRule) {
  ASSERT_TRUE(
      tf::RegisterStaleGradientRule([](int64_t, int64_t) { return false; }, 1)
          .ok());
  ASSERT_TRUE(tf::UnregisterStaleGradientRule(1).ok());
  EXPECT_EQ(CountAfterAnOldGradient(), "0");
}

TEST_F(StaleGradientRuleTest, TheLibrarysRuleStays) {
  tf::Status s = tf::UnregisterStaleGradientRule(0);
  EXPECT_EQ(s.code(), tf::error::INVALID_ARGUMENT);
  EXPECT_EQ(s.message(),
            "The library's stale-gradient rule (priority 0) cannot be removed");
  s = tf::RegisterStaleGradientRule(nullptr, 0);
  EXPECT_EQ(s.message(),
            "A stale-gradient rule with priority 0 is already registered");
  EXPECT_EQ(CountAfterAnOldGradient(), "0");
}

}  // namespace
