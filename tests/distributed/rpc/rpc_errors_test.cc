// Bad calls to a server, made through raw gRPC stubs as another program
// could make them: each gets a typed error in TensorFlow's words, and the
// server keeps serving. Also the master's wait for tasks that never start,
// and for a task that stops answering after the session was made.
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>

#include "distributed_testing.h"
#include "minitf/device/partition/rendezvous.h"
#include "minitf/distributed/runtime/proto/master_service.grpc.pb.h"
#include "minitf/distributed/runtime/proto/worker_service.grpc.pb.h"
#include "minitf/distributed/runtime/server.h"
#include "minitf/graph/graph_def.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/tensor/errors.h"

namespace tf = minitf;

namespace {

using tf::train::ClusterSpec;
using tf::train::Server;

std::shared_ptr<grpc::Channel> Channel(const std::string& target) {
  return grpc::CreateChannel(target.substr(std::string("grpc://").size()),
                             grpc::InsecureChannelCredentials());
}

void SetDeadline(grpc::ClientContext* context) {
  context->set_deadline(std::chrono::system_clock::now() +
                        std::chrono::seconds(10));
}

class RpcErrorsTest : public ::testing::Test {
 protected:
  RpcErrorsTest()
      : server_(ClusterSpec({{"ps", {"localhost:0"}}}), "ps", 0, {},
                {.log_stream = &log_}),
        worker_(tensorflow::WorkerService::NewStub(Channel(server_.target()))),
        master_(tensorflow::MasterService::NewStub(Channel(server_.target()))) {
  }

  // The task's CPU, as GetStatus reports it.
  tf::proto::DeviceAttributes Cpu() {
    grpc::ClientContext context;
    SetDeadline(&context);
    tf::proto::GetStatusRequest request;
    tf::proto::GetStatusResponse response;
    EXPECT_TRUE(worker_->GetStatus(&context, request, &response).ok());
    return response.device_attributes(0);
  }

  grpc::Status RecvTensor(int64_t step_id, const std::string& key) {
    grpc::ClientContext context;
    SetDeadline(&context);
    tf::proto::RecvTensorRequest request;
    tf::proto::RecvTensorResponse response;
    request.set_step_id(step_id);
    request.set_rendezvous_key(key);
    return worker_->RecvTensor(&context, request, &response);
  }

  std::ostringstream log_;
  Server server_;
  std::unique_ptr<tensorflow::WorkerService::Stub> worker_;
  std::unique_ptr<tensorflow::MasterService::Stub> master_;
};

TEST_F(RpcErrorsTest, RunGraphOfAnUnknownHandleIsAborted) {
  grpc::ClientContext context;
  SetDeadline(&context);
  tf::proto::RunGraphRequest request;
  tf::proto::RunGraphResponse response;
  request.set_graph_handle("nope");
  request.set_step_id(1);
  grpc::Status s = worker_->RunGraph(&context, request, &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::ABORTED);
  EXPECT_EQ(s.error_message(),
            "Graph handle is not found: nope. Possibly, this worker just "
            "restarted.");
}

TEST_F(RpcErrorsTest, RunGraphAskingForAKeyTwiceIsRefused) {
  // The second receive would wait forever for a value sent once.
  grpc::ClientContext context;
  SetDeadline(&context);
  tf::proto::RunGraphRequest request;
  tf::proto::RunGraphResponse response;
  request.set_graph_handle("nope");
  request.set_step_id(1);
  request.add_recv_key("key");
  request.add_recv_key("key");
  grpc::Status s = worker_->RunGraph(&context, request, &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message(), "RunGraph asks for recv key key more than once");
}

TEST_F(RpcErrorsTest, RegisterGraphOfAnUnknownSessionIsAborted) {
  grpc::ClientContext context;
  SetDeadline(&context);
  tf::proto::RegisterGraphRequest request;
  tf::proto::RegisterGraphResponse response;
  request.set_session_handle("gone");
  request.set_create_worker_session_called(true);
  grpc::Status s = worker_->RegisterGraph(&context, request, &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::ABORTED);
  EXPECT_EQ(s.error_message(),
            "Session handle is not found: gone. Possibly this worker just "
            "restarted.");
}

TEST_F(RpcErrorsTest, RegisterGraphOnADeviceOfAnotherTaskIsRefused) {
  grpc::ClientContext context;
  SetDeadline(&context);
  tf::proto::RegisterGraphRequest request;
  tf::proto::RegisterGraphResponse response;
  tf::Graph g;
  {
    tf::graph_scope use(g);
    tf::device_scope on("/job:worker/replica:0/task:0/device:CPU:0");
    tf::constant(tf::Tensor({1.f}), "a");
  }
  ASSERT_TRUE(tf::ToGraphDef(g, request.mutable_graph_def()).ok());
  grpc::Status s = worker_->RegisterGraph(&context, request, &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message(),
            "Node 'a' is placed on '/job:worker/replica:0/task:0/device:CPU:0'"
            ", which is not a device of /job:ps/replica:0/task:0");
}

TEST_F(RpcErrorsTest, AMalformedRendezvousKeyIsInvalid) {
  grpc::Status s = RecvTensor(1, "not;a;key");
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message(), "Invalid  rendezvous key: not;a;key");
}

