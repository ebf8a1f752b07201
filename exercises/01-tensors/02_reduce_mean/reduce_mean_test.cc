// Tests of exercise 02_reduce_mean. Every test fails on the starter, which
// returns Unimplemented, and passes on a correct ReduceMeanOverAxes.
#include "reduce_mean.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <numeric>
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
    if (std::isnan(values[i])) {
      EXPECT_TRUE(std::isnan(got[i]))
          << "element " << i << " is " << got[i] << ", expected NaN";
    } else {
      EXPECT_NEAR(got[i], values[i], 1e-5) << "element " << i;
    }
  }
}

// Expects `result` to be InvalidArgument with `message`.
void ExpectInvalid(const StatusOr<Tensor>& result, const std::string& message) {
  ASSERT_FALSE(result.ok()) << "should fail with: " << message;
  EXPECT_EQ(result.status().code(), error::INVALID_ARGUMENT) << result.status();
  EXPECT_EQ(result.status().message(), message);
}

// x[i][j][k] = 12i + 4j + k: a [2,3,4] tensor holding 0..23.
Tensor Iota234() {
  std::vector<float> values(24);
  std::iota(values.begin(), values.end(), 0.f);
  return Tensor::FromVector(values, TensorShape({2, 3, 4})).value();
}

// [[1,2,3],[4,5,6]]: shape [2,3].
Tensor Matrix23() { return Tensor({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}}); }

TEST(ReduceMeanOverAxesTest, AveragesTheColumnsOrTheRowsOfAMatrix) {
  ExpectTensor(ReduceMeanOverAxes(Matrix23(), {0}, false), {3},
               {2.5f, 3.5f, 4.5f});
  ExpectTensor(ReduceMeanOverAxes(Matrix23(), {1}, false), {2}, {2.f, 5.f});
}

TEST(ReduceMeanOverAxesTest, NegativeAxisCountsFromTheEnd) {
  ExpectTensor(ReduceMeanOverAxes(Matrix23(), {-1}, false), {2}, {2.f, 5.f});
  ExpectTensor(ReduceMeanOverAxes(Matrix23(), {-2}, false), {3},
               {2.5f, 3.5f, 4.5f});
}

TEST(ReduceMeanOverAxesTest, KeepDimsLeavesReducedAxesWithSizeOne) {
  ExpectTensor(ReduceMeanOverAxes(Matrix23(), {1}, true), {2, 1}, {2.f, 5.f});
  ExpectTensor(ReduceMeanOverAxes(Matrix23(), {0, 1}, true), {1, 1}, {3.5f});
}

TEST(ReduceMeanOverAxesTest, ReducingEveryAxisGivesAScalar) {
  ExpectTensor(ReduceMeanOverAxes(Matrix23(), {0, 1}, false), {}, {3.5f});
  ExpectTensor(ReduceMeanOverAxes(Matrix23(), {1, 0}, false), {}, {3.5f});
}

TEST(ReduceMeanOverAxesTest, ReducesTheMiddleAxisOfARank3Tensor) {
  // Mean over j of 12i + 4j + k is 12i + 4 + k.
  ExpectTensor(ReduceMeanOverAxes(Iota234(), {1}, false), {2, 4},
               {4.f, 5.f, 6.f, 7.f, 16.f, 17.f, 18.f, 19.f});
}

TEST(ReduceMeanOverAxesTest, ReducesAxesThatAreNotNeighbours) {
  // Mean over i and k of 12i + 4j + k is 6 + 4j + 1.5.
  ExpectTensor(ReduceMeanOverAxes(Iota234(), {0, 2}, false), {3},
               {7.5f, 11.5f, 15.5f});
  ExpectTensor(ReduceMeanOverAxes(Iota234(), {2, -3}, true), {1, 3, 1},
               {7.5f, 11.5f, 15.5f});
}

TEST(ReduceMeanOverAxesTest, SizeOneAxesReduceToTheSameValues) {
  Tensor column({{1.f}, {2.f}, {3.f}});  // [3,1]
  ExpectTensor(ReduceMeanOverAxes(column, {1}, false), {3}, {1.f, 2.f, 3.f});
  ExpectTensor(ReduceMeanOverAxes(column, {0}, false), {1}, {2.f});
}

TEST(ReduceMeanOverAxesTest, EmptyAxisListReturnsACopyOfTheInput) {
  Tensor x = Matrix23();
  StatusOr<Tensor> result = ReduceMeanOverAxes(x, {}, false);
  ExpectTensor(result, {2, 3}, {1.f, 2.f, 3.f, 4.f, 5.f, 6.f});
  ASSERT_TRUE(result.ok());
  EXPECT_FALSE(result->SharesBufferWith(x))
      << "the result must have its own buffer";
  ExpectTensor(ReduceMeanOverAxes(Tensor(5.f), {}, false), {}, {5.f});
}

TEST(ReduceMeanOverAxesTest, MeanOfNoElementsIsNaN) {
  const Tensor empty(DT_FLOAT, TensorShape({2, 0}));
  const float nan = std::nanf("");
  ExpectTensor(ReduceMeanOverAxes(empty, {1}, false), {2}, {nan, nan});
  ExpectTensor(ReduceMeanOverAxes(empty, {0}, false), {0}, {});
}

TEST(ReduceMeanOverAxesTest, LeavesTheInputUnchanged) {
  Tensor x = Matrix23();
  ASSERT_TRUE(ReduceMeanOverAxes(x, {0}, false).ok());
  EXPECT_EQ(x.ToVector<float>(), Matrix23().ToVector<float>());
}

TEST(ReduceMeanOverAxesTest, AxisOutOfRangeIsInvalidArgument) {
  ExpectInvalid(ReduceMeanOverAxes(Matrix23(), {2}, false),
                "Invalid reduction dimension (2 for input with 2 dimension(s)");
  ExpectInvalid(
      ReduceMeanOverAxes(Matrix23(), {0, -3}, false),
      "Invalid reduction dimension (-3 for input with 2 dimension(s)");
  ExpectInvalid(ReduceMeanOverAxes(Tensor(1.f), {0}, false),
                "Invalid reduction dimension (0 for input with 0 dimension(s)");
}

TEST(ReduceMeanOverAxesTest, DuplicateAxisIsInvalidArgument) {
  ExpectInvalid(
      ReduceMeanOverAxes(Matrix23(), {1, -1}, false),
      "Invalid reduction arguments: Axes contains duplicate dimension: 1");
  ExpectInvalid(
      ReduceMeanOverAxes(Matrix23(), {0, 0}, false),
      "Invalid reduction arguments: Axes contains duplicate dimension: 0");
}

TEST(ReduceMeanOverAxesTest, NonFloatTensorIsInvalidArgument) {
  ExpectInvalid(ReduceMeanOverAxes(Tensor({1, 2, 3}), {0}, false),
                "ReduceMeanOverAxes needs a float tensor, got int32");
  ExpectInvalid(ReduceMeanOverAxes(Tensor({1.0, 2.0}), {0}, false),
                "ReduceMeanOverAxes needs a float tensor, got double");
}

}  // namespace
}  // namespace minitf::exercises
