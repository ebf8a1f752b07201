// Tests of exercise 03_tiled_matmul. The starter adds up nothing, so it
// writes zeros and fails every product with k > 0. Each product runs with
// the block's threads in forward, reverse and shuffled order, on sides that
// are and are not multiples of the tile, against a CPU triple loop.
#include "tiled_matmul.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "../kernel_testing.h"

namespace minitf::exercises {
namespace {

constexpr float kUntouched = -12345.f;

// `size` integers from -5 to 5, then `padding` NaNs: a read past the end of
// the matrix makes its dot products NaN. Every sum of the tests' products is
// exact in float.
std::vector<float> Matrix(int size, int padding, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> value(-5, 5);
  std::vector<float> x(size + padding, NAN);
  for (int i = 0; i < size; ++i) x[i] = static_cast<float>(value(rng));
  return x;
}

// c = a b for a:[m,k] b:[k,n], through tiled_matmul(), in every thread
// order, against the CPU's triple loop. c is followed by values that must
// stay as they are.
void ExpectProduct(int m, int n, int k) {
  const int padding = kTile * (k + n + 1);
  const std::vector<float> a = Matrix(m * k, padding, 1);
  const std::vector<float> b = Matrix(k * n, padding, 2);
  std::vector<float> want(m * n + padding, kUntouched);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      float sum = 0.f;
      for (int p = 0; p < k; ++p) sum += a[i * k + p] * b[p * n + j];
      want[i * n + j] = sum;
    }
  }
  DeviceVector<float> d_a(a), d_b(b);
  for (ThreadOrder order : kEveryOrder) {
    SCOPED_TRACE(testing::Message() << "a:[" << m << "," << k << "] b:[" << k
                                    << "," << n << "], " << OrderName(order));
    UseOrder(order);
    DeviceVector<float> c(std::vector<float>(want.size(), kUntouched));
    ASSERT_TRUE(
        KernelsRan(tiled_matmul(m, n, k, d_a.get(), d_b.get(), c.get())));
    ASSERT_TRUE(SameValues(c.to_host(), want, n))
        << "c is [" << m << "," << n << "]; rows from " << m
        << " on lie past its end, and must stay as they are";
  }
}

using TiledMatmulTest = KernelExerciseTest;

TEST_F(TiledMatmulTest, OneTile) {
  ExpectProduct(kTile, kTile, kTile);
  ExpectProduct(1, 1, 1);
}

TEST_F(TiledMatmulTest, SidesThatAreMultiplesOfTheTile) {
  ExpectProduct(32, 48, 64);
}

TEST_F(TiledMatmulTest, SidesThatAreNotMultiplesOfTheTile) {
  ExpectProduct(17, 33, 5);
  ExpectProduct(100, 88, 76);
  ExpectProduct(3, 50, 1);
  ExpectProduct(40, 1, 20);
  ExpectProduct(kTile + 1, kTile - 1, 2 * kTile + 1);
}

TEST_F(TiledMatmulTest, AnEmptyInnerDimensionGivesZeros) {
  ExpectProduct(5, 7, 0);
}

TEST_F(TiledMatmulTest, AnEmptyResultLaunchesNothing) {
  DeviceVector<float> a(std::vector<float>{1.f}), b(std::vector<float>{1.f});
  DeviceVector<float> c(std::vector<float>{kUntouched});
  EXPECT_TRUE(KernelsRan(tiled_matmul(0, 1, 1, a.get(), b.get(), c.get())));
  EXPECT_TRUE(KernelsRan(tiled_matmul(1, 0, 1, a.get(), b.get(), c.get())));
  EXPECT_EQ(tiled_matmul(1, 1, -1, a.get(), b.get(), c.get()),
            cudaErrorInvalidValue);
  EXPECT_EQ(c.to_host()[0], kUntouched);
}

}  // namespace
}  // namespace minitf::exercises
