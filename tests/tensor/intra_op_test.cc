// The intra-op hook (kernels/intra_op.h): which threads a kernel's work is
// split between, and that the kernels which split their work use them.
#include "minitf/tensor/kernels/intra_op.h"

#include <gtest/gtest.h>

#include <atomic>
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

TEST(IntraOpTest, WithoutAScopeKernelsUseOpenMP) {
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
        ScopedIntraOpPool none(nullptr);  // OpenMP again
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
  int caller_shards = 0;
  ParallelFor(5, [&](int i) {
    ++runs[i];
    std::lock_guard<std::mutex> lock(mu);
    if (pool.CurrentThreadId() >= 0) {
      pool_threads.insert(pool.CurrentThreadId());
    } else {
      ++caller_shards;
    }
  });
  for (int i = 0; i < 5; ++i) EXPECT_EQ(runs[i], 1) << i;
  EXPECT_EQ(pool.scheduled, 4);  // shards 1 to 4
  EXPECT_EQ(caller_shards, 1);   // shard 0
  EXPECT_FALSE(pool_threads.empty());
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