TEST_F(RpcErrorsTest, AKeyFromAnotherTaskIsInvalid) {
  const std::string key = tf::Rendezvous::CreateKey(
      "/job:worker/replica:0/task:0/device:CPU:0", 1,
      "/job:ps/replica:0/task:0/device:CPU:0", "a:0", {});
  grpc::Status s = RecvTensor(1, key);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message(), "Invalid rendezvous key (src): " + key +
                                   " @ /job:ps/replica:0/task:0");
}

TEST_F(RpcErrorsTest, AKeyOfAnEarlierIncarnationIsAborted) {
  const tf::proto::DeviceAttributes cpu = Cpu();
  const uint64_t old = cpu.incarnation() + 1;
  const std::string key =
      tf::Rendezvous::CreateKey(cpu.name(), old, cpu.name(), "a:0", {});
  grpc::Status s = RecvTensor(1, key);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::ABORTED);
  EXPECT_EQ(s.error_message(),
            "RecvTensor expects a different device incarnation: " +
                std::to_string(old) + " vs. " +
                std::to_string(cpu.incarnation()) +
                ". Your worker job (\"/job:ps/replica:0/task:0\") was "
                "probably restarted. Check your worker job for the reason why "
                "it was restarted.");
}

// A RecvTensor for a step the task has already ended fails at once, as a
// receiver still waiting when it ended does, rather than waiting for ever.
TEST_F(RpcErrorsTest, RecvTensorForAStepThatIsGoneIsAborted) {
  const tf::proto::DeviceAttributes cpu = Cpu();
  {
    grpc::ClientContext context;
    SetDeadline(&context);
    tf::proto::CleanupGraphRequest request;
    tf::proto::CleanupGraphResponse response;
    request.set_step_id(42);
    ASSERT_TRUE(worker_->CleanupGraph(&context, request, &response).ok());
  }
  const std::string key = tf::Rendezvous::CreateKey(
      cpu.name(), cpu.incarnation(), cpu.name(), "a:0", {});
  grpc::Status s = RecvTensor(42, key);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::ABORTED);
  EXPECT_EQ(s.error_message(), "Cleanup 42");
}

// A caller that gives up on a RecvTensor (its deadline passes) ends the
// step's wait on the task, as TensorFlow aborts the step: the next call for
// the step is answered at once with the reason, instead of waiting for a
// value the step will not send. The server then stops with nothing pending.
TEST_F(RpcErrorsTest, ACancelledRecvTensorEndsTheStepsWait) {
  const tf::proto::DeviceAttributes cpu = Cpu();
  const std::string key = tf::Rendezvous::CreateKey(
      cpu.name(), cpu.incarnation(), cpu.name(), "never_sent:0", {});
  tf::proto::RecvTensorRequest request;
  request.set_step_id(7);
  request.set_rendezvous_key(key);
  auto call = [&](std::chrono::milliseconds deadline) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + deadline);
    tf::proto::RecvTensorResponse response;
    return worker_->RecvTensor(&context, request, &response);
  };
  EXPECT_EQ(call(std::chrono::milliseconds(200)).error_code(),
            grpc::StatusCode::DEADLINE_EXCEEDED);
  // The task learns of the cancellation a moment after the caller.
  grpc::Status s = call(std::chrono::milliseconds(200));
  for (int i = 0; i < 50 && s.error_code() != grpc::StatusCode::CANCELLED;
       ++i) {
    s = call(std::chrono::milliseconds(200));
  }
  EXPECT_EQ(s.error_code(), grpc::StatusCode::CANCELLED);
  EXPECT_EQ(s.error_message(), "RecvTensor cancelled");
}

