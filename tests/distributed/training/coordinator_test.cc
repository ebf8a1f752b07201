// tf::train::Coordinator: threads stopped together, errors passed on.
#include "minitf/distributed/training/coordinator.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>

#include "distributed_testing.h"
#include "minitf/tensor/errors.h"

namespace minitf::train {
namespace {

using std::chrono::milliseconds;

TEST(CoordinatorTest, JoinWaitsForEveryThreadToReturn) {
  Coordinator coord;
  std::atomic<int> ran{0};
  for (int i = 0; i < 3; ++i) {
    std::string name = "t";
    name += std::to_string(i);  // not "t" + ...: GCC 12's -Wrestrict
    coord.register_thread(name, [&] {
      std::this_thread::sleep_for(milliseconds(20));
      ++ran;
    });
  }
  coord.join();
  EXPECT_EQ(ran.load(), 3);
  EXPECT_TRUE(coord.joined());
  EXPECT_FALSE(coord.should_stop());
}

TEST(CoordinatorTest, ARequestedStopReachesEveryThread) {
  Coordinator coord;
  std::atomic<int> loops{0};
  for (int i = 0; i < 2; ++i) {
    coord.register_thread("looper", [&] {
      while (!coord.should_stop()) {
        ++loops;
        coord.wait_for_stop(milliseconds(1));
      }
    });
  }
  std::this_thread::sleep_for(milliseconds(10));
  coord.request_stop();
  coord.join();
  EXPECT_GT(loops.load(), 0);
}

TEST(CoordinatorTest, AThreadsErrorStopsTheOthersAndIsRethrownByJoin) {
  Coordinator coord;
  coord.register_thread("failing", [] {
    throw errors::InvalidArgumentError("Expected image (JPEG, PNG, or GIF)");
  });
  coord.register_thread("waiting", [&] { coord.wait_for_stop(); });
  EXPECT_EQ(testing::InvalidArgumentText([&] { coord.join(); }),
            "Expected image (JPEG, PNG, or GIF)");
  EXPECT_TRUE(coord.should_stop());
  EXPECT_TRUE(coord.joined());
}

TEST(CoordinatorTest, OnlyTheFirstErrorIsKept) {
  Coordinator coord;
  coord.request_stop(std::make_exception_ptr(errors::AbortedError("first")));
  coord.request_stop(std::make_exception_ptr(errors::InternalError("second")));
  EXPECT_EQ(testing::ErrorText<errors::AbortedError>(
                [&] { coord.raise_requested_exception(); }),
            "first");
}

TEST(CoordinatorTest, AnInputThatRanOutIsACleanStop) {
  Coordinator coord;
  coord.register_thread("reader", [] {
    throw errors::OutOfRangeError("FIFOQueue '_0_fifo_queue' is closed");
  });
  coord.join();  // no error
  EXPECT_TRUE(coord.should_stop());
}

TEST(CoordinatorTest, AThreadThatIgnoresTheStopIsNamedAfterTheGracePeriod) {
  // Declared first, so that it outlives the coordinator, whose destructor
  // joins the thread that reads it.
  std::atomic<bool> release{false};
  Coordinator coord;
  coord.register_thread("stubborn", [&] {
    while (!release) std::this_thread::sleep_for(milliseconds(1));
  });
  coord.request_stop();
  EXPECT_EQ(testing::ErrorText<std::runtime_error>(
                [&] { coord.join(milliseconds(20)); }),
            "Coordinator stopped with threads still running: stubborn");
  release = true;  // the destructor joins it
}

TEST(CoordinatorTest, LiveThreadsMayBeIgnored) {
  // Declared first, so that it outlives the coordinator, whose destructor
  // joins the thread that reads it.
  std::atomic<bool> release{false};
  Coordinator coord;
  coord.register_thread("stubborn", [&] {
    while (!release) std::this_thread::sleep_for(milliseconds(1));
  });
  coord.request_stop();
  coord.join(milliseconds(5), /*ignore_live_threads=*/true);
  release = true;
}

TEST(CoordinatorTest, ClearStopMakesItUsableAgain) {
  Coordinator coord;
  coord.request_stop(std::make_exception_ptr(errors::AbortedError("x")));
  coord.clear_stop();
  EXPECT_FALSE(coord.should_stop());
  EXPECT_FALSE(coord.wait_for_stop(milliseconds(1)));
  coord.raise_requested_exception();  // nothing to raise
}

}  // namespace
}  // namespace minitf::train
