// MonitoredTrainingSession, its creators and hooks, and the recovery from a
// task that restarts. The cluster's tasks are servers of this process on
// loopback ports; a task "restarts" when its server is destroyed and a new
// one is made on the same address, with new device incarnations and none of
// the old sessions, graphs or variables, as a restarted process has. Log
// lines and error texts are TensorFlow 2.21's tf.compat.v1 ones (its
// monitored_session.py, session_manager.py and basic_session_run_hooks.py,
// and its server's errors).
#include "minitf/distributed/training/monitored_session.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <thread>

#include "distributed_testing.h"
#include "minitf/distributed/runtime/server.h"
#include "minitf/distributed/training/basic_session_run_hooks.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/tensor/errors.h"
#include "minitf/train/ops/state_ops.h"
#include "minitf/train/proto/event.pb.h"
#include "minitf/train/summary/summary_ops.h"
#include "minitf/train/tfrecord.h"
#include "minitf/train/variables.h"

namespace tf = minitf;

namespace {

using tf::train::ClusterSpec;
using tf::train::Server;

int64_t Int(const tf::Tensor& t) { return t.scalar<int64_t>(); }

// A fresh folder under the test's temporary directory.
std::string TempDir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() /
             ("minitf_mts_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  return dir.string();
}

// w and b on the ps, global_step too; the step on worker 0 adds 1 to each.
struct Model {
  tf::Variable w, b, global_step;
  tf::Operation train_op;
  explicit Model(const std::string& ps = "", const std::string& worker = "") {
    {
      tf::device_scope on(ps);
      w = tf::Variable(tf::Tensor(1.f), "w");
      b = tf::Variable(tf::Tensor(2.f), "b");
      global_step = tf::Variable(tf::Tensor(int64_t{0}), "global_step",
                                 /*trainable=*/false);
    }
    tf::device_scope on(worker);
    train_op = tf::group(
        {w.assign_add(tf::constant(tf::Tensor(1.f))).op(),
         b.assign_add(tf::constant(tf::Tensor(1.f))).op(),
         global_step.assign_add(tf::constant(tf::Tensor(int64_t{1}))).op()});
  }
};

TEST(ReportUninitializedVariablesTest, NamesTheVariablesWithoutAValue) {
  tf::Graph graph;
  tf::graph_scope use(graph);
  Model m;
  auto report =
      tf::train::report_uninitialized_variables(tf::global_variables());
  EXPECT_EQ(report.op.node()->name(),
            "report_uninitialized_variables/LogicalNot");
  tf::Session sess;
  EXPECT_EQ(report.uninitialized(sess.run(report.op)),
            (std::vector<std::string>{"w", "b", "global_step"}));
  sess.run(m.w.initializer());
  EXPECT_EQ(report.uninitialized(sess.run(report.op)),
            (std::vector<std::string>{"b", "global_step"}));
  sess.run(tf::global_variables_initializer());
  EXPECT_TRUE(report.uninitialized(sess.run(report.op)).empty());
  auto none = tf::train::report_uninitialized_variables({});
  EXPECT_TRUE(none.uninitialized(sess.run(none.op)).empty());
  EXPECT_EQ(tf::testing::InvalidArgumentText(
                [&] { report.uninitialized(tf::Tensor(int64_t{1})); }),
            "Expected a bool tensor of shape [3] from "
            "report_uninitialized_variables");
}

TEST(HookArgumentsTest, RefusedInTensorFlowsWords) {
  using tf::train::SecondOrStepTimer;
  using tf::train::StopAtStepHook;
  EXPECT_EQ(tf::testing::InvalidArgumentText(
                [] { SecondOrStepTimer(std::nullopt, std::nullopt); }),
            "Either every_secs or every_steps should be provided.");
  EXPECT_EQ(tf::testing::InvalidArgumentText([] { SecondOrStepTimer(1, 1); }),
            "Can not provide both every_secs and every_steps.");
  EXPECT_EQ(tf::testing::InvalidArgumentText(
                [] { StopAtStepHook(std::nullopt, std::nullopt); }),
            "One of num_steps or last_step must be specified.");
  EXPECT_EQ(
      tf::testing::InvalidArgumentText([] { StopAtStepHook(int64_t{1}, 2); }),
      "Only one of num_steps or last_step can be specified.");
  EXPECT_EQ(tf::testing::InvalidArgumentText([] {
              tf::train::SummarySaverHook(SecondOrStepTimer::Steps(1), "/tmp",
                                          nullptr);
            }),
            "Exactly one of scaffold or summary_op must be provided.");
  tf::Graph graph;  // no global step
  tf::graph_scope use(graph);
  tf::Variable v(tf::Tensor(1.f), "v");
  EXPECT_EQ(tf::testing::ErrorText<std::runtime_error>(
                [] { StopAtStepHook::LastStep(3).begin(); }),
            "Global step should be created to use StopAtStepHook.");
}

TEST(SecondOrStepTimerTest, TriggersFirstThenEveryNSteps) {
  auto timer = tf::train::SecondOrStepTimer::Steps(3);
  EXPECT_TRUE(timer.should_trigger_for_step(0));
  EXPECT_FALSE(timer.update_last_triggered_step(0).has_value());
  EXPECT_FALSE(timer.should_trigger_for_step(0));
  EXPECT_FALSE(timer.should_trigger_for_step(2));
  EXPECT_TRUE(timer.should_trigger_for_step(3));
  EXPECT_EQ(timer.update_last_triggered_step(4)->second, 4);
  EXPECT_EQ(timer.last_triggered_step(), 4);
}

TEST(SecondOrStepTimerTest, BySecondsNotTwiceWithinThePeriod) {
  auto timer = tf::train::SecondOrStepTimer::Secs(3600);
  EXPECT_TRUE(timer.should_trigger_for_step(0));
  timer.update_last_triggered_step(0);
  EXPECT_FALSE(timer.should_trigger_for_step(1000));
}

TEST(MonitoredTrainingSessionTest, CheckpointSecsAndStepsTogetherAreRefused) {
  tf::Graph graph;
  tf::graph_scope use(graph);
  Model m;
  // TensorFlow passes both to CheckpointSaverHook, whose timer refuses them.
  EXPECT_EQ(
      tf::testing::InvalidArgumentText([] {
        tf::train::MonitoredTrainingSession({.checkpoint_dir = "/tmp/unused",
                                             .save_checkpoint_secs = 10,
                                             .save_checkpoint_steps = 10});
      }),
      "Can not provide both every_secs and every_steps.");
}

// In one process (target ""): the chief's hooks, the stop and the end save.
TEST(MonitoredTrainingSessionTest, StopsAtLastStepSavingEveryTwoSteps) {
  tf::Graph graph;
  tf::graph_scope use(graph);
  Model m;
  const std::string dir = TempDir("local");
  std::ostringstream log;
  auto stop = std::make_shared<tf::train::StopAtStepHook>(
      tf::train::StopAtStepHook::LastStep(5));
  int steps = 0;
  {
    auto sess = tf::train::MonitoredTrainingSession({.checkpoint_dir = dir,
                                                     .hooks = {stop},
                                                     .save_summaries_steps = 0,
                                                     .log_step_count_steps = 0,
                                                     .save_checkpoint_steps = 2,
                                                     .log_stream = &log});
    while (!sess->should_stop()) {
      sess->run({m.train_op});
      ++steps;
    }
    EXPECT_EQ(Int(sess->session()->run(m.global_step)), 5);
    sess->close();
    EXPECT_TRUE(sess->should_stop());
    EXPECT_EQ(
        tf::testing::ErrorText<std::runtime_error>([&] { sess->close(); }),
        "Session is already closed.");
  }
  EXPECT_EQ(steps, 5);
  const std::string text = log.str();
  for (int s : {0, 2, 4, 5}) {
    EXPECT_NE(text.find("INFO:tensorflow:Saving checkpoints for " +
                        std::to_string(s) + " into " + dir + "/model.ckpt.\n"),
              std::string::npos)
        << text;
  }
  EXPECT_EQ(text.find("Saving checkpoints for 3 "), std::string::npos);
  EXPECT_EQ(tf::train::latest_checkpoint(dir), dir + "/model.ckpt-5");

  // A second chief on the same folder restores step 5 rather than
  // initializing, and NumSteps counts from there.
  std::ostringstream log2;
  auto more = std::make_shared<tf::train::StopAtStepHook>(
      tf::train::StopAtStepHook::NumSteps(2));
  auto sess = tf::train::MonitoredTrainingSession({.checkpoint_dir = dir,
                                                   .hooks = {more},
                                                   .save_summaries_steps = 0,
                                                   .log_step_count_steps = 0,
                                                   .save_checkpoint_steps = 100,
                                                   .log_stream = &log2});
  EXPECT_NE(log2.str().find("INFO:tensorflow:Restoring parameters from " + dir +
                            "/model.ckpt-5\n"),
            std::string::npos)
      << log2.str();
  EXPECT_EQ(more->last_step(), 7);
  EXPECT_EQ(sess->session()->run(m.w).scalar<float>(), 6.f);
  while (!sess->should_stop()) sess->run({m.train_op});
  EXPECT_EQ(Int(sess->session()->run(m.global_step)), 7);
  EXPECT_EQ(tf::testing::ErrorText<std::runtime_error>(
                [&] { sess->run({m.train_op}); }),
            "Run called even after should_stop requested.");
  sess->close();
  std::filesystem::remove_all(dir);
}

// The (step, tag) of every summary value in the event files of `dir`.
std::vector<std::pair<int64_t, std::string>> SummariesIn(
    const std::string& dir) {
  std::vector<std::pair<int64_t, std::string>> out;
  for (const auto& file : std::filesystem::directory_iterator(dir)) {
    if (!file.path().filename().string().starts_with("events.out")) continue;
    tf::TFRecordReader reader;
    EXPECT_TRUE(reader.Open(file.path().string()).ok());
    std::string record;
    while (reader.ReadRecord(&record).ok()) {
      tf::proto::Event event;
      EXPECT_TRUE(event.ParseFromString(record));
      for (const auto& v : event.summary().value()) {
        out.emplace_back(event.step(), v.tag());
      }
    }
  }
  return out;
}

TEST(MonitoredTrainingSessionTest, ChiefWritesSummariesAndStepsPerSecond) {
  tf::Graph graph;
  tf::graph_scope use(graph);
  Model m;
  tf::summary::scalar("w_value", m.w);
  const std::string dir = TempDir("summaries");
  std::ostringstream log;
  {
    auto sess = tf::train::MonitoredTrainingSession(
        {.checkpoint_dir = dir,
         .hooks = {std::make_shared<tf::train::StopAtStepHook>(
             tf::train::StopAtStepHook::LastStep(5))},
         .save_summaries_steps = 2,
         .log_step_count_steps = 2,
         .save_checkpoint_steps = 100,
         .log_stream = &log});
    while (!sess->should_stop()) sess->run({m.train_op});
    sess->close();
  }
  // Summaries of the runs that started at steps 0, 2 and 4, written with
  // the step each left; global_step/sec from the second trigger on (the
  // first only starts the clock), every 2 steps; one file for both hooks,
  // the step counter (added first) writing first.
  EXPECT_EQ(SummariesIn(dir), (std::vector<std::pair<int64_t, std::string>>{
                                  {1, "w_value"},
                                  {3, "global_step/sec"},
                                  {3, "w_value"},
                                  {5, "global_step/sec"},
                                  {5, "w_value"}}));
  EXPECT_NE(log.str().find("INFO:tensorflow:global_step/sec: "),
            std::string::npos)
      << log.str();
  std::filesystem::remove_all(dir);
}

// A hook that adds a fetch and a feed, and counts its calls.
class CountingHook : public tf::train::SessionRunHook {
 public:
  CountingHook(tf::Output fetch, tf::Output fed) : fetch_(fetch), fed_(fed) {}
  void begin() override { ++begins; }
  void after_create_session(tf::Session*, tf::train::Coordinator*) override {
    ++creates;
  }
  tf::train::SessionRunArgs before_run(tf::train::SessionRunContext&) override {
    return {.fetches = {fetch_}, .feeds = {{fed_, tf::Tensor(10.f)}}};
  }
  void after_run(tf::train::SessionRunContext&,
                 const tf::train::SessionRunValues& v) override {
    last = v.results.at(0).scalar<float>();
  }
  void end(tf::Session*) override { ++ends; }
  int begins = 0, creates = 0, ends = 0;
  float last = 0;

