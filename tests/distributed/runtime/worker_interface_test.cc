// The worker seam (worker_interface.h): CallOptions' cancellation, FanOut,
// the worker cache handing out a task's worker by name, the local task's
// own Worker called directly and every other task's over gRPC, for the
// control calls and for RecvTensor alike; and a ForwardingWorker that
// watches one call.
#include "minitf/distributed/runtime/worker_interface.h"

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "distributed_testing.h"
#include "minitf/device/devices/device_mgr.h"
#include "minitf/device/partition/rendezvous.h"
#include "minitf/distributed/runtime/proto/worker_service.grpc.pb.h"
#include "minitf/distributed/runtime/rpc/grpc_channel.h"
#include "minitf/distributed/runtime/rpc/grpc_remote_worker.h"
#include "minitf/distributed/runtime/worker.h"
#include "minitf/distributed/runtime/worker_cache.h"
#include "minitf/graph/config.h"
#include "minitf/graph/proto_convert.h"

namespace tf = minitf;

namespace {

TEST(CallOptionsTest, ACancelRunsTheCallbackOfTheCallInFlight) {
  tf::CallOptions opts;
  int cancelled = 0;
  opts.SetCancelCallback([&] { ++cancelled; });
  opts.StartCancel();
  EXPECT_EQ(cancelled, 1);
}

TEST(CallOptionsTest, ACancelBeforeTheCallStartsCancelsItAsItStarts) {
  tf::CallOptions opts;
  opts.StartCancel();
  int cancelled = 0;
  opts.SetCancelCallback([&] { ++cancelled; });
  EXPECT_EQ(cancelled, 1);
}

TEST(CallOptionsTest, ACancelAfterTheAnswerDoesNothing) {
  tf::CallOptions opts;
  int cancelled = 0;
  opts.SetCancelCallback([&] { ++cancelled; });
  opts.ClearCancelCallback();
  opts.StartCancel();
  EXPECT_EQ(cancelled, 0);
}

TEST(CallOptionsTest, TheTimeLeftIsAtLeastOneMillisecondAndNoneIsZero) {
  tf::CallOptions opts;
  EXPECT_EQ(opts.MillisecondsLeft(), 0);
  opts.set_deadline(std::chrono::system_clock::now() - std::chrono::seconds(1));
  EXPECT_EQ(opts.MillisecondsLeft(), 1);
  opts.set_deadline(std::chrono::system_clock::now() +
                    std::chrono::seconds(60));
  EXPECT_GT(opts.MillisecondsLeft(), 50000);
}

// Calls answered on the calling thread, on other threads, in any order:
// each status lands at its call's index, and on_answer sees every one.
TEST(FanOutTest, CollectsEveryAnswerByIndex) {
  std::vector<std::thread> threads;
  std::atomic<int> seen{0};
  tf::FanOutOptions options;
  options.on_answer = [&](size_t, const tf::Status&) { ++seen; };
  std::vector<tf::Status> statuses = tf::FanOut(
      4,
      [&](size_t i, tf::StatusCallback done) {
        tf::Status s = i == 2 ? tf::errors::NotFound("two") : tf::Status::OK();
        if (i % 2 == 0) return done(s);
        threads.emplace_back([done = std::move(done), s] {
          std::this_thread::sleep_for(std::chrono::milliseconds(5));
          done(s);
        });
      },
      options);
  for (std::thread& t : threads) t.join();
  ASSERT_EQ(statuses.size(), 4u);
  EXPECT_TRUE(statuses[0].ok());
  EXPECT_TRUE(statuses[1].ok());
  EXPECT_EQ(statuses[2].code(), tf::error::NOT_FOUND);
  EXPECT_TRUE(statuses[3].ok());
  EXPECT_EQ(seen.load(), 4);
}

// A call that is slow to answer is named every interval until it does.
TEST(FanOutTest, NamesTheCallsStillOutEveryInterval) {
  std::vector<size_t> named;
  std::thread late;
  tf::FanOutOptions options;
  options.still_waiting_interval = std::chrono::milliseconds(10);
  options.still_waiting = [&](size_t i) { named.push_back(i); };
  std::vector<tf::Status> statuses = tf::FanOut(
      2,
      [&](size_t i, tf::StatusCallback done) {
        if (i == 0) return done(tf::Status::OK());
        late = std::thread([done = std::move(done)] {
          std::this_thread::sleep_for(std::chrono::milliseconds(60));
          done(tf::Status::OK());
        });
      },
      options);
  late.join();
  ASSERT_FALSE(named.empty());
  for (size_t i : named) EXPECT_EQ(i, 1u);
}

// The local task's worker, once set, is the Worker itself; the other tasks
// are reached by name, and a task outside the cluster is refused in
// TensorFlow's words.
TEST(WorkerCacheTest, HandsOutTheLocalWorkerAndRefusesUnknownTasks) {
  const std::string local = "/job:worker/replica:0/task:0";
  tf::train::ClusterSpec cluster({{"ps", {tf::testing::FreeAddress()}},
                                  {"worker", {tf::testing::FreeAddress()}}});
  tf::WorkerCache workers(cluster, local, 0);
  tf::SessionOptions options;
  auto devices = tf::DeviceMgr::Create(options, local).value();
  tf::Worker worker(local, devices.get(), &workers, 1);
  workers.set_local_worker(&worker);

  tf::WorkerInterface* mine = workers.GetWorker(local).value();
  tf::CallOptions opts;
  tf::proto::GetStatusRequest request;
  tf::proto::GetStatusResponse response;
  ASSERT_TRUE(tf::CallAndWait([&](tf::StatusCallback done) {
                mine->GetStatusAsync(&opts, &request, &response,
                                     std::move(done));
              }).ok());
  ASSERT_EQ(response.device_attributes_size(),
            static_cast<int>(devices->ListDevices().size()));
  EXPECT_EQ(response.device_attributes(0).name(),
            devices->ListDevices().front()->name());

  EXPECT_TRUE(workers.GetWorker("/job:ps/replica:0/task:0").ok());
  tf::StatusOr<tf::WorkerInterface*> unknown =
      workers.GetWorker("/job:ps/replica:0/task:7");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(),
            "Invalid target: /job:ps/replica:0/task:7");
}

