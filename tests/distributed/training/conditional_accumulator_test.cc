// tf::ConditionalAccumulator in one process: the mean (and sum) of the
// gradients applied, the stale ones dropped, take_grad's wait without an
// executor thread, and its end when the step is given up. Values and error
// texts are TensorFlow 2.21's (tf.compat.v1 with the Ref ops of
// gen_data_flow_ops) for the same graphs.
#include "minitf/distributed/training/conditional_accumulator.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <thread>

#include "distributed_testing.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/tensor/errors.h"

namespace tf = minitf;

namespace {

using tf::testing::Str;

class AccumulatorTest : public ::testing::Test {
 protected:
  tf::Graph graph_;
  tf::graph_scope use_{graph_};
  tf::Output grad_ = tf::placeholder(tf::DT_FLOAT);
  tf::Output step_ = tf::placeholder(tf::DT_INT64, {});
};

TEST_F(AccumulatorTest, TakeGradIsTheMeanOfTheGradientsApplied) {
  // --8<-- [start:mean]
  tf::ConditionalAccumulator acc(tf::DT_FLOAT, {2}, "acc");
  tf::Operation apply = acc.apply_grad(grad_, step_);
  tf::Output mean = acc.take_grad(2);
  tf::Output count = acc.num_accumulated();
  tf::Session sess;
  sess.run(apply, {{grad_, tf::Tensor({1.f, 2.f})}, {step_, int64_t{0}}});
  sess.run(apply, {{grad_, tf::Tensor({3.f, 4.f})}, {step_, int64_t{0}}});
  EXPECT_EQ(Str(sess.run(count)), "2");
  EXPECT_EQ(Str(sess.run(mean)), "[2. 3.]");
  EXPECT_EQ(Str(sess.run(count)), "0");
  // --8<-- [end:mean]
}

TEST_F(AccumulatorTest, SumReductionAddsThem) {
  tf::ConditionalAccumulator acc(tf::DT_FLOAT, {2}, "", "sum_acc", "SUM");
  tf::Operation apply = acc.apply_grad(grad_, step_);
  tf::Output sum = acc.take_grad(2);
  tf::Session sess;
  for (int i = 0; i < 2; ++i) {
    sess.run(apply, {{grad_, tf::Tensor({1.f, 2.f})}, {step_, int64_t{0}}});
  }
  EXPECT_EQ(Str(sess.run(sum)), "[2. 4.]");
}

// Each take_grad steps the accumulator on, so a gradient computed for an
// earlier step is dropped without an error; set_global_step moves it too.
TEST_F(AccumulatorTest, AStaleGradientIsDropped) {
  // --8<-- [start:stale]
  tf::ConditionalAccumulator acc(tf::DT_FLOAT, {2});
  tf::Operation apply = acc.apply_grad(grad_, step_);
  tf::Output take = acc.take_grad(1);
  tf::Output count = acc.num_accumulated();
  tf::Output new_step = tf::placeholder(tf::DT_INT64, {});
  tf::Operation set_step = acc.set_global_step(new_step);
  tf::Session sess;
  sess.run(apply, {{grad_, tf::Tensor({1.f, 2.f})}, {step_, int64_t{0}}});
  EXPECT_EQ(Str(sess.run(take)), "[1. 2.]");  // the step is now 1
  sess.run(apply, {{grad_, tf::Tensor({5.f, 5.f})}, {step_, int64_t{0}}});
  EXPECT_EQ(Str(sess.run(count)), "0");  // local step 0 < 1: dropped
  sess.run(set_step, {{new_step, int64_t{10}}});
  sess.run(apply, {{grad_, tf::Tensor({5.f, 5.f})}, {step_, int64_t{9}}});
  EXPECT_EQ(Str(sess.run(count)), "0");
  sess.run(apply, {{grad_, tf::Tensor({1.f, 1.f})}, {step_, int64_t{10}}});
  sess.run(apply, {{grad_, tf::Tensor({3.f, 3.f})}, {step_, int64_t{11}}});
  EXPECT_EQ(Str(sess.run(count)), "2");
  // --8<-- [end:stale]
}

TEST_F(AccumulatorTest, ErrorsAreTensorFlows) {
  tf::ConditionalAccumulator acc(tf::DT_FLOAT, {2}, "acc");
  tf::Operation apply = acc.apply_grad(grad_, step_);
  tf::Output n = tf::placeholder(tf::DT_INT32, {});
  tf::Output take = acc.take_grad(n);
  tf::Session sess;
  EXPECT_NE(tf::testing::InvalidArgumentText([&] {
              sess.run(apply, {{grad_, tf::Tensor({1.f, 2.f, 3.f})},
                               {step_, int64_t{0}}});
            }).find("Shape mismatch: expected [2], got [3]"),
            std::string::npos);
  EXPECT_NE(tf::testing::InvalidArgumentText([&] {
              sess.run(take, {{n, int32_t{0}}});
            }).find("Argument num_required must be positive, but was 0"),
            std::string::npos);
  // At graph construction, as Python checks.
  EXPECT_EQ(tf::testing::InvalidArgumentText([&] {
              acc.apply_grad(tf::constant(tf::Tensor({1.f, 2.f, 3.f})));
            }),
            "Shapes (3,) and (2,) are incompatible");
  EXPECT_EQ(tf::testing::InvalidArgumentText([&] {
              acc.apply_grad(tf::constant(tf::Tensor({1.0, 2.0})));
            }),
            "Tensor conversion requested dtype float32 for Tensor with dtype "
            "float64");
  EXPECT_EQ(tf::testing::InvalidArgumentText([&] {
              tf::ConditionalAccumulator(tf::DT_FLOAT, {2}, "", "a", "MAX");
            }),
            "Attr 'reduction_type' of 'ConditionalAccumulator' Op passed "
            "string 'MAX' not in: \"MEAN\", \"SUM\".");
}

// An accumulator of unknown shape takes the first gradient's; later ones of
// that step must match it.
TEST_F(AccumulatorTest, AnUnknownShapeTakesTheFirstGradients) {
  tf::ConditionalAccumulator acc(tf::DT_FLOAT);
  tf::Operation apply = acc.apply_grad(grad_, step_);
  tf::Session sess;
  sess.run(apply, {{grad_, tf::Tensor({1.f, 2.f})}, {step_, int64_t{0}}});
  EXPECT_NE(tf::testing::InvalidArgumentText([&] {
              sess.run(apply, {{grad_, tf::Tensor({1.f, 2.f, 3.f})},
                               {step_, int64_t{0}}});
            }).find("Shape mismatch: expected [2], got [3]"),
            std::string::npos);
}

// The take waits in the accumulator, not on a thread: with one inter-op
// thread, the apply_grads that end its wait still run.
TEST_F(AccumulatorTest, AWaitingTakeHoldsNoExecutorThread) {
  // --8<-- [start:wait]
  tf::ConditionalAccumulator acc(tf::DT_FLOAT, {2});
  tf::Operation apply = acc.apply_grad(grad_, step_);
  tf::Output mean = acc.take_grad(2);
  tf::ConfigProto config;
  config.inter_op_parallelism_threads = 1;
  tf::Session sess(config);
  std::string taken;
  std::thread taker([&] { taken = Str(sess.run(mean)); });
  sess.run(apply, {{grad_, tf::Tensor({1.f, 1.f})}, {step_, int64_t{0}}});
  sess.run(apply, {{grad_, tf::Tensor({3.f, 5.f})}, {step_, int64_t{0}}});
  taker.join();
  EXPECT_EQ(taken, "[2. 3.]");
  // --8<-- [end:wait]
}

// A step given up (here by its RunOptions timeout) ends the take, which
// leaves the accumulator as it was: a later take gets the gradients.
TEST_F(AccumulatorTest, AGivenUpStepCancelsTheTake) {
  tf::ConditionalAccumulator acc(tf::DT_FLOAT, {2});
  tf::Operation apply = acc.apply_grad(grad_, step_);
  tf::Output mean = acc.take_grad(1);
  tf::Session sess;
  tf::RunOptions options;
  options.timeout_in_ms = 50;
  EXPECT_NE(tf::testing::ErrorText<tf::errors::DeadlineExceededError>([&] {
              sess.run({mean}, {}, options, nullptr);
            }).find("Timed out waiting for notification"),
            std::string::npos);
  sess.run(apply, {{grad_, tf::Tensor({4.f, 2.f})}, {step_, int64_t{0}}});
  EXPECT_EQ(Str(sess.run(mean)), "[4. 2.]");
}

}  // namespace