TEST_F(RpcErrorsTest, AGraphThatDoesNotImportIsInvalid) {
  grpc::ClientContext context;
  SetDeadline(&context);
  tf::proto::RegisterGraphRequest request;
  tf::proto::RegisterGraphResponse response;
  tf::proto::NodeDef* node = request.mutable_graph_def()->add_node();
  node->set_name("b");
  node->set_op("Identity");
  node->add_input("missing");
  grpc::Status s = worker_->RegisterGraph(&context, request, &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message(), "Node 'b': Unknown input node 'missing'");
}

TEST_F(RpcErrorsTest, RunStepOfAnUnknownSessionIsAborted) {
  grpc::ClientContext context;
  SetDeadline(&context);
  tf::proto::RunStepRequest request;
  tf::proto::RunStepResponse response;
  request.set_session_handle("nope");
  grpc::Status s = master_->RunStep(&context, request, &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::ABORTED);
  EXPECT_EQ(s.error_message(), "Session nope is not found.");
}

// A truncated message, sent as raw bytes under RunStep's name: gRPC cannot
// parse it and refuses it before the master sees it.
TEST_F(RpcErrorsTest, ATruncatedRunStepIsRefused) {
  tf::proto::RunStepRequest request;
  request.set_session_handle("a-handle-long-enough-to-cut");
  std::string bytes = request.SerializeAsString();
  bytes.resize(bytes.size() / 2);
  grpc::GenericStub generic(Channel(server_.target()));
  grpc::ClientContext context;
  SetDeadline(&context);
  grpc::Slice slice(bytes);
  grpc::ByteBuffer body(&slice, 1), reply;
  grpc::Status status = tf::testing::GenericUnaryCall(
      generic, &context, "/tensorflow.MasterService/RunStep", body, &reply);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INTERNAL);
  EXPECT_EQ(Cpu().name(), "/job:ps/replica:0/task:0/device:CPU:0");
}

// A task that never starts: the master says so at each interval, and gives
// up at the session's operation timeout.
TEST(CreateSessionTest, WaitsForATaskThenGivesUpAtTheTimeout) {
  std::ostringstream log;
  const ClusterSpec cluster({{"ps", {tf::testing::FreeAddress()}},
                             {"worker", {tf::testing::FreeAddress()}}});
  Server worker(cluster, "worker", 0, {},
                {.log_stream = &log,
                 .still_waiting_interval = std::chrono::milliseconds(200)});
  tf::Graph g;
  tf::graph_scope use(g);
  tf::Output a = tf::constant(tf::Tensor({1.f}), "a");
  tf::SessionOptions options;
  options.target = worker.target();
  options.config.operation_timeout_in_ms = 1000;
  tf::Session sess(options, &g);
  const std::string text =
      tf::testing::ErrorText<tf::errors::DeadlineExceededError>(
          [&] { sess.run(a); });
  EXPECT_EQ(text,
            "CreateSession timed out after 1000 ms waiting for response from "
            "worker: /job:ps/replica:0/task:0");
  EXPECT_NE(log.str().find("CreateSession still waiting for response from "
                           "worker: /job:ps/replica:0/task:0\n"),
            std::string::npos)
      << log.str();
  EXPECT_EQ(log.str().find("still waiting for response from worker: "
                           "/job:worker"),
            std::string::npos);
}

