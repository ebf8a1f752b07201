// LocalMaster (local_master.h): a session on a server of its own process
// calls that server's master without gRPC; any other target goes through
// gRPC, and a server stopped answers Unavailable. And the master runs its own
// task's part of a step on that task's worker directly (master_session.h),
// where the step's RunOptions timeout and a Close still end it.
#include "minitf/distributed/runtime/local_master.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <limits>
#include <sstream>
#include <thread>

#include "distributed_testing.h"
#include "minitf/distributed/runtime/master.h"
#include "minitf/distributed/runtime/rpc/grpc_server.h"
#include "minitf/minitf.h"

namespace {

namespace tf = minitf;

std::unique_ptr<tf::GrpcServer> StartServer(std::ostringstream* log) {
  auto server = tf::GrpcServer::Create(
      tf::train::ClusterSpec({{"worker", {"localhost:0"}}}), "worker", 0, {},
      {.log_stream = log});
  EXPECT_TRUE(server.ok()) << server.status();
  EXPECT_TRUE((*server)->Start().ok());
  return std::move(*server);
}

TEST(LocalMasterTest, AStartedServerIsFoundUnderItsOwnTargetOnly) {
  std::ostringstream log;
  auto server = StartServer(&log);
  const std::string target = server->target();
  EXPECT_NE(tf::LocalMaster::Lookup(target), nullptr);
  // The same port written another way is another target: it goes through
  // gRPC, as in TensorFlow.
  const std::string port = target.substr(target.rfind(':') + 1);
  EXPECT_EQ(tf::LocalMaster::Lookup("grpc://127.0.0.1:" + port), nullptr);
  server->Stop();
  EXPECT_EQ(tf::LocalMaster::Lookup(target), nullptr);
}

// Timeouts too long for the clocks' arithmetic (INT64_MAX milliseconds)
// mean no timeout, on the local path and through gRPC, for a step that
// crosses tasks: the client's deadline, the master's limits, the workers'
// operation timeout and the rendezvous's calls all take them.
TEST(LocalMasterTest, HugeTimeoutsAreNoTimeouts) {
  tf::testing::PsAndWorker tasks;
  tf::Graph graph;
  tf::graph_scope use(graph);
  tf::Output on_ps;
  {
    tf::device_scope on("/job:ps/task:0");
    on_ps = tf::constant(tf::Tensor({1.f, 2.f}), "on_ps");
  }
  tf::device_scope on("/job:worker/task:0");
  tf::Output twice = tf::add(on_ps, on_ps, "twice");
  const std::string target = tasks.worker.target();
  const std::string port = target.substr(target.rfind(':') + 1);
  tf::RunOptions forever;
  forever.timeout_in_ms = std::numeric_limits<int64_t>::max();
  for (const std::string& t : {target, "grpc://127.0.0.1:" + port}) {
    SCOPED_TRACE(t);
    tf::SessionOptions options{.target = t};
    options.config.operation_timeout_in_ms =
        std::numeric_limits<int64_t>::max();
    tf::Session sess(options, &graph);
    EXPECT_EQ(tf::testing::Str(sess.run({twice}, {}, forever, nullptr)[0]),
              "[2. 4.]");
  }
}

// A session on a target registered to a server's master, where no gRPC
// server listens, runs its steps: the calls never went over the wire.
TEST(LocalMasterTest, ASessionOnALocalTargetCallsTheMasterDirectly) {
  std::ostringstream log;
  auto server = StartServer(&log);
  const std::string nowhere =
      "grpc://localhost:" + std::to_string(minitf::testing::FreePort());
  auto registration = tf::LocalMaster::Register(nowhere, &server->master());
  tf::Graph graph;
  tf::graph_scope use(graph);
  tf::Output sum = tf::add(tf::constant(tf::Tensor(2.f)),
                           tf::constant(tf::Tensor(3.f)), "sum");
  tf::Session sess(tf::SessionOptions{.target = nowhere}, &graph);
  EXPECT_EQ(sess.run(sum).scalar<float>(), 5.f);
  tf::Output twice = tf::add(sum, sum, "twice");  // ExtendSession
  EXPECT_EQ(sess.run(twice).scalar<float>(), 10.f);
  sess.close();  // CloseSession
  registration.reset();
  // Unregistered, the target is a port nobody listens on.
  tf::SessionOptions options{.target = nowhere};
  options.config.operation_timeout_in_ms = 5000;
  tf::Session gone(options, &graph);
  EXPECT_THROW(gone.run(sum), tf::errors::UnavailableError);
}

// A session made while its server ran, used after the server stopped, gets
// the answer gRPC gives for a server that is not there: Unavailable.
TEST(LocalMasterTest, AfterStopASessionIsUnavailable) {
  std::ostringstream log;
  auto server = StartServer(&log);
  tf::Graph graph;
  tf::graph_scope use(graph);
  tf::Output c = tf::constant(tf::Tensor(7.f), "c");
  tf::Session sess(tf::SessionOptions{.target = server->target()}, &graph);
  EXPECT_EQ(sess.run(c).scalar<float>(), 7.f);
  server->Stop();
  EXPECT_THROW(sess.run(c), tf::errors::UnavailableError);
}

// Stop waits for a local call in progress (a step waiting on an empty
// queue until its timeout), as a gRPC server's shutdown waits for the calls
// it serves; a second Stop meanwhile returns only when the first has
// finished, so its caller may destroy the server.
TEST(LocalMasterTest, StopWaitsForALocalCallInProgress) {
  using Clock = std::chrono::steady_clock;
  std::ostringstream log;
  auto server = StartServer(&log);
  const std::string target = server->target();
  tf::Graph graph;
  tf::graph_scope use(graph);
  tf::FIFOQueue q(2, {tf::DT_FLOAT}, {}, "q");
  tf::Output dequeue = q.dequeue();
  tf::Session sess(tf::SessionOptions{.target = target}, &graph);
  tf::RunOptions briefly;
  briefly.timeout_in_ms = 800;
  const auto start = Clock::now();
  std::thread step([&] {
    EXPECT_THROW(sess.run({dequeue}, {}, briefly, nullptr),
                 tf::errors::DeadlineExceededError);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  std::thread stopper([&] { server->Stop(); });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::thread second([&] { server->Stop(); });
  stopper.join();
  second.join();
  // Neither stopper returned before the step had ended at its timeout.
  EXPECT_GE(Clock::now() - start, std::chrono::milliseconds(750));
  step.join();
  EXPECT_EQ(tf::LocalMaster::Lookup(target), nullptr);
}

// A one-task server, and a session on it over a graph that holds a queue
// of floats on that task. The session's operation timeout bounds a test
// whose wait would otherwise never end.
class LocalWorkerTest : public ::testing::Test {
 protected:
  static tf::SessionOptions Options(const std::string& target) {
    tf::SessionOptions options{.target = target};
    options.config.operation_timeout_in_ms = 20000;
    return options;
  }
  std::ostringstream log_;
  std::unique_ptr<tf::GrpcServer> server_ = StartServer(&log_);
  tf::Graph graph_;
  tf::graph_scope use_{graph_};
  tf::FIFOQueue q_{2, {tf::DT_FLOAT}, {}, "q"};
  tf::Session sess_{Options(server_->target()), &graph_};
};

// A step on the master's own task only, waiting on an empty queue: the
// worker, called directly, ends it at the RunOptions timeout (over gRPC the
// call's deadline did), and the wait takes nothing from the queue.
TEST_F(LocalWorkerTest, ALocalPartEndsAtTheStepsTimeout) {
  tf::Operation enqueue = q_.enqueue(tf::constant(tf::Tensor({3.f})));
  tf::Output dequeue = q_.dequeue();
  tf::RunOptions options;
  options.timeout_in_ms = 100;
  const auto start = std::chrono::steady_clock::now();
  const std::string text =
      tf::testing::ErrorText<tf::errors::DeadlineExceededError>(
          [&] { sess_.run({dequeue}, {}, options, nullptr); });
  EXPECT_NE(text.find("Operation timed out."), std::string::npos) << text;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  sess_.run(enqueue);
  EXPECT_EQ(sess_.run(dequeue).flat<float>()(0), 3.f);
}

// At the session's operation_timeout_in_ms the step ends, and its error
// says what it was waiting for: here a dequeue, on the queue "q".
TEST_F(LocalWorkerTest, ATimedOutStepSaysWhatItWaitedFor) {
  tf::Output dequeue = q_.dequeue();
  tf::SessionOptions options{.target = server_->target()};
  options.config.operation_timeout_in_ms = 200;
  tf::Session sess(options, &graph_);
  const std::string text =
      tf::testing::ErrorText<tf::errors::DeadlineExceededError>(
          [&] { sess.run(dequeue); });
  EXPECT_NE(text.find(" on /job:worker/replica:0/task:0 did not finish within "
                      "operation_timeout_in_ms (200 ms); still waiting for: "
                      "dequeue on q"),
            std::string::npos)
      << text;
}

// Closing the session ends a local part that waits, as it cancels the
// RunGraph calls of the other tasks.
TEST_F(LocalWorkerTest, ClosingTheSessionEndsALocalPartThatWaits) {
  tf::Output dequeue = q_.dequeue();
  // Planned and registered once, so that the wait below starts at once.
  tf::RunOptions briefly;
  briefly.timeout_in_ms = 50;
  EXPECT_THROW(sess_.run({dequeue}, {}, briefly, nullptr),
               tf::errors::DeadlineExceededError);
  std::atomic<bool> ended{false};
  std::string error;
  std::thread waiter([&] {
    error = tf::testing::ErrorText<tf::errors::CancelledError>(
        [&] { sess_.run(dequeue); });
    ended = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_FALSE(ended.load());
  sess_.close();
  waiter.join();
  EXPECT_NE(error.find("Step was cancelled by an explicit call to "
                       "`Session::Close()`."),
            std::string::npos)
      << error;
}

// A step whose part on another task fails while the local part waits on
// something of its own (a dequeue that nothing feeds): the master's cleanup,
// sent as soon as the other task answers with its error, ends the local
// part, and the client gets the cause at once, not at the operation
// timeout.
TEST(LocalWorkerCleanupTest, AnotherTasksErrorEndsTheLocalPart) {
  tf::testing::PsAndWorker tasks;
  tf::train::Server& worker = tasks.worker;
  tf::Graph graph;
  tf::graph_scope use(graph);
  tf::Operation bump;
  {
    tf::device_scope on("/job:ps/task:0");
    tf::Variable v(tf::zeros({2}), "v");  // never initialized
    bump = v.assign_add(tf::ones({2})).op();
  }
  tf::Output dequeue;
  {
    tf::device_scope on("/job:worker/task:0");
    tf::FIFOQueue q(2, {tf::DT_FLOAT}, {}, "q");
    dequeue = q.dequeue();
  }
  tf::SessionOptions options{.target = worker.target()};
  options.config.operation_timeout_in_ms = 30000;
  tf::Session sess(options, &graph);
  const auto start = std::chrono::steady_clock::now();
  const std::string text =
      tf::testing::ErrorText<tf::errors::FailedPreconditionError>([&] {
        sess.run(std::vector<tf::Fetch>{dequeue, bump});
      });
  EXPECT_NE(text.find("uninitialized value v"), std::string::npos) << text;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

}  // namespace
