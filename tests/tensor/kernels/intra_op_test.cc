// The intra-op hook (kernels/intra_op.h): which threads a kernel's work is
// split between, and that the kernels which split their work use them.
#include "minitf/tensor/kernels/intra_op.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "minitf/tensor/kernels/matmul.h"
#include "minitf/tensor/tensor.h"

namespace minitf::kernels {
namespace {

// An Eigen pool that counts the tasks it was given.
class CountingPool : public Eigen::ThreadPoolInterface {
 public:
  explicit CountingPool(int threads) : pool_(threads) {}
  void Schedule(std::function<void()> fn) override {
    ++scheduled;
    pool_.Schedule(std::move(fn));
  }
  int NumThreads() const override { return pool_.NumThreads(); }
  int CurrentThreadId() const override { return pool_.CurrentThreadId(); }

  std::atomic<int> scheduled{0};

 private:
  Eigen::ThreadPool pool_;
};

// One thread per min_work_per_thread of work, from 1 up to the threads and
// the units the work comes in.
TEST(IntraOpTest, ThreadsForGivesEachThreadItsMinimum) {
  EXPECT_EQ(ThreadsFor(0, 100, 10, 4), 1);
  EXPECT_EQ(ThreadsFor(199, 100, 10, 4), 1);
  EXPECT_EQ(ThreadsFor(200, 100, 10, 4), 2);
  EXPECT_EQ(ThreadsFor(1000, 100, 10, 4), 4);
  EXPECT_EQ(ThreadsFor(1000, 100, 3, 4), 3);
  EXPECT_EQ(ThreadsFor(1000, 100, 0, 4), 1);
  EXPECT_EQ(ThreadsFor(1000, 100, 10, 0), 1);
}

TEST(IntraOpTest, WithoutAScopeKernelsUseTheProcessPool) {
  EXPECT_EQ(CurrentIntraOpPool(), nullptr);
  EXPECT_EQ(IntraOpThreads(), GetNumThreads());
}

TEST(IntraOpTest, ScopesNestAndRestore) {
  CountingPool outer(2), inner(3);
  {
    ScopedIntraOpPool a(&outer);
    EXPECT_EQ(CurrentIntraOpPool(), &outer);
    EXPECT_EQ(IntraOpThreads(), 2);
    {
      ScopedIntraOpPool b(&inner);
      EXPECT_EQ(IntraOpThreads(), 3);
      {
        ScopedIntraOpPool none(nullptr);  // the process's pool again
        EXPECT_EQ(IntraOpThreads(), GetNumThreads());
      }
      EXPECT_EQ(CurrentIntraOpPool(), &inner);
    }
    EXPECT_EQ(CurrentIntraOpPool(), &outer);
    // Another thread has a scope of its own: none.
    std::thread([] { EXPECT_EQ(CurrentIntraOpPool(), nullptr); }).join();
  }
  EXPECT_EQ(CurrentIntraOpPool(), nullptr);
}

TEST(IntraOpTest, ParallelForRunsEveryShardOnceOnThePool) {
  CountingPool pool(3);
  ScopedIntraOpPool on(&pool);
  std::vector<std::atomic<int>> runs(5);
  std::mutex mu;
  std::set<int> pool_threads;  // the pool's thread ids that ran a shard
  ParallelFor(5, [&](int i) {
    ++runs[i];
    std::lock_guard<std::mutex> lock(mu);
    if (pool.CurrentThreadId() >= 0)
      pool_threads.insert(pool.CurrentThreadId());
  });
  for (int i = 0; i < 5; ++i) EXPECT_EQ(runs[i], 1) << i;
  // One helper task per pool thread, at most n - 1; each takes shards until
  // none is left, and so does the caller, so who ran which shard varies from
  // run to run: the caller may find none left, or run them all.
  EXPECT_EQ(pool.scheduled, 3);
  for (int id : pool_threads) EXPECT_TRUE(id >= 0 && id < 3) << id;
}

// Runs `fn` on another thread; true if it returned within 10 seconds. If
// not, calls `unblock` (which must let `fn` finish) and waits for it.
bool ReturnsInTime(
    const std::function<void()>& fn,
    const std::function<void()>& unblock = [] {}) {
  auto done = std::async(std::launch::async, fn);
  if (done.wait_for(std::chrono::seconds(10)) == std::future_status::ready) {
    return true;
  }
  unblock();
  return false;
}

TEST(IntraOpTest, ParallelForDoesNotWaitForAPoolThreadThatIsBusy) {
  // The pool's only thread is busy until the test lets it go: the caller
  // must run every shard itself rather than wait for it (as it would wait,
  // on a busy machine, for a thread the kernel has not scheduled yet).
  CountingPool pool(1);
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  pool.Schedule([released] { released.wait(); });
  std::atomic<int> ran{0};
  bool released_early = false;
  const bool in_time = ReturnsInTime(
      [&] {
        ScopedIntraOpPool on(&pool);
        ParallelFor(4, [&](int) { ++ran; });
      },
      [&] {
        released_early = true;
        release.set_value();
      });
  if (!released_early) release.set_value();
  EXPECT_TRUE(in_time) << "ParallelFor waited for a busy pool thread";
  EXPECT_EQ(ran, 4);
}

TEST(IntraOpTest, WithoutAScopeShardsRunAtOnceOnTheProcessPool) {
  // Shard 0 waits for shard 1 to start: only a second thread can start it.
  const int before = GetNumThreads();
  SetNumThreads(2);
  std::promise<void> started;
  std::shared_future<void> one_started = started.get_future().share();
  std::atomic<bool> at_once{false};
  std::atomic<int> ran{0};
  const bool in_time = ReturnsInTime([&] {
    ParallelFor(2, [&](int i) {
      ++ran;
      if (i == 1) {
        started.set_value();
      } else {
        at_once = one_started.wait_for(std::chrono::seconds(5)) ==
                  std::future_status::ready;
      }
    });
  });
  SetNumThreads(before);
  EXPECT_TRUE(in_time);
  EXPECT_TRUE(at_once) << "shard 1 did not start while shard 0 ran";
  EXPECT_EQ(ran, 2);
}

TEST(IntraOpTest, AShardOnThePoolDoesNotWaitForItsOwnPool) {
  // A pool thread that asks for its own pool runs the shards itself: with
  // every thread of the pool waiting, nothing would run them.
  CountingPool pool(1);
  std::atomic<int> ran{0};
  std::atomic<bool> done{false};
  pool.Schedule([&] {
    ScopedIntraOpPool on(&pool);
    ParallelFor(3, [&](int) { ++ran; });
    done = true;
  });
  while (!done) std::this_thread::yield();
  EXPECT_EQ(ran, 3);
  EXPECT_EQ(pool.scheduled, 1);  // only the outer task
}

TEST(IntraOpTest, SplitsBackToBackOnSeveralPoolsEachRunEveryShardOnce) {
  // After its shards a pool thread stays awake for a while, watching for
  // the next split, and goes back to its pool's loop when one begins, on
  // whichever pool: two callers alternating between two pools and the
  // process's, split after split, must each see every shard run once, and
  // none may wait for a thread that is lingering on another pool's behalf.
  const int before = GetNumThreads();
  SetNumThreads(2);
  CountingPool first(2), second(1);
  std::atomic<int> wrong{0};
  auto splits = [&](int caller) {
    for (int round = 0; round < 300; ++round) {
      Eigen::ThreadPoolInterface* pools[] = {&first, &second, nullptr};
      ScopedIntraOpPool on(pools[(round + caller) % 3]);
      const int n = 1 + (round % 5);
      std::vector<std::atomic<int>> runs(n);
      ParallelFor(n, [&](int i) { ++runs[i]; });
      for (int i = 0; i < n; ++i) wrong += runs[i] != 1;
    }
  };
  const bool in_time = ReturnsInTime([&] {
    std::thread other(splits, 1);
    splits(0);
    other.join();
  });
  SetNumThreads(before);
  EXPECT_TRUE(in_time) << "a split waited for a lingering thread";
  EXPECT_EQ(wrong, 0) << "shards run other than once";
}

TEST(IntraOpTest, MatMulSplitsOnThePoolAndComputesTheSame) {
  Tensor a(DT_FLOAT, TensorShape({256, 192}));
  Tensor b(DT_FLOAT, TensorShape({192, 320}));
  for (int64_t i = 0; i < a.NumElements(); ++i) {
    a.data<float>()[i] = static_cast<float>(i % 17) / 17.f;
  }
  for (int64_t i = 0; i < b.NumElements(); ++i) {
    b.data<float>()[i] = static_cast<float>(i % 13) / 13.f;
  }
  const int before = GetNumThreads();
  SetNumThreads(1);
  Tensor alone = MatMul(a, b).value();
  SetNumThreads(before);
  CountingPool pool(2);
  Tensor split;
  {
    ScopedIntraOpPool on(&pool);
    split = MatMul(a, b).value();
  }
  EXPECT_EQ(pool.scheduled, 1);  // two slabs: one on the pool, one here
  ASSERT_EQ(split.shape(), alone.shape());
  for (int64_t i = 0; i < alone.NumElements(); ++i) {
    ASSERT_NEAR(split.data<float>()[i], alone.data<float>()[i], 1e-4) << i;
  }
}

}  // namespace
}  // namespace minitf::kernels