// ConfigProto.device_filters, as seed 003's workers set them: a worker's
// session names the ps and its own task, and neither waits for nor places
// on the other worker, which here never starts (or has trained and gone).
TEST(CreateSessionTest, DeviceFiltersLeaveOutTheOtherWorkers) {
  const ClusterSpec cluster(
      {{"ps", {tf::testing::FreeAddress()}},
       {"worker", {tf::testing::FreeAddress(), tf::testing::FreeAddress()}}});
  Server ps(cluster, "ps", 0);
  Server worker(cluster, "worker", 1);
  tf::SessionOptions options;
  options.target = worker.target();
  options.config.device_filters = {"/job:ps", "/job:worker/task:1"};
  options.config.operation_timeout_in_ms = 5000;
  {
    tf::Graph g;
    tf::graph_scope use(g);
    tf::Output a;
    {
      tf::device_scope on_ps("/job:ps/task:0");
      a = tf::constant(tf::Tensor({2.f}), "a");
    }
    tf::Output b = tf::multiply(a, a, "b");
    tf::Session sess(options, &g);
    EXPECT_FLOAT_EQ(sess.run(b).flat<float>()(0), 4.f);
  }
  // Worker 0's devices are not the session's: a node that asks for one
  // cannot be placed, in the seed's words for a device that is not there.
  tf::Graph g;
  tf::graph_scope use(g);
  tf::Output c;
  {
    tf::device_scope on_worker_0("/job:worker/task:0");
    c = tf::add(tf::constant(tf::Tensor({1.f})), tf::constant(1.f), "c");
  }
  tf::Session sess(options, &g);
  const std::string text =
      tf::testing::ErrorText<tf::errors::InvalidArgumentError>(
          [&] { sess.run(c); });
  // (The first node the placer meets in its order is named, a constant.)
  EXPECT_NE(text.find("Could not satisfy explicit device specification "
                      "'/job:worker/task:0'"),
            std::string::npos)
      << text;
}

// A filter that is not a device spec refuses the session, naming it.
TEST(CreateSessionTest, AFilterThatDoesNotParseIsRefused) {
  const ClusterSpec cluster({{"worker", {tf::testing::FreeAddress()}}});
  Server worker(cluster, "worker", 0);
  tf::Graph g;
  tf::graph_scope use(g);
  tf::Output a = tf::constant(tf::Tensor({1.f}), "a");
  tf::SessionOptions options;
  options.target = worker.target();
  options.config.device_filters = {"/job:worker/task:one"};
  tf::Session sess(options, &g);
  EXPECT_EQ(tf::testing::ErrorText<tf::errors::InvalidArgumentError>(
                [&] { sess.run(a); }),
            "Cannot parse device filter: /job:worker/task:one");
}

// A ps task that answers what a session's creation asks (GetStatus,
// CreateWorkerSession) and then goes quiet: a RegisterGraph is never
// answered, as by a process stopped (SIGSTOP) or a host that no longer
// answers, whose connection stays open. With quiet_from_create_session it
// goes quiet one call earlier, after GetStatus, and answers nothing after
// (DeleteWorkerSession neither). Its unanswered calls end when the caller
// gives up (a deadline, a cancel), or when the server's shutdown cancels
// them.
//
// With answers_register it stays a well-behaved task instead: it answers
// RegisterGraph with a handle of its own, and counts the DeregisterGraph
// calls it gets.
class QuietPs final : public tensorflow::WorkerService::CallbackService {
 public:
  explicit QuietPs(int task_index = 0, bool answers_register = false)
      : task_index_(task_index), answers_register_(answers_register) {}

