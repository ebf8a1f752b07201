// Tests of exercise 04_softmax. The starter writes nothing, so every row
// fails on it. Each softmax runs with the block's threads in forward,
// reverse and shuffled order, against a CPU softmax in double precision:
// logits of 1000 and -1000, which overflow and underflow exp as written;
// rows shorter and longer than the block; rows whose maxima differ.
#include "softmax.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "../kernel_testing.h"

namespace minitf::exercises {
namespace {

// The softmax of each row of logits:[rows, cols], in double precision.
std::vector<float> CpuSoftmax(const std::vector<float>& logits, int cols) {
  std::vector<float> out(logits.size());
  for (std::size_t r = 0; r * cols < logits.size(); ++r) {
    const float* x = &logits[r * cols];
    double m = -std::numeric_limits<double>::infinity();
    for (int j = 0; j < cols; ++j) m = std::max(m, double{x[j]});
    double s = 0.0;
    for (int j = 0; j < cols; ++j) s += std::exp(x[j] - m);
    for (int j = 0; j < cols; ++j)
      out[r * cols + j] = static_cast<float>(std::exp(x[j] - m) / s);
  }
  return out;
}

// softmax() of logits:[rows, cols] in every thread order, against `want`.
void ExpectSoftmax(const std::vector<float>& logits, int cols,
                   const std::vector<float>& want) {
  const int rows = static_cast<int>(logits.size()) / cols;
  DeviceVector<float> d_logits(logits);
  for (ThreadOrder order : kEveryOrder) {
    SCOPED_TRACE(testing::Message() << "logits:[" << rows << "," << cols
                                    << "], " << OrderName(order));
    UseOrder(order);
    DeviceVector<float> out(std::vector<float>(logits.size(), NAN));
    ASSERT_TRUE(KernelsRan(softmax(rows, cols, d_logits.get(), out.get())));
    ASSERT_TRUE(NearValues(out.to_host(), want, 1e-6, cols));
  }
}

void ExpectSoftmax(const std::vector<float>& logits, int cols) {
  ExpectSoftmax(logits, cols, CpuSoftmax(logits, cols));
}

using SoftmaxTest = KernelExerciseTest;

TEST_F(SoftmaxTest, MatchesHandWorkedValues) {
  // exp(1), exp(2), exp(3) over their sum; and 1 : 3 for logits 0, ln 3.
  ExpectSoftmax({1.f, 2.f, 3.f}, 3, {0.09003057f, 0.24472847f, 0.66524096f});
  ExpectSoftmax({0.f, 0.f, 0.f, std::log(3.f)}, 2, {0.5f, 0.5f, 0.25f, 0.75f});
}

TEST_F(SoftmaxTest, LargePositiveLogitsDoNotOverflow) {
  // As written, exp(1000) is inf and inf / inf is NaN.
  ExpectSoftmax({1000.f, 1000.f, 1000.f, 0.f}, 2, {0.5f, 0.5f, 1.f, 0.f});
  ExpectSoftmax({1001.f, 1002.f, 1003.f}, 3,
                {0.09003057f, 0.24472847f, 0.66524096f});
}

TEST_F(SoftmaxTest, LargeNegativeLogitsDoNotUnderflowToNaN) {
  // As written, exp(-1000) is 0 and 0 / 0 is NaN.
  ExpectSoftmax({-1000.f, -1000.f, -1000.f, 0.f}, 2, {0.5f, 0.5f, 0.f, 1.f});
}

TEST_F(SoftmaxTest, NegativeInfinityGetsProbabilityZero) {
  const float inf = std::numeric_limits<float>::infinity();
  ExpectSoftmax({-inf, 0.f, -inf}, 3, {0.f, 1.f, 0.f});
}

TEST_F(SoftmaxTest, ASingleColumnIsCertain) {
  ExpectSoftmax({42.f, -1000.f, 1000.f}, 1, {1.f, 1.f, 1.f});
}

TEST_F(SoftmaxTest, RowsShorterAndLongerThanTheBlock) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> value(-10.f, 10.f);
  for (int cols :
       {2, 3, kSoftmaxBlock - 1, kSoftmaxBlock, kSoftmaxBlock + 1, 1000}) {
    // Rows around 1000, 0 and -1000 in turn: a block that takes another
    // row's max or sum gets its numbers wrong.
    std::vector<float> logits(7 * cols);
    for (std::size_t i = 0; i < logits.size(); ++i)
      logits[i] = value(rng) + 1000.f * static_cast<float>(
                                            static_cast<int>(i / cols % 3) - 1);
    ExpectSoftmax(logits, cols);
  }
}

TEST_F(SoftmaxTest, ManyRows) {
  std::mt19937 rng(6);
  std::uniform_real_distribution<float> value(-20.f, 20.f);
  std::vector<float> logits(300 * 257);
  for (float& v : logits) v = value(rng);
  ExpectSoftmax(logits, 257);
}

TEST_F(SoftmaxTest, AnEmptyBatchOrRowLaunchesNothing) {
  DeviceVector<float> logits(std::vector<float>{1.f});
  DeviceVector<float> out(std::vector<float>{-1.f});
  EXPECT_TRUE(KernelsRan(softmax(0, 3, logits.get(), out.get())));
  EXPECT_TRUE(KernelsRan(softmax(2, 0, logits.get(), out.get())));
  EXPECT_EQ(softmax(-1, 3, logits.get(), out.get()), cudaErrorInvalidValue);
  EXPECT_EQ(out.to_host()[0], -1.f);
}

}  // namespace
}  // namespace minitf::exercises