 private:
  tf::Output fetch_, fed_;
};

TEST(MonitoredSessionTest, HooksAddFetchesAndFeedsAndCollisionsAreRefused) {
  tf::Graph graph;
  tf::graph_scope use(graph);
  tf::Output x = tf::placeholder(tf::float32, {}, "x");
  tf::Output y = tf::placeholder(tf::float32, {}, "y");
  tf::Output sum = x + y;
  tf::Output twice = x + x;
  auto hook = std::make_shared<CountingHook>(twice, x);
  tf::train::MonitoredSession sess(
      std::make_unique<tf::train::ChiefSessionCreator>(
          tf::train::SessionCreatorOptions{}),
      {hook});
  EXPECT_EQ(hook->begins, 1);
  EXPECT_EQ(hook->creates, 1);
  auto r = sess.run({sum}, {{y, tf::Tensor(1.f)}});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].scalar<float>(), 11.f);
  EXPECT_EQ(hook->last, 20.f);
  EXPECT_EQ(tf::testing::ErrorText<std::runtime_error>([&] {
              sess.run({sum}, {{x, tf::Tensor(1.f)}, {y, tf::Tensor(1.f)}});
            }),
            "Same tensor is fed by a SessionRunHook and user.");
  tf::train::MonitoredSession two(
      std::make_unique<tf::train::ChiefSessionCreator>(
          tf::train::SessionCreatorOptions{}),
      {hook, hook});
  EXPECT_EQ(tf::testing::ErrorText<std::runtime_error>([&] {
              two.run({sum}, {{y, tf::Tensor(1.f)}});
            }),
            "Same tensor is fed by two hooks.");
  sess.close();
  EXPECT_EQ(hook->ends, 1);
}