  grpc::ServerUnaryReactor* GetStatus(
      grpc::CallbackServerContext* context, const tf::proto::GetStatusRequest*,
      tf::proto::GetStatusResponse* response) override {
    tf::proto::DeviceAttributes* cpu = response->add_device_attributes();
    cpu->set_name("/job:ps/replica:0/task:" + std::to_string(task_index_) +
                  "/device:CPU:0");
    cpu->set_device_type("CPU");
    cpu->set_incarnation(12345);
    return Answer(context);
  }
  grpc::ServerUnaryReactor* CreateWorkerSession(
      grpc::CallbackServerContext* context,
      const tf::proto::CreateWorkerSessionRequest*,
      tf::proto::CreateWorkerSessionResponse*) override {
    return AnswerUnlessQuiet(context);
  }
  grpc::ServerUnaryReactor* DeleteWorkerSession(
      grpc::CallbackServerContext* context,
      const tf::proto::DeleteWorkerSessionRequest*,
      tf::proto::DeleteWorkerSessionResponse*) override {
    return AnswerUnlessQuiet(context);
  }
  grpc::ServerUnaryReactor* RegisterGraph(
      grpc::CallbackServerContext* context,
      const tf::proto::RegisterGraphRequest*,
      tf::proto::RegisterGraphResponse* response) override {
    const int n = registers_.fetch_add(1);
    if (!answers_register_) return new Silent;  // answers only if cancelled
    response->set_graph_handle("graph-" + std::to_string(n));
    return Answer(context);
  }
  grpc::ServerUnaryReactor* DeregisterGraph(
      grpc::CallbackServerContext* context,
      const tf::proto::DeregisterGraphRequest* request,
      tf::proto::DeregisterGraphResponse*) override {
    if (request->graph_handle().rfind("graph-", 0) == 0) {
      deregisters_.fetch_add(1);
    }
    return Answer(context);
  }
  int registers() const { return registers_.load(); }
  int deregisters() const { return deregisters_.load(); }
  std::atomic<bool> quiet_from_create_session{false};

 private:
  static grpc::ServerUnaryReactor* Answer(grpc::CallbackServerContext* c) {
    grpc::ServerUnaryReactor* reactor = c->DefaultReactor();
    reactor->Finish(grpc::Status::OK);
    return reactor;
  }
  // The calls after GetStatus, which quiet_from_create_session silences.
  grpc::ServerUnaryReactor* AnswerUnlessQuiet(grpc::CallbackServerContext* c) {
    if (quiet_from_create_session) return new Silent;
    return Answer(c);
  }
  class Silent : public grpc::ServerUnaryReactor {
    void OnCancel() override { Finish(grpc::Status::CANCELLED); }
    void OnDone() override { delete this; }
  };
  const int task_index_;
  const bool answers_register_;
  std::atomic<int> registers_{0};
  std::atomic<int> deregisters_{0};
};

// `service` served at `address` on loopback, as a task of its own.
std::unique_ptr<grpc::Server> Serve(grpc::Service* service,
                                    const std::string& address) {
  grpc::ServerBuilder builder;
  builder.AddListeningPort(address, grpc::InsecureServerCredentials());
  builder.RegisterService(service);
  return builder.BuildAndStart();
}

// A worker task whose ps is a QuietPs, and a graph with a step on both.
class QuietPsTest : public ::testing::Test {
 protected:
  QuietPsTest() {
    const std::string ps_address = tf::testing::FreeAddress();
    ps_server_ = Serve(&quiet_, ps_address);
    worker_ = std::make_unique<Server>(
        ClusterSpec(
            {{"ps", {ps_address}}, {"worker", {tf::testing::FreeAddress()}}}),
        "worker", 0, tf::ConfigProto{},
        tf::train::ServerOptions{.log_stream = &log_});
    tf::graph_scope use(graph_);
    {
      tf::device_scope on("/job:ps/task:0");
      on_ps_ = tf::constant(tf::Tensor({1.f, 2.f}), "on_ps");
    }
    tf::device_scope on("/job:worker/task:0");
    sum_ = tf::identity(on_ps_);
  }
  ~QuietPsTest() override {
    worker_.reset();
    ps_server_->Shutdown(std::chrono::system_clock::now() +
                         std::chrono::seconds(1));
  }

  // The DeadlineExceededError's text of one run of sum_ by a new session on
  // the worker, with these timeouts.
  std::string TimeoutText(int64_t operation_timeout_in_ms,
                          int64_t run_timeout_in_ms) {
    tf::SessionOptions options;
    options.target = worker_->target();
    options.config.operation_timeout_in_ms = operation_timeout_in_ms;
    tf::Session sess(options, &graph_);
    tf::RunOptions run_options;
    run_options.timeout_in_ms = run_timeout_in_ms;
    return tf::testing::ErrorText<tf::errors::DeadlineExceededError>(
        [&] { sess.run({sum_}, {}, run_options, nullptr); });
  }

