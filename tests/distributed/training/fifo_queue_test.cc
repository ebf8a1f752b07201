// tf::FIFOQueue and tf::train::QueueRunner: order, close, the errors in
// TensorFlow's words (TensorFlow 2.21's tf.compat.v1 for the same graphs),
// a dequeue that waits without a thread and ends with its step, and a
// queue shared by name on a ps task across client sessions.
#include "minitf/distributed/training/fifo_queue.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <thread>

#include "distributed_testing.h"
#include "minitf/distributed/runtime/server.h"
#include "minitf/distributed/training/coordinator.h"
#include "minitf/distributed/training/queue_runner.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/tensor/errors.h"

namespace tf = minitf;

namespace {

using tf::testing::Str;

class QueueTest : public ::testing::Test {
 protected:
  tf::Graph graph_;
  tf::graph_scope use_{graph_};
};

TEST_F(QueueTest, ElementsComeOutInOrderUntilClosed) {
  // --8<-- [start:order]
  tf::FIFOQueue q(-1, {tf::DT_INT64}, {tf::TensorShape({})}, "sync_token_q",
                  "sync_token_q");
  tf::Output batch = tf::placeholder(tf::DT_INT64);
  tf::Operation enqueue_many = q.enqueue_many(batch);
  tf::Output dequeue = q.dequeue();
  tf::Operation close = q.close();
  tf::Output size = q.size();
  tf::Session sess;
  sess.run(enqueue_many,
           {{batch, tf::Tensor({int64_t{1}, int64_t{2}, int64_t{3}})}});
  EXPECT_EQ(Str(sess.run(size)), "3");
  EXPECT_EQ(Str(sess.run(dequeue)), "1");
  sess.run(close);
  EXPECT_EQ(Str(sess.run(dequeue)), "2");
  EXPECT_EQ(Str(sess.run(dequeue)), "3");
  const std::string text = tf::testing::ErrorText<tf::errors::OutOfRangeError>(
      [&] { sess.run(dequeue); });
  EXPECT_NE(text.find("FIFOQueue 'sync_token_q' is closed and has "
                      "insufficient elements (requested 1, current size 0)"),
            std::string::npos)
      << text;
  // --8<-- [end:order]
  EXPECT_EQ(dequeue.op().name(), "sync_token_q_Dequeue");
  EXPECT_EQ(enqueue_many.name(), "sync_token_q_EnqueueMany");
  EXPECT_NE(tf::testing::ErrorText<tf::errors::CancelledError>([&] {
              sess.run(enqueue_many, {{batch, tf::Tensor({int64_t{1}})}});
            }).find("FIFOQueue 'sync_token_q' is closed."),
            std::string::npos);
}

TEST_F(QueueTest, ErrorsAreTensorFlows) {
  tf::FIFOQueue q(-1, {tf::DT_INT64}, {tf::TensorShape({})}, "tokens",
                  "tokens");
  tf::Output x = tf::placeholder(tf::DT_INT64);
  tf::Operation enqueue = q.enqueue(x);
  tf::Session sess;
  EXPECT_NE(
      tf::testing::InvalidArgumentText([&] {
        sess.run(enqueue, {{x, tf::Tensor({int64_t{5}, int64_t{6}})}});
      }).find("Shape mismatch in tuple component 0. Expected [], got [2]"),
      std::string::npos);
  // The same shared name with another capacity or dtype.
  tf::FIFOQueue other(5, {tf::DT_INT64}, {tf::TensorShape({})}, "tokens");
  EXPECT_NE(tf::testing::InvalidArgumentText([&] { sess.run(other.size()); })
                .find("Shared queue 'tokens' has capacity 2147483647 but "
                      "requested capacity was 5"),
            std::string::npos);
  tf::FIFOQueue other_type(-1, {tf::DT_INT32}, {tf::TensorShape({})}, "tokens");
  EXPECT_NE(
      tf::testing::InvalidArgumentText([&] { sess.run(other_type.size()); })
          .find("Shared queue 'tokens' has component types int64 but "
                "requested component types were int32"),
      std::string::npos);
  tf::FIFOQueue pairs(2, {tf::DT_FLOAT}, {tf::TensorShape({2})}, "", "q2");
  tf::Output rows = tf::placeholder(tf::DT_FLOAT);
  tf::Operation put = pairs.enqueue_many(rows);
  EXPECT_NE(tf::testing::InvalidArgumentText([&] {
              sess.run(put, {{rows, tf::Tensor({{1.f, 2.f, 3.f}})}});
            })
                .find("Shape mismatch in tuple component 0. Expected [1,2], "
                      "got [1,3]"),
            std::string::npos);
}

// With one inter-op thread, a waiting dequeue leaves it to the enqueue.
TEST_F(QueueTest, AWaitingDequeueHoldsNoExecutorThread) {
  tf::FIFOQueue q(-1, {tf::DT_FLOAT});
  tf::Output x = tf::placeholder(tf::DT_FLOAT);
  tf::Operation enqueue = q.enqueue(x);
  tf::Output dequeue = q.dequeue();
  tf::ConfigProto config;
  config.inter_op_parallelism_threads = 1;
  tf::Session sess(config);
  std::string got;
  std::thread taker([&] { got = Str(sess.run(dequeue)); });
  sess.run(enqueue, {{x, tf::Tensor({7.f})}});
  taker.join();
  EXPECT_EQ(got, "[7.]");
}

// A dequeue whose step is given up takes nothing: the element enqueued
// afterwards is there for the next dequeue. A bounded queue's enqueue waits
// for room the same way.
TEST_F(QueueTest, AGivenUpStepCancelsTheWait) {
  tf::FIFOQueue q(1, {tf::DT_FLOAT});
  tf::Output x = tf::placeholder(tf::DT_FLOAT);
  tf::Operation enqueue = q.enqueue(x);
  tf::Output dequeue = q.dequeue();
  tf::Session sess;
  tf::RunOptions options;
  options.timeout_in_ms = 50;
  EXPECT_NE(tf::testing::ErrorText<tf::errors::DeadlineExceededError>([&] {
              sess.run({dequeue}, {}, options, nullptr);
            }).find("Timed out waiting for notification"),
            std::string::npos);
  sess.run(enqueue, {{x, tf::Tensor({1.f})}});
  // Full: the second enqueue waits for room, until its step is given up.
  EXPECT_NE(tf::testing::ErrorText<tf::errors::DeadlineExceededError>([&] {
              sess.run(std::vector<tf::Fetch>{enqueue},
                       {{x, tf::Tensor({2.f})}}, options, nullptr);
            }).find("Timed out waiting for notification"),
            std::string::npos);
  EXPECT_EQ(Str(sess.run(q.size())), "1");
  EXPECT_EQ(Str(sess.run(dequeue)), "[1.]");
}

// A queue runner fills a queue from another that runs dry: its thread ends
// with the OutOfRange, and it closes its own queue, so the reader of that
// one ends too.
TEST_F(QueueTest, AQueueRunnerPassesTheEndOfItsInputOn) {
  // --8<-- [start:queue_runner]
  tf::FIFOQueue input(-1, {tf::DT_FLOAT}, {}, "", "input");
  tf::FIFOQueue output(2, {tf::DT_FLOAT}, {}, "", "output");
  tf::Output values = tf::placeholder(tf::DT_FLOAT);
  tf::Operation fill = input.enqueue_many(values);
  tf::train::QueueRunner runner(
      output, {output.enqueue(tf::multiply(input.dequeue(),
                                           tf::constant(tf::Tensor(10.f))))});
  tf::Session sess;
  sess.run(fill, {{values, tf::Tensor({1.f, 2.f, 3.f})}});
  sess.run(input.close());
  tf::train::Coordinator coord;
  EXPECT_EQ(runner.create_threads(&sess, &coord), 2);
  tf::Output next = output.dequeue();
  std::string seen;
  try {
    while (true) seen += Str(sess.run(next)) + " ";
  } catch (const tf::errors::OutOfRangeError&) {
    seen += "end";
  }
  EXPECT_EQ(seen, "10.0 20.0 30.0 end");
  coord.request_stop();
  coord.join();
  // --8<-- [end:queue_runner]
}

// A queue with a shared_name on a ps task is one queue for every session of
// the cluster, and outlives them: one worker's session fills it and closes,
// another's empties it.
TEST(SharedQueueTest, AQueueOnThePsOutlivesClientSessions) {
  tf::train::ClusterSpec cluster(
      {{"ps", {tf::testing::FreeAddress()}},
       {"worker", {tf::testing::FreeAddress(), tf::testing::FreeAddress()}}});
  std::ostringstream log;
  tf::train::ServerOptions quiet{.log_stream = &log};
  tf::train::Server ps(cluster, "ps", 0, tf::ConfigProto{}, quiet);
  tf::train::Server w0(cluster, "worker", 0, tf::ConfigProto{}, quiet);
  tf::train::Server w1(cluster, "worker", 1, tf::ConfigProto{}, quiet);
  tf::Graph graph;
  tf::graph_scope use(graph);
  tf::device_scope on("/job:ps/task:0");
  tf::FIFOQueue q(-1, {tf::DT_INT64}, {tf::TensorShape({})}, "shared_q",
                  "shared_q");
  tf::Output batch = tf::placeholder(tf::DT_INT64);
  tf::Operation put = q.enqueue_many(batch);
  tf::Output take = q.dequeue();
  tf::SessionOptions options;
  options.config.operation_timeout_in_ms = 30000;  // a broken test ends
  options.target = w0.target();
  {
    tf::Session first(options, &graph);
    first.run(put, {{batch, tf::Tensor({int64_t{4}, int64_t{5}})}});
  }
  options.target = w1.target();
  tf::Session second(options, &graph);
  EXPECT_EQ(Str(second.run(take)), "4");
  EXPECT_EQ(Str(second.run(take)), "5");
}

}  // namespace
