// tf::train::SyncReplicasOptimizer on a cluster of this process (one ps,
// two or three workers on loopback ports), each worker with its own graph,
// as between-graph replication builds them: the update is exactly the mean
// of the workers' gradients, a late worker's gradient is dropped, and the
// graph is TensorFlow's (node names, ops, devices, shared names, as
// TensorFlow 2.21's tf.compat.v1 builds it for the same model).
#include "minitf/distributed/training/sync_replicas_optimizer.h"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "distributed_testing.h"
#include "minitf/distributed/runtime/server.h"
#include "minitf/distributed/training/coordinator.h"
#include "minitf/distributed/training/replica_device_setter.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/tensor/errors.h"
#include "minitf/train/optimizers/gradient_descent.h"
#include "minitf/train/variables.h"

namespace tf = minitf;

namespace {

using tf::testing::Str;

// One worker's program: loss = sum(W * x), so d loss / d W = x.
struct Worker {
  tf::Graph graph;
  tf::Variable W, global_step;
  tf::Output x;
  tf::Operation train_op;
  std::unique_ptr<tf::train::GradientDescentOptimizer> gd;
  std::unique_ptr<tf::train::SyncReplicasOptimizer> opt;
  std::unique_ptr<tf::train::SessionRunHook> hook;
  std::unique_ptr<tf::Session> sess;
};

class SyncReplicasTest : public ::testing::Test {
 protected:
  void StartCluster(int num_workers) {
    std::vector<std::string> workers;
    for (int i = 0; i < num_workers; ++i) {
      workers.push_back(tf::testing::FreeAddress());
    }
    cluster_ = tf::train::ClusterSpec(
        {{"ps", {tf::testing::FreeAddress()}}, {"worker", workers}});
    tf::train::ServerOptions quiet{.log_stream = &log_};
    ps_ = std::make_unique<tf::train::Server>(cluster_, "ps", 0,
                                              tf::ConfigProto{}, quiet);
    for (int i = 0; i < num_workers; ++i) {
      servers_.push_back(std::make_unique<tf::train::Server>(
          cluster_, "worker", i, tf::ConfigProto{}, quiet));
    }
  }

  // Builds worker `task`'s graph and hook; the chief initializes. With no
  // initial tokens (`num_tokens` 0), every worker's first step waits for
  // the first update, so the steps go in lock-step from the start (the
  // default, replicas_to_aggregate tokens, lets the first step through
  // at once: chapter 7 §2).
  std::unique_ptr<Worker> MakeWorker(int task, int to_aggregate, int total,
                                     int num_tokens = 0) {
    auto w = std::make_unique<Worker>();
    tf::graph_scope use(w->graph);
    {
      tf::device_scope replicas(tf::train::replica_device_setter(
          {.worker_device = "/job:worker/task:" + std::to_string(task),
           .cluster = cluster_}));
      w->global_step = tf::Variable(tf::Tensor(int64_t{0}), "global_step",
                                    /*trainable=*/false);
      w->W = tf::Variable(tf::Tensor({0.f, 0.f}), "W");
      w->x = tf::placeholder(tf::DT_FLOAT, {2}, "x");
      tf::Output loss = tf::reduce_sum(tf::multiply(w->W.value(), w->x));
      w->gd = std::make_unique<tf::train::GradientDescentOptimizer>(0.5);
      w->opt = std::make_unique<tf::train::SyncReplicasOptimizer>(
          *w->gd, to_aggregate, total);
      w->train_op = w->opt->minimize(loss, &w->global_step);
    }
    w->hook = w->opt->make_session_run_hook(task == 0, num_tokens);
    w->hook->begin();
    tf::SessionOptions options;
    options.target = servers_[task]->target();
    options.config.operation_timeout_in_ms = 30000;  // a broken test ends
    w->sess = std::make_unique<tf::Session>(options, &w->graph);
    if (task == 0) w->sess->run(tf::global_variables_initializer());
    w->hook->after_create_session(w->sess.get(), &coord_);
    return w;
  }