// One task's Worker and a worker cache whose local worker it is. The
// cluster names a second task, "ps", at an address nobody listens on, and
// the local task's own address is one nobody listens on either: any call
// that went over gRPC would fail.
class LocalWorkerSeamTest : public ::testing::Test {
 protected:
  const std::string local_ = "/job:worker/replica:0/task:0";
  tf::train::ClusterSpec cluster_{{{"ps", {tf::testing::FreeAddress()}},
                                   {"worker", {tf::testing::FreeAddress()}}}};
  tf::WorkerCache workers_{cluster_, local_, 0};
  std::unique_ptr<tf::DeviceMgr> devices_ =
      tf::DeviceMgr::Create(tf::SessionOptions(), local_).value();
  tf::Worker worker_{local_, devices_.get(), &workers_, 1};

  // A RecvTensor request for `value`, which step `step_id` has sent on the
  // worker's CPU: an empty graph's RunGraph feeds it into the step's
  // rendezvous, as a master feeds a client's value.
  tf::proto::RecvTensorRequest SendOnWorker(int64_t step_id,
                                            const tf::Tensor& value) {
    const tf::Device* cpu = devices_->ListDevices().front();
    const std::string key = tf::Rendezvous::CreateKey(
        cpu->name(), cpu->attributes().incarnation, cpu->name(), "x:0", {0, 0});
    tf::proto::RegisterGraphRequest graph;
    tf::proto::RegisterGraphResponse registered;
    EXPECT_TRUE(worker_.RegisterGraph(graph, &registered).ok());
    tf::proto::RunGraphRequest run;
    run.set_graph_handle(registered.graph_handle());
    run.set_step_id(step_id);
    tf::proto::NamedTensorProto* send = run.add_send();
    send->set_name(key);
    EXPECT_TRUE(tf::TensorToProto(value, send->mutable_tensor()).ok());
    tf::proto::RunGraphResponse ran;
    EXPECT_TRUE(worker_.RunGraph(run, &ran).ok());
    tf::proto::RecvTensorRequest request;
    request.set_step_id(step_id);
    request.set_rendezvous_key(key);
    return request;
  }
};

// The local task's RecvTensor goes through the seam to the Worker itself:
// answered on the calling thread, before the call returns, with no server
// and no channel anywhere.
TEST_F(LocalWorkerSeamTest, TheLocalWorkerAnswersRecvTensorWithoutGrpc) {
  workers_.set_local_worker(&worker_);
  const tf::proto::RecvTensorRequest request =
      SendOnWorker(7, tf::Tensor({1.f, 2.f, 3.f}));
  tf::WorkerInterface* mine = workers_.GetWorker(local_).value();
  tf::CallOptions opts;
  tf::TensorResponse response;
  bool answered = false;
  tf::Status status;
  mine->RecvTensorAsync(&opts, &request, &response, [&](const tf::Status& s) {
    status = s;
    answered = true;
  });
  EXPECT_TRUE(answered);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_FALSE(response.is_dead);
  EXPECT_EQ(tf::testing::Str(response.tensor), "[1. 2. 3.]");
}

