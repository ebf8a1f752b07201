// Tests of exercise 04_token_loop. The starter throws UnimplementedError,
// so every test fails on it. The tests build a chief's update in one
// process: an accumulator for the gradient of W, the update of W from its
// mean with global_step, and the token queue.
#include "token_loop.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <sstream>
#include <string>
#include <vector>

#include "exercise_checks.h"
#include "minitf/distributed/training/conditional_accumulator.h"
#include "minitf/graph/config.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/tensor/errors.h"
#include "minitf/train/optimizers/gradient_descent.h"
#include "minitf/train/variables.h"

namespace minitf::exercises {
namespace {

std::string Str(const Tensor& t) {
  std::ostringstream s;
  s << t;
  return s.str();
}

class TokenLoopTest : public ::testing::Test {
 protected:
  void SetUp() override {
    global_step_ = Variable(Tensor(int64_t{0}), "global_step", false);
    W_ = Variable(Tensor({0.f, 0.f}), "W");
    grad_ = placeholder(DT_FLOAT, {2});
    step_ = placeholder(DT_INT64, {});
    apply_ = accum_.apply_grad(grad_, step_);
    update_ = gd_.apply_gradients({{accum_.take_grad(1), W_}}, &global_step_);
  }

  // A worker's gradient for `local_step`.
  void Apply(Session& sess, float g, int64_t local_step) {
    sess.run(apply_, {{grad_, Tensor({g, g})}, {step_, local_step}});
  }

  // A worker's dequeue of its token, which waits until a refill has put one
  // in the queue: given 5 s, as text, or "(none)" after a failure that says
  // what the queue lacked.
  std::string Dequeue(Session& sess, Output token, const std::string& why) {
    try {
      return Str(
          sess.run({token}, {}, RunOptions{.timeout_in_ms = 5000}, nullptr)[0]);
    } catch (const errors::DeadlineExceededError&) {
      ADD_FAILURE() << "a worker's dequeue of its token never returned within "
                       "5 s: the token queue is empty, "
                    << why;
      return "(none)";
    }
  }

  Graph graph_;
  graph_scope use_{graph_};
  Variable global_step_, W_;
  ConditionalAccumulator accum_{DT_FLOAT, {2}};
  train::GradientDescentOptimizer gd_{1.0};
  Output grad_, step_;
  Operation apply_, update_;
  FIFOQueue queue_{
      -1, {DT_INT64}, {TensorShape({})}, "sync_token_q", "sync_token_q"};
};

TEST_F(TokenLoopTest, TheRefillPutsOneTokenPerWorkerWithTheNewStep) {
  Operation sync_op = BuildTokenRefill(queue_, update_, 3);
  Session sess;
  sess.run(global_variables_initializer());
  Apply(sess, 1.f, 0);
  sess.run(sync_op);
  EXPECT_EQ(Str(sess.run(queue_.size())), "3");
  Output token = queue_.dequeue();
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(Dequeue(sess, token,
                      "so your BuildTokenRefill's op put fewer than 3 tokens "
                      "in it"),
              "1");
  }
  EXPECT_EQ(Str(sess.run(W_)), "[-1. -1.]");
}

TEST_F(TokenLoopTest, TheLoopRunsAnUpdatePerStepUntilStopped) {
  Operation sync_op = BuildTokenRefill(queue_, update_, 2);
  Session sess;
  sess.run(global_variables_initializer());
  train::Coordinator coord;
  std::future<int> chief = std::async(
      std::launch::async, [&] { return RunTokenLoop(&sess, sync_op, &coord); });
  Output token = queue_.dequeue();
  for (int64_t step = 0; step < 3; ++step) {
    Apply(sess, 1.f, step);  // the chief's take waits for this
    // A loop that has ended (or thrown) already would leave the dequeues
    // below waiting for tokens that never come.
    if (chief.wait_for(std::chrono::milliseconds(100)) ==
        std::future_status::ready) {
      const int early = chief.get();  // rethrows what the loop threw
      FAIL() << "your RunTokenLoop returned " << early
             << " before its coordinator's stop";
    }
    for (int i = 0; i < 2; ++i) {
      EXPECT_EQ(Dequeue(sess, token,
                        "so your RunTokenLoop did not run the sync op once "
                        "for each step"),
                std::to_string(step + 1));
    }
  }
  coord.request_stop();
  // The loop may be waiting in a fourth take already, or may have seen the
  // stop first: a gradient for step 3 ends that take. Either way every run
  // it counts is one update.
  Apply(sess, 1.f, 3);
  const int runs =
      GetWithin(chief, 10, "RunTokenLoop", "after its coordinator's stop");
  EXPECT_GE(runs, 3);
  EXPECT_EQ(Str(sess.run(global_step_)), std::to_string(runs));
}

TEST_F(TokenLoopTest, OutOfRangeEndsTheLoopQuietly) {
  // A sync op that dequeues from a closed, empty queue.
  FIFOQueue closed(-1, {DT_INT64});
  Operation sync_op = queue_.enqueue(closed.dequeue());
  Session sess;
  sess.run(closed.close());
  train::Coordinator coord;
  EXPECT_EQ(
      ReturnsWithin(10, "RunTokenLoop", "when its sync op ends OutOfRange",
                    [&] { return RunTokenLoop(&sess, sync_op, &coord); }),
      0);
  EXPECT_FALSE(coord.should_stop());
}

TEST_F(TokenLoopTest, AnotherErrorStopsTheCoordinatorWithIt) {
  Operation bad = Operation(accum_.take_grad(0).node());  // num_required 0
  Session sess;
  train::Coordinator coord;
  EXPECT_EQ(ReturnsWithin(10, "RunTokenLoop", "when its sync op fails",
                          [&] { return RunTokenLoop(&sess, bad, &coord); }),
            0);
  EXPECT_TRUE(coord.should_stop());
  EXPECT_THROW(coord.join(), errors::InvalidArgumentError);
}

}  // namespace
}  // namespace minitf::exercises