// One ps and two workers in this process.
class RestartTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cluster_ = ClusterSpec(
        {{"ps", {tf::testing::FreeAddress()}},
         {"worker", {tf::testing::FreeAddress(), tf::testing::FreeAddress()}}});
    ps_ = NewServer("ps", 0);
    w0_ = NewServer("worker", 0);
    w1_ = NewServer("worker", 1);
  }
  std::unique_ptr<Server> NewServer(const std::string& job, int task) {
    return std::make_unique<Server>(
        cluster_, job, task, tf::ConfigProto{},
        tf::train::ServerOptions{.log_stream = &server_log_});
  }
  // The ps process dies and a new one starts on its address.
  void RestartPs() {
    ps_.reset();
    ps_ = NewServer("ps", 0);
  }
  tf::ConfigProto Config() {
    tf::ConfigProto config;
    config.operation_timeout_in_ms = 20000;  // a broken test ends
    return config;
  }

  std::ostringstream server_log_;
  ClusterSpec cluster_;
  std::unique_ptr<Server> ps_, w0_, w1_;
  tf::Graph graph_;
  tf::graph_scope use_{graph_};
};

// --8<-- [start:restart_texts]
TEST_F(RestartTest, ARestartedTaskForgetsItsSessionsAndGraphs) {
  Model m("/job:ps/task:0", "/job:worker/task:0");
  tf::Session sess(
      tf::SessionOptions{.target = w0_->target(), .config = Config()});
  sess.run(tf::global_variables_initializer());
  sess.run(m.train_op);
  RestartPs();
  // The step registered before: its graph on the ps is gone.
  EXPECT_EQ(tf::testing::ErrorText<tf::errors::AbortedError>(
                [&] { sess.run(m.train_op); }),
            "Graph handle is not found: /job:ps/replica:0/task:0/graph_1. "
            "Possibly, this worker just restarted.");
  // A new step must be registered, under a session the ps never saw.
  std::string text =
      tf::testing::ErrorText<tf::errors::AbortedError>([&] { sess.run(m.w); });
  EXPECT_TRUE(text.starts_with("Session handle is not found: ")) << text;
  EXPECT_TRUE(text.ends_with(". Possibly this worker just restarted.")) << text;
}
// --8<-- [end:restart_texts]

