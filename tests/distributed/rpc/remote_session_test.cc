// Sessions on "grpc://" targets: a client graph placed over a cluster of
// three tasks (one ps, two workers), cut by task, run with RunGraph and
// RecvTensor. The tasks are servers of this process on loopback ports; a
// test that needs separate processes is in the chapter's programs. Results
// and error texts are TensorFlow 2.21's (tf.compat.v1.Session on
// tf.distribute.Server) for the same graphs.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "distributed_testing.h"
#include "minitf/distributed/runtime/proto/worker_service.grpc.pb.h"
#include "minitf/distributed/runtime/rpc/grpc_server.h"
#include "minitf/distributed/runtime/server.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/run_metadata.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/tensor/errors.h"
#include "minitf/train/variables.h"

namespace tf = minitf;

namespace {

using tf::train::ClusterSpec;
using tf::train::Server;

// One ps and two workers, each a server of this process, logging into
// `log`.
class ClusterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cluster_ = ClusterSpec(
        {{"ps", {tf::testing::FreeAddress()}},
         {"worker", {tf::testing::FreeAddress(), tf::testing::FreeAddress()}}});
    ps_ = std::make_unique<Server>(cluster_, "ps", 0, tf::ConfigProto{},
                                   Options());
    w0_ = std::make_unique<Server>(cluster_, "worker", 0, tf::ConfigProto{},
                                   Options());
    w1_ = std::make_unique<Server>(cluster_, "worker", 1, tf::ConfigProto{},
                                   Options());
  }

  tf::train::ServerOptions Options() { return {.log_stream = &log_}; }

  tf::SessionOptions On(const Server& server) {
    tf::SessionOptions options;
    options.target = server.target();
    options.config.operation_timeout_in_ms = 30000;  // a broken test ends
    return options;
  }

  std::ostringstream log_;
  ClusterSpec cluster_;
  std::unique_ptr<Server> ps_, w0_, w1_;
  tf::Graph graph_;
  tf::graph_scope use_{graph_};
};

std::string Str(const tf::Tensor& t) {
  std::ostringstream s;
  s << t;
  return s.str();
}

TEST_F(ClusterTest, SeedOneMatmulRunsOnAServer) {
  // Seed 001's graph: [[1 2 3] [4 5 6]] x [[1 2] [3 4] [5 6]].
  tf::Output x = tf::constant(tf::Tensor({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}}));
  tf::Output y = tf::constant(tf::Tensor({{1.f, 2.f}, {3.f, 4.f}, {5.f, 6.f}}));
  tf::Output c = tf::matmul(x, y);
  tf::Session sess(On(*w0_), &graph_);
  EXPECT_EQ(Str(sess.run(c)), "[[22. 28.]\n [49. 64.]]");
}

// Variables on the ps, the model on a worker, the session on the other
// worker: three tasks in one step, as seed 003 places them.
TEST_F(ClusterTest, APlacedGraphSpansThreeTasks) {
  // --8<-- [start:three_tasks]
  tf::Variable w;
  {
    tf::device_scope on("/job:ps/task:0");
    w = tf::Variable(tf::Tensor({{1.f}, {2.f}}), "w");
  }
  tf::Output x = tf::placeholder(tf::DT_FLOAT, {tf::None, 2}, "x");
  tf::Output y;
  {
    tf::device_scope on("/job:worker/task:1");
    y = tf::matmul(x, w.value());
  }
  tf::Session sess(On(*w0_), &graph_);
  sess.run(w.initializer());
  tf::Tensor out = sess.run(y, {{x, tf::Tensor({{1.f, 1.f}, {2.f, 3.f}})}});
  EXPECT_EQ(Str(out), "[[3.]\n [8.]]");
  // --8<-- [end:three_tasks]
}

// A node that asks for no device runs on the task the session was made on,
// as in TensorFlow (its master's default_local_device).
TEST_F(ClusterTest, UnplacedNodesRunOnTheSessionsTask) {
  tf::Output a = tf::constant(tf::Tensor({1.f, 2.f}), "a");
  tf::Output b = tf::identity(a, "b");
  for (const Server* server : {w1_.get(), ps_.get()}) {
    tf::Session sess(On(*server), &graph_);
    EXPECT_EQ(Str(sess.run(b)), "[1. 2.]");
  }
  // Which task ran it shows in its variables: an unplaced variable made
  // through a session on worker 1 lives there.
  tf::Variable v(tf::Tensor({5.f}), "v");
  tf::Session on_w1(On(*w1_), &graph_);
  on_w1.run(v.initializer());
  tf::Session on_ps(On(*ps_), &graph_);
  // The same graph on the ps's master places v on the ps, where it was
  // never initialized.
  const std::string text =
      tf::testing::ErrorText<tf::errors::FailedPreconditionError>(
          [&] { on_ps.run(v); });
  EXPECT_NE(text.find("Attempting to use uninitialized value v"),
            std::string::npos)
      << text;
  EXPECT_EQ(Str(on_w1.run(v)), "[5.]");
}

