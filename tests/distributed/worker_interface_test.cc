// The worker seam (worker_interface.h): CallOptions' cancellation, FanOut,
// and the worker cache handing out a task's worker by name, the local
// task's own Worker called directly and every other task's over gRPC.
#include "minitf/distributed/runtime/worker_interface.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "distributed_testing.h"
#include "minitf/device/devices/device_mgr.h"
#include "minitf/distributed/runtime/worker.h"
#include "minitf/distributed/runtime/worker_cache.h"
#include "minitf/graph/config.h"

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

}  // namespace