  // One training step; a failure is the test's (threads must not throw).
  void Step(Worker& w, tf::Tensor x) {
    try {
      w.sess->run(w.train_op, {{w.x, std::move(x)}});
    } catch (const std::exception& e) {
      ADD_FAILURE() << e.what();
    }
  }

  // Waits for the chief's update to reach `step` (bounded: a broken test
  // fails rather than hangs).
  void WaitForGlobalStep(Worker& w, int64_t step) {
    for (int i = 0; i < 3000; ++i) {
      if (w.sess->run(w.global_step).scalar<int64_t>() >= step) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    FAIL() << "global_step never reached " << step;
  }

  // As TensorFlow's monitored session ends: stop the threads, give them a
  // moment, then close the chief's session, which cancels the update that
  // still waits for gradients.
  void StopChief(Worker& chief) {
    coord_.request_stop();
    coord_.join(std::chrono::milliseconds(200), /*ignore_live_threads=*/true);
    chief.sess->close();
  }

  std::ostringstream log_;
  tf::train::ClusterSpec cluster_;
  std::unique_ptr<tf::train::Server> ps_;
  std::vector<std::unique_ptr<tf::train::Server>> servers_;
  tf::train::Coordinator coord_;
};

// --8<-- [start:averaged]
TEST_F(SyncReplicasTest, TwoWorkersGiveExactlyTheAveragedUpdate) {
  StartCluster(2);
  auto chief = MakeWorker(0, /*to_aggregate=*/2, /*total=*/2);
  auto other = MakeWorker(1, 2, 2);
  // Both steps run at once, each in its worker's session.
  std::thread second([&] { Step(*other, tf::Tensor({3.f, 4.f})); });
  Step(*chief, tf::Tensor({1.f, 2.f}));
  second.join();
  WaitForGlobalStep(*chief, 1);
  // W = 0 - 0.5 * mean([1 2], [3 4]) = -0.5 * [2 3].
  EXPECT_EQ(Str(chief->sess->run(chief->W)), "[-1.  -1.5]");
  // A second round: each worker waits for a token of step 1.
  second = std::thread([&] { Step(*other, tf::Tensor({1.f, 1.f})); });
  Step(*chief, tf::Tensor({3.f, 1.f}));
  second.join();
  WaitForGlobalStep(*chief, 2);
  EXPECT_EQ(Str(chief->sess->run(chief->W)), "[-2. -2.]");
  EXPECT_EQ(Str(other->sess->run(other->opt->local_step())), "2");
  StopChief(*chief);
}
// --8<-- [end:averaged]

// One update takes one gradient (replicas_to_aggregate 1) of two workers
// (total_num_replicas 2: one backup). The chief's gradient makes the update
// of step 0; the other worker, still at local step 0, comes late, and its
// gradient is dropped: the next update holds the chief's gradient alone.
// --8<-- [start:stale]
TEST_F(SyncReplicasTest, TheLateWorkersGradientIsDropped) {
  StartCluster(2);
  auto chief = MakeWorker(0, /*to_aggregate=*/1, /*total=*/2);
  auto late = MakeWorker(1, 1, 2);
  Step(*chief, tf::Tensor({1.f, 2.f}));
  WaitForGlobalStep(*chief, 1);
  EXPECT_EQ(Str(chief->sess->run(chief->W)), "[-0.5 -1. ]");
  Step(*late, tf::Tensor({100.f, 100.f}));  // local step 0 < 1: stale
  // The accumulator on the ps, reached by its shared name.
  tf::Output count;
  {
    tf::graph_scope use(chief->graph);
    tf::device_scope on("/job:ps/task:0");
    tf::ConditionalAccumulator accum(tf::DT_FLOAT, {2}, "W:0/grad_accum");
    count = accum.num_accumulated();
  }
  EXPECT_EQ(Str(chief->sess->run(count)), "0");
  // The late worker took a token of step 1: its next gradient counts.
  EXPECT_EQ(Str(late->sess->run(late->opt->local_step())), "1");
  Step(*chief, tf::Tensor({1.f, 2.f}));
  WaitForGlobalStep(*chief, 2);
  EXPECT_EQ(Str(chief->sess->run(chief->W)), "[-1. -2.]");
  StopChief(*chief);
}
// --8<-- [end:stale]

TEST_F(SyncReplicasTest, TheGraphIsTensorFlows) {
  StartCluster(2);
  auto chief = MakeWorker(0, 2, 3);
  auto node = [&](const std::string& name) {
    const tf::Node* n = chief->graph.FindNode(name);
    EXPECT_NE(n, nullptr) << name;
    return n;
  };
  const tf::Node* accum = node("sync_replicas/conditional_accumulator");
  EXPECT_EQ(accum->type_string(), "ConditionalAccumulator");
  EXPECT_EQ(accum->requested_device(), "/job:ps/task:0");
  EXPECT_EQ(tf::GetAttr<std::string>(accum->attrs(), "shared_name").value(),
            "W:0/grad_accum");
  EXPECT_EQ(node("sync_replicas/AccumulatorApplyGradient")->type_string(),
            "AccumulatorApplyGradient");
  EXPECT_EQ(
      node("sync_replicas/AccumulatorTakeGradient/num_required")->type_string(),
      "Const");
  EXPECT_EQ(node("sync_replicas/SetGlobalStep")->type_string(),
            "AccumulatorSetGlobalStep");
  const tf::Node* queue = node("sync_token_q");
  EXPECT_EQ(queue->type_string(), "FIFOQueueV2");
  EXPECT_EQ(queue->requested_device(), "/job:ps/task:0");
  EXPECT_EQ(tf::GetAttr<int64_t>(queue->attrs(), "capacity").value(), -1);
  const tf::Node* dequeue = node("sync_token_q_Dequeue");
  EXPECT_EQ(dequeue->control_inputs().size(), 1u);  // the apply_grad
  EXPECT_EQ(node("sync_token_q_EnqueueMany")->type_string(),
            "QueueEnqueueManyV2");
  EXPECT_EQ(node("sync_rep_local_step")->requested_device(),
            "/job:worker/task:0");
  EXPECT_EQ(node("GradientDescent")->type_string(), "AssignAdd");
  EXPECT_EQ(chief->train_op.type(), "Assign");
  EXPECT_EQ(chief->opt->tokens_per_step(), 3);
  StopChief(*chief);
}

TEST_F(SyncReplicasTest, ErrorsAreTensorFlows) {
  tf::Graph graph;
  tf::graph_scope use(graph);
  tf::Variable w(tf::Tensor({1.f}), "w");
  tf::train::GradientDescentOptimizer gd(0.1);
  tf::train::SyncReplicasOptimizer opt(gd, /*replicas_to_aggregate=*/3,
                                       /*total_num_replicas=*/2);
  tf::Output loss = tf::reduce_sum(w.value());
  EXPECT_EQ(
      tf::testing::InvalidArgumentText([&] { opt.minimize(loss, nullptr); }),
      "Global step is required to check staleness");
  EXPECT_EQ(tf::testing::InvalidArgumentText([&] { opt.get_init_tokens_op(); }),
            "get_init_tokens_op() should be called after apply_gradients().");
  tf::Variable step(tf::Tensor(int64_t{0}), "global_step", false);
  opt.minimize(loss, &step);
  EXPECT_EQ(
      tf::testing::InvalidArgumentText([&] { opt.get_init_tokens_op(0); }),
      "Too few tokens to finish the first step: 0 (given) vs 1 (needed)");
  // A worker whose chief has not initialized the variables yet.
  tf::Session sess;
  tf::train::Coordinator coord;
  auto hook = opt.make_session_run_hook(/*is_chief=*/false);
  hook->begin();
  try {
    hook->after_create_session(&sess, &coord);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "Init operations did not make model ready for "
              "SyncReplicasOptimizer local_init. Init op: Assign, error: "
              "Variables not initialized: w, global_step");
  }
}

}  // namespace