// The ps keeps its variables when a client session ends: a second session,
// from another worker, reads what the first one trained.
TEST_F(ClusterTest, VariablesOnThePsOutliveClientSessions) {
  tf::Variable w;
  {
    tf::device_scope on("/job:ps/task:0");
    w = tf::Variable(tf::Tensor({1.f, 2.f}), "w");
  }
  tf::Output step;
  {
    tf::device_scope on("/job:worker/task:0");
    step = w.assign_add(tf::Tensor({10.f, 10.f}));
  }
  {
    tf::Session first(On(*w0_), &graph_);
    first.run(w.initializer());
    first.run(step);
    first.run(step);
  }
  tf::Session second(On(*w1_), &graph_);
  EXPECT_EQ(Str(second.run(w)), "[21. 22.]");
}

// The graph grows between runs: the session sends only the new nodes
// (ExtendSession), and the master places them.
TEST_F(ClusterTest, NodesAddedAfterTheFirstRunAreSent) {
  tf::Output a = tf::constant(tf::Tensor({1.f, 2.f}), "a");
  tf::Session sess(On(*w0_), &graph_);
  EXPECT_EQ(Str(sess.run(a)), "[1. 2.]");
  tf::Output b;
  {
    tf::device_scope on("/job:ps/task:0");
    b = tf::multiply(a, tf::constant(3.f), "b");
  }
  EXPECT_EQ(Str(sess.run(b)), "[3. 6.]");
}

// --- Errors, in TensorFlow's words -------------------------------------------

TEST_F(ClusterTest, AFeedOfTheWrongShapeIsRefusedAsLocally) {
  tf::Output x = tf::placeholder(tf::DT_FLOAT, {2}, "x");
  tf::Output y = tf::identity(x, "y");
  tf::Session sess(On(*w0_), &graph_);
  EXPECT_EQ(tf::testing::InvalidArgumentText([&] {
              sess.run(y, {{x, tf::Tensor({1.f, 2.f, 3.f})}});
            }),
            "Cannot feed value of shape (3,) for Tensor 'x:0', which has "
            "shape '(2,)'");
}

TEST_F(ClusterTest, AnErrorOnAnotherTaskReachesTheClient) {
  tf::Variable w;
  {
    tf::device_scope on("/job:ps/task:0");
    w = tf::Variable(tf::Tensor({1.f}), "w");
  }
  tf::Output y;
  {
    tf::device_scope on("/job:worker/task:1");
    y = tf::multiply(w.value(), tf::constant(2.f), "y");
  }
  tf::Session sess(On(*w0_), &graph_);
  const std::string text =
      tf::testing::ErrorText<tf::errors::FailedPreconditionError>(
          [&] { sess.run(y); });
  EXPECT_NE(text.find("Attempting to use uninitialized value w"),
            std::string::npos)
      << text;
}

// A variable on the ps fetched through a worker's session before it is
// initialized: the ps's RecvTensor answers with chapter 3's error, which a
// worker waiting for the chief recognises (seed_distributed does).
TEST_F(ClusterTest,
       AnUninitializedVariableFetchedFromThePsIsFailedPrecondition) {
  tf::Variable step;
  {
    tf::device_scope on("/job:ps/task:0");
    step = tf::Variable(tf::Tensor(int64_t{0}), "global_step");
  }
  tf::Session sess(On(*w1_), &graph_);
  EXPECT_EQ(tf::testing::ErrorText<tf::errors::FailedPreconditionError>(
                [&] { sess.run(step); }),
            "Attempting to use uninitialized value global_step\n\t [[{{node "
            "global_step/_1}}]]");
}

TEST_F(ClusterTest, ADeviceTheClusterLacksIsRefused) {
  tf::Output a;
  {
    tf::device_scope on("/job:worker/task:7");
    a = tf::constant(tf::Tensor({1.f}), "a");
  }
  tf::Session sess(On(*w0_), &graph_);
  const std::string text =
      tf::testing::InvalidArgumentText([&] { sess.run(a); });
  EXPECT_NE(text.find("/job:worker/task:7"), std::string::npos) << text;
}

}  // namespace
