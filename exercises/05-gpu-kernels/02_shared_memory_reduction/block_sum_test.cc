// Tests of exercise 02_shared_memory_reduction. The starter's kernel writes
// nothing, so every sum is wrong on it. Each test runs the kernel with the
// block's threads in forward, reverse and shuffled order: a tree that is
// missing a __syncthreads() reads a value before it is written in at least
// one of them, and one whose barrier only part of the block reaches is
// reported by the emulator.
#include "block_sum.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "../kernel_testing.h"

namespace minitf::exercises {
namespace {

// n integers from -8 to 8, in no pattern a stale value could match: every
// partial sum of up to a million of them is exact in float.
std::vector<float> Values(int n) {
  std::mt19937 rng(static_cast<unsigned>(n) + 1);
  std::uniform_int_distribution<int> value(-8, 8);
  std::vector<float> x(n);
  for (float& v : x) v = static_cast<float>(value(rng));
  return x;
}

// What block_sum_kernel writes for x on `grid` blocks: the sum of the
// elements each block's threads visit, added exactly.
std::vector<float> BlockSums(const std::vector<float>& x, int grid) {
  const std::int64_t threads = std::int64_t{grid} * kSumBlock;
  std::vector<std::int64_t> sums(grid, 0);
  for (std::size_t i = 0; i < x.size(); ++i)
    sums[i % threads / kSumBlock] += static_cast<std::int64_t>(x[i]);
  return std::vector<float>(sums.begin(), sums.end());
}

// Launches block_sum_kernel on `grid` blocks over n values, in every thread
// order, and compares each block's sum with the CPU's.
void ExpectBlockSums(int n, int grid) {
  const std::vector<float> x = Values(n);
  const std::vector<float> want = BlockSums(x, grid);
  DeviceVector<float> d_x(x);
  for (ThreadOrder order : kEveryOrder) {
    SCOPED_TRACE(testing::Message() << "n = " << n << " on " << grid
                                    << " blocks, " << OrderName(order));
    UseOrder(order);
    DeviceVector<float> block_sums(std::vector<float>(grid, -1.f));
    MINITF_LAUNCH(block_sum_kernel, grid, kSumBlock, 0, 0, d_x.get(), n,
                  block_sums.get());
    ASSERT_TRUE(KernelsRan());
    EXPECT_TRUE(SameValues(block_sums.to_host(), want));
  }
}

// sum() over n values in every thread order, against the CPU's sum.
void ExpectSum(int n) {
  const std::vector<float> x = Values(n);
  std::int64_t want = 0;
  for (float v : x) want += static_cast<std::int64_t>(v);
  DeviceVector<float> d_x(x);
  DeviceVector<float> partials(std::vector<float>(kSumMaxBlocks, -1.f));
  for (ThreadOrder order : kEveryOrder) {
    SCOPED_TRACE(testing::Message()
                 << "sum(n = " << n << "), " << OrderName(order));
    UseOrder(order);
    DeviceVector<float> total(std::vector<float>{-1.f});
    ASSERT_TRUE(KernelsRan(sum(d_x.get(), n, partials.get(), total.get())));
    EXPECT_EQ(total.to_host()[0], static_cast<float>(want));
  }
}

using SharedMemoryReductionTest = KernelExerciseTest;

TEST_F(SharedMemoryReductionTest, OneBlockAddsOneElementPerThread) {
  ExpectBlockSums(kSumBlock, 1);
}

TEST_F(SharedMemoryReductionTest, OneBlockAddsFewerOrMoreElementsThanThreads) {
  ExpectBlockSums(1, 1);
  ExpectBlockSums(100, 1);
  ExpectBlockSums(1000, 1);
}

TEST_F(SharedMemoryReductionTest, EachBlockAddsTheElementsItVisits) {
  ExpectBlockSums(1000, 3);
  ExpectBlockSums(5 * kSumBlock + 1, 5);
  ExpectBlockSums(100003, 7);
}

TEST_F(SharedMemoryReductionTest, ABlockWithNothingToVisitWritesZero) {
  ExpectBlockSums(0, 2);
  ExpectBlockSums(10, 4);
}

TEST_F(SharedMemoryReductionTest, TwoPassesAddArraysOfAnySize) {
  for (int n : {0, 1, 2, 255, 256, 257, 1000, 4097,
                kSumBlock * kSumMaxBlocks + 1, 100003, (1 << 20) + 3})
    ExpectSum(n);
}

TEST_F(SharedMemoryReductionTest, ANegativeSizeIsInvalid) {
  DeviceVector<float> x(std::vector<float>{1.f});
  DeviceVector<float> partials(std::vector<float>(kSumMaxBlocks, 0.f));
  DeviceVector<float> total(std::vector<float>{-1.f});
  EXPECT_EQ(sum(x.get(), -1, partials.get(), total.get()),
            cudaErrorInvalidValue);
  EXPECT_EQ(total.to_host()[0], -1.f);
}

}  // namespace
}  // namespace minitf::exercises