  // Starts a run of sum_ by `sess` on another thread, and returns once it
  // waits for the quiet task's RegisterGraph: what the run ends with, the
  // text of a CancelledError, comes in the future.
  std::future<std::string> RunWaitingForRegistration(tf::Session& sess) {
    auto run = std::async(std::launch::async, [&] {
      return tf::testing::ErrorText<tf::errors::CancelledError>(
          [&] { sess.run(sum_); });
    });
    for (int i = 0; i < 2000 && quiet_.registers() == 0; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    EXPECT_EQ(quiet_.registers(), 1);
    return run;
  }

  QuietPs quiet_;
  std::unique_ptr<grpc::Server> ps_server_;
  std::ostringstream log_;
  std::unique_ptr<Server> worker_;
  tf::Graph graph_;
  tf::Output on_ps_, sum_;
};

// With operation_timeout_in_ms set, the first run of a signature gives up
// on the task that does not register its part, and says which, rather than
// waiting for ever.
TEST_F(QuietPsTest, RegisterGraphGivesUpAtTheOperationTimeout) {
  EXPECT_EQ(TimeoutText(1000, 0),
            "RegisterGraph timed out after 1000 ms waiting for response from "
            "worker: /job:ps/replica:0/task:0");
  EXPECT_EQ(quiet_.registers(), 1);
}

// A task that goes quiet between its GetStatus and its CreateWorkerSession:
// the session's creation gives up at the same timeout.
TEST_F(QuietPsTest, CreateWorkerSessionGivesUpAtTheOperationTimeout) {
  quiet_.quiet_from_create_session = true;
  EXPECT_EQ(TimeoutText(1000, 0),
            "CreateWorkerSession timed out after 1000 ms waiting for response "
            "from worker: /job:ps/replica:0/task:0");
  EXPECT_EQ(quiet_.registers(), 0);
}

// A run's own timeout (RunOptions) bounds the registration too, and the
// smaller of the two is the one that counts.
TEST_F(QuietPsTest, RegisterGraphGivesUpAtTheSmallerTimeout) {
  const std::string after_1000_ms =
      "RegisterGraph timed out after 1000 ms waiting for response from "
      "worker: /job:ps/replica:0/task:0";
  EXPECT_EQ(TimeoutText(0, 1000), after_1000_ms);
  EXPECT_EQ(TimeoutText(5000, 1000), after_1000_ms);
  EXPECT_EQ(TimeoutText(1000, 5000), after_1000_ms);
}

// A run waiting for RegisterGraph ends when the session is closed. (Without
// any timeout it would wait until then, as TensorFlow's does; the operation
// timeout here, 20 s, only makes a broken test end, with DeadlineExceeded.)
TEST_F(QuietPsTest, CloseEndsARunWaitingForRegisterGraph) {
  tf::SessionOptions options;
  options.target = worker_->target();
  options.config.operation_timeout_in_ms = 20000;
  tf::Session sess(options, &graph_);
  auto run = RunWaitingForRegistration(sess);
  sess.close();
  EXPECT_EQ(run.get(),
            "Step was cancelled by an explicit call to `Session::Close()`.");
}

// While one run waits for the quiet task to register its signature, a run
// of another signature, here one on the worker alone, goes ahead, and a run
// of the same signature waits no longer than its own timeout.
TEST_F(QuietPsTest, AWaitingRegistrationHoldsUpOnlyItsOwnSignature) {
  tf::Output on_worker;
  {
    tf::graph_scope use(graph_);
    tf::device_scope on("/job:worker/task:0");
    on_worker = tf::constant(tf::Tensor({3.f}), "on_worker");
  }
  tf::SessionOptions options;
  options.target = worker_->target();
  options.config.operation_timeout_in_ms = 20000;  // a broken test ends
  tf::Session sess(options, &graph_);
  auto stuck = RunWaitingForRegistration(sess);
  EXPECT_EQ(tf::testing::Str(sess.run(on_worker)), "[3.]");
  tf::RunOptions within_1_s;
  within_1_s.timeout_in_ms = 1000;
  EXPECT_EQ(tf::testing::ErrorText<tf::errors::DeadlineExceededError>(
                [&] { sess.run({sum_}, {}, within_1_s, nullptr); }),
            "Timed out after 1000 ms waiting for another run to register the "
            "same fetches, feeds and targets");
  // Neither waited for the first run, which is still waiting.
  EXPECT_EQ(stuck.wait_for(std::chrono::seconds(0)),
            std::future_status::timeout);
  EXPECT_EQ(quiet_.registers(), 1);
  sess.close();
  EXPECT_EQ(stuck.get(),
            "Step was cancelled by an explicit call to `Session::Close()`.");
}

// Runs of the same signature queued behind a registration that Close ends
// end too, and the quiet task is asked to register only once.
TEST_F(QuietPsTest, CloseEndsTheRunsWaitingForAnothersRegistration) {
  tf::SessionOptions options;
  options.target = worker_->target();
  options.config.operation_timeout_in_ms = 20000;  // a broken test ends
  tf::Session sess(options, &graph_);
  auto first = RunWaitingForRegistration(sess);
  auto second = std::async(std::launch::async, [&] {
    return tf::testing::ErrorText<tf::errors::CancelledError>(
        [&] { sess.run(sum_); });
  });
  // The second run reaches the plan table's wait at once; give it time.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  sess.close();
  const std::string cancelled =
      "Step was cancelled by an explicit call to `Session::Close()`.";
  EXPECT_EQ(first.get(), cancelled);
  EXPECT_EQ(second.get(), cancelled);
  EXPECT_EQ(quiet_.registers(), 1);
}

// When one task does not register its part, the parts other tasks did
// register belong to no plan: the master deregisters them at once, rather
// than leaving them until the session closes (and registering them again at
// the next try).
TEST(RegisterGraphTest, PartsRegisteredBeforeAFailureAreDeregistered) {
  QuietPs answers(0, /*answers_register=*/true), quiet(1);
  const std::string ps0 = tf::testing::FreeAddress();
  const std::string ps1 = tf::testing::FreeAddress();
  auto ps0_server = Serve(&answers, ps0);
  auto ps1_server = Serve(&quiet, ps1);
  std::ostringstream log;
  {
    Server worker(ClusterSpec({{"ps", {ps0, ps1}},
                               {"worker", {tf::testing::FreeAddress()}}}),
                  "worker", 0, {}, {.log_stream = &log});
    tf::Graph graph;
    tf::graph_scope use(graph);
    tf::Output a, b;
    {
      tf::device_scope on("/job:ps/task:0");
      a = tf::constant(tf::Tensor({1.f}), "a");
    }
    {
      tf::device_scope on("/job:ps/task:1");
      b = tf::constant(tf::Tensor({2.f}), "b");
    }
    tf::device_scope on("/job:worker/task:0");
    tf::Output both = tf::concat({a, b}, 0);
    tf::SessionOptions options;
    options.target = worker.target();
    options.config.operation_timeout_in_ms = 1000;
    tf::Session sess(options, &graph);
    for (int attempt = 1; attempt <= 2; ++attempt) {
      EXPECT_EQ(tf::testing::ErrorText<tf::errors::DeadlineExceededError>(
                    [&] { sess.run(both); }),
                "RegisterGraph timed out after 1000 ms waiting for response "
                "from worker: /job:ps/replica:0/task:1");
      // Each try's part on ps 0 goes again; the call is not waited for.
      for (int i = 0; i < 500 && answers.deregisters() < attempt; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
      EXPECT_EQ(answers.registers(), attempt);
      EXPECT_EQ(answers.deregisters(), attempt);
    }
  }
  ps0_server->Shutdown(std::chrono::system_clock::now() +
                       std::chrono::seconds(1));
  ps1_server->Shutdown(std::chrono::system_clock::now() +
                       std::chrono::seconds(1));
}

}  // namespace
