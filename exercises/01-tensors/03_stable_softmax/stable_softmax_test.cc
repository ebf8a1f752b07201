// Tests of exercise 03_stable_softmax. Every test fails on the starter, which
// returns Unimplemented, and passes on a correct StableSoftmax. The logits of
// +-1000 are the point: a softmax computed as written returns NaN for them.
#include "stable_softmax.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace minitf::exercises {
namespace {

// Expects `result` to hold float32 `values` (row-major) of `shape`.
void ExpectTensor(const StatusOr<Tensor>& result, const TensorShape& shape,
                  const std::vector<float>& values) {
  ASSERT_TRUE(result.ok()) << "returned an error: " << result.status();
  ASSERT_TRUE(result->IsInitialized()) << "returned an uninitialized Tensor";
  ASSERT_EQ(result->dtype(), DT_FLOAT);
  ASSERT_EQ(result->shape(), shape);
  const std::vector<float> got = result->ToVector<float>();
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_NEAR(got[i], values[i], 1e-6) << "element " << i;
  }
}

// Expects `result` to be InvalidArgument with `message`.
void ExpectInvalid(const StatusOr<Tensor>& result, const std::string& message) {
  ASSERT_FALSE(result.ok()) << "should fail with: " << message;
  EXPECT_EQ(result.status().code(), error::INVALID_ARGUMENT) << result.status();
  EXPECT_EQ(result.status().message(), message);
}

TEST(StableSoftmaxTest, EqualLogitsGiveEqualProbabilities) {
  ExpectTensor(StableSoftmax(Tensor({{0.f, 0.f, 0.f, 0.f}})), {1, 4},
               {0.25f, 0.25f, 0.25f, 0.25f});
}

TEST(StableSoftmaxTest, MatchesHandWorkedValues) {
  // exp(1), exp(2), exp(3) over their sum; and 1 : 3 for logits 0, ln 3.
  ExpectTensor(StableSoftmax(Tensor({{1.f, 2.f, 3.f}})), {1, 3},
               {0.09003057f, 0.24472847f, 0.66524096f});
  ExpectTensor(StableSoftmax(Tensor({{0.f, 0.f}, {0.f, std::log(3.f)}})),
               {2, 2}, {0.5f, 0.5f, 0.25f, 0.75f});
}

TEST(StableSoftmaxTest, LargePositiveLogitsDoNotOverflow) {
  // Naively exp(1000) is inf and inf / inf is NaN.
  ExpectTensor(StableSoftmax(Tensor({{1000.f, 1000.f}, {1000.f, 0.f}})), {2, 2},
               {0.5f, 0.5f, 1.f, 0.f});
}

TEST(StableSoftmaxTest, LargeNegativeLogitsDoNotUnderflowToNaN) {
  // Naively exp(-1000) is 0 and 0 / 0 is NaN.
  ExpectTensor(StableSoftmax(Tensor({{-1000.f, -1000.f}, {-1000.f, 0.f}})),
               {2, 2}, {0.5f, 0.5f, 0.f, 1.f});
}

TEST(StableSoftmaxTest, AddingAConstantToARowChangesNothing) {
  ExpectTensor(StableSoftmax(Tensor(
                   {{1001.f, 1002.f, 1003.f}, {-999.f, -998.f, -997.f}})),
               {2, 3},
               {0.09003057f, 0.24472847f, 0.66524096f, 0.09003057f, 0.24472847f,
                0.66524096f});
}

TEST(StableSoftmaxTest, EveryRowIsAProbabilityDistribution) {
  const Tensor logits(
      {{1000.f, -1000.f, 3.f}, {-5.f, 0.f, 5.f}, {88.f, 89.f, 90.f}});
  StatusOr<Tensor> result = StableSoftmax(logits);
  ASSERT_TRUE(result.ok()) << "returned an error: " << result.status();
  ASSERT_EQ(result->shape(), logits.shape());
  const std::vector<float> p = result->ToVector<float>();
  for (int row = 0; row < 3; ++row) {
    float sum = 0.f;
    for (int j = 0; j < 3; ++j) {
      const float v = p[row * 3 + j];
      EXPECT_TRUE(std::isfinite(v) && v >= 0.f && v <= 1.f)
          << "row " << row << ": " << v;
      sum += v;
    }
    EXPECT_NEAR(sum, 1.f, 1e-6) << "row " << row;
  }
}

TEST(StableSoftmaxTest, NegativeInfinityGetsProbabilityZero) {
  const float inf = std::numeric_limits<float>::infinity();
  ExpectTensor(StableSoftmax(Tensor({{-inf, 0.f, -inf}})), {1, 3},
               {0.f, 1.f, 0.f});
}

TEST(StableSoftmaxTest, SingleClassIsCertain) {
  ExpectTensor(StableSoftmax(Tensor({{42.f}, {-1000.f}})), {2, 1}, {1.f, 1.f});
}

TEST(StableSoftmaxTest, EmptyBatchOrNoClassesGiveAnEmptyResult) {
  ExpectTensor(StableSoftmax(Tensor(DT_FLOAT, TensorShape({0, 3}))), {0, 3},
               {});
  ExpectTensor(StableSoftmax(Tensor(DT_FLOAT, TensorShape({2, 0}))), {2, 0},
               {});
}

TEST(StableSoftmaxTest, LeavesTheLogitsUnchanged) {
  const Tensor logits({{1.f, 2.f, 3.f}});
  StatusOr<Tensor> result = StableSoftmax(logits);
  ASSERT_TRUE(result.ok()) << "returned an error: " << result.status();
  EXPECT_EQ(logits.ToVector<float>(), (std::vector<float>{1.f, 2.f, 3.f}));
  EXPECT_FALSE(result->SharesBufferWith(logits))
      << "the result must have its own buffer";
}

TEST(StableSoftmaxTest, LogitsThatAreNotAMatrixAreInvalidArgument) {
  ExpectInvalid(StableSoftmax(Tensor({1.f, 2.f, 3.f})),
                "logits must be 2-dimensional, got shape [3]");
  ExpectInvalid(StableSoftmax(Tensor({{{1.f}, {2.f}}})),
                "logits must be 2-dimensional, got shape [1,2,1]");
  ExpectInvalid(StableSoftmax(Tensor(1.f)),
                "logits must be 2-dimensional, got shape []");
}

TEST(StableSoftmaxTest, NonFloatLogitsAreInvalidArgument) {
  ExpectInvalid(StableSoftmax(Tensor({{1, 2}})),
                "StableSoftmax needs a float tensor, got int32");
  ExpectInvalid(StableSoftmax(Tensor({{1.0, 2.0}})),
                "StableSoftmax needs a float tensor, got double");
  ExpectInvalid(StableSoftmax(Tensor()),
                "StableSoftmax needs a float tensor, got invalid");
}

}  // namespace
}  // namespace minitf::exercises