TEST_F(RestartTest, WorkerWaitsForTheChiefLoggingTensorFlowsLine) {
  Model m("/job:ps/task:0", "/job:worker/task:1");
  auto scaffold = std::make_shared<tf::train::Scaffold>();
  scaffold->finalize();  // before two threads use it
  std::ostringstream worker_log;
  std::unique_ptr<tf::Session> worker_sess;
  std::thread worker([&] {
    tf::train::WorkerSessionCreator creator({.scaffold = scaffold,
                                             .master = w1_->target(),
                                             .config = Config(),
                                             .log_stream = &worker_log},
                                            /*max_wait_secs=*/30,
                                            /*recovery_wait_secs=*/0.2);
    worker_sess = creator.create_session();
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  tf::train::ChiefSessionCreator chief(
      {.scaffold = scaffold, .master = w0_->target(), .config = Config()});
  std::unique_ptr<tf::Session> chief_sess = chief.create_session();
  worker.join();
  ASSERT_NE(worker_sess, nullptr);
  EXPECT_EQ(worker_sess->run(m.b).scalar<float>(), 2.f);
  EXPECT_NE(worker_log.str().find(
                "INFO:tensorflow:Waiting for model to be ready.  "
                "Ready_for_local_init_op:  Variables not initialized: w, b, "
                "global_step, ready: None\n"),
            std::string::npos)
      << worker_log.str();
}

TEST(WorkerSessionCreatorTest, GivesUpAfterMaxWaitSecs) {
  tf::Graph graph;
  tf::graph_scope use(graph);
  Model m;
  std::ostringstream log;
  // In-process sessions never share variables: no chief can make it ready.
  tf::train::WorkerSessionCreator creator({.log_stream = &log},
                                          /*max_wait_secs=*/1,
                                          /*recovery_wait_secs=*/0.4);
  EXPECT_EQ(tf::testing::ErrorText<tf::errors::DeadlineExceededError>(
                [&] { creator.create_session(); }),
            "Session was not ready after waiting 1 secs.");
  EXPECT_NE(log.str().find("Waiting for model to be ready."),
            std::string::npos);
}

// --8<-- [start:recovery_test]
TEST_F(RestartTest, ChiefRecoversFromARestartedPsAtItsLastCheckpoint) {
  Model m("/job:ps/task:0", "/job:worker/task:0");
  const std::string dir = TempDir("recover");
  std::ostringstream log;
  auto sess = tf::train::MonitoredTrainingSession({.master = w0_->target(),
                                                   .checkpoint_dir = dir,
                                                   .save_summaries_steps = 0,
                                                   .config = Config(),
                                                   .log_step_count_steps = 0,
                                                   .save_checkpoint_steps = 3,
                                                   .log_stream = &log});
  for (int i = 0; i < 5; ++i) sess->run({m.train_op});  // saved at 0 and 3
  RestartPs();  // steps 4 and 5 are lost with it
  sess->run({m.train_op});
  EXPECT_EQ(sess->recoveries(), 1);
  // Restored at 3, then one step: 4, and w and b agree with it.
  EXPECT_EQ(Int(sess->session()->run(m.global_step)), 4);
  EXPECT_EQ(sess->session()->run(m.w).scalar<float>(), 5.f);
  const std::string text = log.str();
  EXPECT_NE(text.find("INFO:tensorflow:An error was raised. This may be due "
                      "to a preemption in a connected worker or parameter "
                      "server."),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("Restoring parameters from " + dir + "/model.ckpt-3\n"),
            std::string::npos)
      << text;
  sess->close();
  std::filesystem::remove_all(dir);
}
// --8<-- [end:recovery_test]

// A non-chief's session also recovers: it waits until the chief has
// restored the model on the new ps.
TEST_F(RestartTest, WorkerRecoversOnceTheChiefHasRestored) {
  Model m("/job:ps/task:0", "/job:worker/task:1");
  const std::string dir = TempDir("worker_recover");
  auto scaffold = std::make_shared<tf::train::Scaffold>();
  std::ostringstream chief_log, worker_log;
  auto chief = tf::train::MonitoredTrainingSession({.master = w0_->target(),
                                                    .checkpoint_dir = dir,
                                                    .scaffold = scaffold,
                                                    .save_summaries_steps = 0,
                                                    .config = Config(),
                                                    .log_step_count_steps = 0,
                                                    .save_checkpoint_steps = 2,
                                                    .log_stream = &chief_log});
  auto worker =
      tf::train::MonitoredTrainingSession({.master = w1_->target(),
                                           .is_chief = false,
                                           .scaffold = scaffold,
                                           .config = Config(),
                                           .recovery_wait_secs = 0.1,
                                           .log_stream = &worker_log});
  for (int i = 0; i < 3; ++i) worker->run({m.train_op});  // saved at 2 (end)
  chief->run({m.train_op});  // the chief's check saves 4
  RestartPs();
  std::thread chief_recovers([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    chief->run({m.train_op});  // restores 4, runs 5
  });
  worker->run({m.train_op});  // waits for the restore, runs 6 (or 5)
  chief_recovers.join();
  EXPECT_EQ(worker->recoveries(), 1);
  EXPECT_EQ(chief->recoveries(), 1);
  EXPECT_EQ(Int(worker->session()->run(m.global_step)), 6);
  EXPECT_NE(worker_log.str().find("Waiting for model to be ready."),
            std::string::npos)
      << worker_log.str();
  worker->close();
  chief->close();
  std::filesystem::remove_all(dir);
}

}  // namespace