// A wrapper over ForwardingWorker overrides the one call it watches; every
// other call, RecvTensor included, passes through unchanged.
TEST_F(LocalWorkerSeamTest, AForwardingWorkerOverridesOnlyTheCallItWatches) {
  class CountingGetStatus final : public tf::ForwardingWorker {
   public:
    using ForwardingWorker::ForwardingWorker;
    int calls = 0;
    void GetStatusAsync(tf::CallOptions* opts,
                        const tf::proto::GetStatusRequest* request,
                        tf::proto::GetStatusResponse* response,
                        tf::StatusCallback done) override {
      ++calls;
      ForwardingWorker::GetStatusAsync(opts, request, response,
                                       std::move(done));
    }
  } counting(&worker_);
  workers_.set_local_worker(&counting);
  tf::WorkerInterface* mine = workers_.GetWorker(local_).value();
  tf::CallOptions opts;
  tf::proto::GetStatusRequest ask;
  tf::proto::GetStatusResponse status;
  ASSERT_TRUE(tf::CallAndWait([&](tf::StatusCallback done) {
                mine->GetStatusAsync(&opts, &ask, &status, std::move(done));
              }).ok());
  EXPECT_EQ(counting.calls, 1);
  EXPECT_GT(status.device_attributes_size(), 0);

  const tf::proto::RecvTensorRequest request =
      SendOnWorker(8, tf::Tensor({4.f, 5.f}));
  tf::CallOptions recv_opts;
  tf::TensorResponse response;
  ASSERT_TRUE(tf::CallAndWait([&](tf::StatusCallback done) {
                mine->RecvTensorAsync(&recv_opts, &request, &response,
                                      std::move(done));
              }).ok());
  EXPECT_EQ(tf::testing::Str(response.tensor), "[4. 5.]");
  EXPECT_EQ(counting.calls, 1);
}

// A cancellation of the options ends a local RecvTensor that waits for a
// value nobody sends, in the words the service's caller gets.
TEST_F(LocalWorkerSeamTest, ACancelledLocalRecvTensorEndsTheWait) {
  workers_.set_local_worker(&worker_);
  const tf::Device* cpu = devices_->ListDevices().front();
  tf::proto::RecvTensorRequest request;
  request.set_step_id(9);
  request.set_rendezvous_key(
      tf::Rendezvous::CreateKey(cpu->name(), cpu->attributes().incarnation,
                                cpu->name(), "never:0", {0, 0}));
  tf::WorkerInterface* mine = workers_.GetWorker(local_).value();
  tf::CallOptions opts;
  tf::TensorResponse response;
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    opts.StartCancel();
  });
  const tf::Status s = tf::CallAndWait([&](tf::StatusCallback done) {
    mine->RecvTensorAsync(&opts, &request, &response, std::move(done));
  });
  canceller.join();
  EXPECT_EQ(s.code(), tf::error::CANCELLED) << s;
  EXPECT_EQ(s.message(), "RecvTensor cancelled");
}

// A RecvTensor to a task whose process is not there: the transport's
// Unavailable, not a wait and not a crash.
TEST_F(LocalWorkerSeamTest, ARecvTensorFromATaskThatIsDownIsUnavailable) {
  tf::WorkerInterface* ps =
      workers_.GetWorker("/job:ps/replica:0/task:0").value();
  tf::proto::RecvTensorRequest request;
  request.set_step_id(1);
  request.set_rendezvous_key("whatever");
  tf::CallOptions opts;
  opts.set_deadline(std::chrono::system_clock::now() +
                    std::chrono::seconds(10));
  tf::TensorResponse response;
  const tf::Status s = tf::CallAndWait([&](tf::StatusCallback done) {
    ps->RecvTensorAsync(&opts, &request, &response, std::move(done));
  });
  EXPECT_EQ(s.code(), tf::error::UNAVAILABLE) << s;
}

// A worker service whose RecvTensor answers bytes that are not a
// RecvTensorResponse: the gRPC remote worker's answer is InvalidArgument in
// TensorFlow's words, and the caller's tensor is left empty.
class GarbageRecvTensorService final
    : public tensorflow::WorkerService::WithRawCallbackMethod_RecvTensor<
          tensorflow::WorkerService::Service> {
 public:
  grpc::ServerUnaryReactor* RecvTensor(grpc::CallbackServerContext* context,
                                       const grpc::ByteBuffer*,
                                       grpc::ByteBuffer* response) override {
    grpc::Slice garbage(std::string("\x0a\xff\xff\xff\x0fnot a tensor"));
    *response = grpc::ByteBuffer(&garbage, 1);
    grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
    reactor->Finish(grpc::Status::OK);
    return reactor;
  }
};

TEST(GrpcRemoteWorkerTest, AMalformedRecvTensorAnswerIsInvalidArgument) {
  GarbageRecvTensorService service;
  int port = 0;
  grpc::ServerBuilder builder;
  builder.AddListeningPort("localhost:0", grpc::InsecureServerCredentials(),
                           &port);
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  ASSERT_NE(server, nullptr);
  tf::GrpcRemoteWorker worker(
      tf::NewChannel("localhost:" + std::to_string(port)));
  tf::proto::RecvTensorRequest request;
  request.set_step_id(1);
  request.set_rendezvous_key("anything");
  tf::CallOptions opts;
  tf::TensorResponse response;
  const tf::Status s = tf::CallAndWait([&](tf::StatusCallback done) {
    worker.RecvTensorAsync(&opts, &request, &response, std::move(done));
  });
  EXPECT_EQ(s.code(), tf::error::INVALID_ARGUMENT) << s;
  EXPECT_EQ(s.message(), "Cannot parse tensor from response");
  EXPECT_FALSE(response.tensor.IsInitialized());
  server->Shutdown();
}

}  // namespace
