// Tests of exercise 01_broadcast_shape. Every test fails on the starter,
// which returns Unimplemented, and passes on a correct BroadcastShape.
#include "broadcast_shape.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace minitf::exercises {
namespace {

// Expects BroadcastShape(a, b) to succeed with `expected`.
void ExpectBroadcast(const TensorShape& a, const TensorShape& b,
                     const TensorShape& expected) {
  StatusOr<TensorShape> result = BroadcastShape(a, b);
  ASSERT_TRUE(result.ok()) << "BroadcastShape(" << a << ", " << b
                           << ") returned an error: " << result.status();
  EXPECT_EQ(*result, expected) << "BroadcastShape(" << a << ", " << b << ")";
}

// Expects BroadcastShape(a, b) to fail with InvalidArgument and `message`.
void ExpectInvalid(const TensorShape& a, const TensorShape& b,
                   const std::string& message) {
  StatusOr<TensorShape> result = BroadcastShape(a, b);
  ASSERT_FALSE(result.ok()) << "BroadcastShape(" << a << ", " << b
                            << ") should fail, got " << *result;
  EXPECT_EQ(result.status().code(), error::INVALID_ARGUMENT) << result.status();
  EXPECT_EQ(result.status().message(), message);
}

TEST(BroadcastShapeTest, EqualShapesGiveTheSameShape) {
  ExpectBroadcast({2, 3}, {2, 3}, {2, 3});
  ExpectBroadcast({7}, {7}, {7});
  ExpectBroadcast({}, {}, {});
}

TEST(BroadcastShapeTest, ScalarBroadcastsAgainstAnyShape) {
  ExpectBroadcast({}, {2, 3}, {2, 3});
  ExpectBroadcast({4}, {}, {4});
}

TEST(BroadcastShapeTest, MissingLeadingDimensionsCountAsOne) {
  ExpectBroadcast({2, 3}, {3}, {2, 3});
  ExpectBroadcast({3}, {2, 3}, {2, 3});
  ExpectBroadcast({5, 4, 3}, {4, 3}, {5, 4, 3});
}

TEST(BroadcastShapeTest, SizeOneDimensionsStretchOnEitherSide) {
  ExpectBroadcast({4, 1}, {1, 5}, {4, 5});
  ExpectBroadcast({2, 1, 3}, {4, 1}, {2, 4, 3});
  ExpectBroadcast({1}, {7}, {7});
  ExpectBroadcast({1, 1}, {1}, {1, 1});
}

TEST(BroadcastShapeTest, ZeroSizedDimensionBroadcastsAgainstOne) {
  ExpectBroadcast({0, 3}, {1, 3}, {0, 3});
  ExpectBroadcast({1}, {0}, {0});
  ExpectBroadcast({0}, {}, {0});
}

TEST(BroadcastShapeTest, OrderOfOperandsDoesNotChangeTheShape) {
  const std::vector<std::pair<TensorShape, TensorShape>> pairs = {
      {{2, 3}, {3}}, {{4, 1}, {1, 5}}, {{2, 1, 3}, {4, 1}}, {{1}, {0}}};
  for (const auto& [a, b] : pairs) {
    StatusOr<TensorShape> ab = BroadcastShape(a, b);
    StatusOr<TensorShape> ba = BroadcastShape(b, a);
    ASSERT_TRUE(ab.ok() && ba.ok())
        << a << " and " << b << ": " << ab.status() << ", " << ba.status();
    EXPECT_EQ(*ab, *ba) << a << " and " << b;
  }
}

TEST(BroadcastShapeTest, IncompatibleShapesAreInvalidArgument) {
  ExpectInvalid({2, 3}, {2}, "Incompatible shapes: [2,3] vs. [2]");
  ExpectInvalid({2}, {2, 3}, "Incompatible shapes: [2] vs. [2,3]");
  ExpectInvalid({3, 1}, {1, 4, 2}, "Incompatible shapes: [3,1] vs. [1,4,2]");
  ExpectInvalid({0}, {2}, "Incompatible shapes: [0] vs. [2]");
}

TEST(BroadcastShapeTest, PartiallyKnownShapesAreInvalidArgument) {
  ExpectInvalid({None, 3}, {3},
                "BroadcastShape needs fully defined shapes, got [?,3] and [3]");
  ExpectInvalid(
      {2}, TensorShape::UnknownRank(),
      "BroadcastShape needs fully defined shapes, got [2] and <unknown>");
}

}  // namespace
}  // namespace minitf::exercises
