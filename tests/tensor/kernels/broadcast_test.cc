#include "minitf/tensor/kernels/broadcast.h"

#include <gtest/gtest.h>

#include <vector>

namespace minitf::kernels {
namespace {

using Dims = std::vector<int64_t>;

// The broadcast of x and y, which must succeed.
TensorShape Broadcast(const TensorShape& x, const TensorShape& y) {
  StatusOr<TensorShape> s = BroadcastShapes(x, y);
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *s : TensorShape::UnknownRank();
}

void ExpectIncompatible(const TensorShape& x, const TensorShape& y,
                        const std::string& message) {
  StatusOr<TensorShape> s = BroadcastShapes(x, y);
  ASSERT_FALSE(s.ok()) << "broadcast " << x << " with " << y << " gave " << *s;
  EXPECT_EQ(s.status().code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(s.status().message(), message);
}

TEST(BroadcastShapesTest, EqualShapesAreTheirOwnBroadcast) {
  EXPECT_EQ(Broadcast({2, 3}, {2, 3}), TensorShape({2, 3}));
  EXPECT_EQ(Broadcast({}, {}), TensorShape({}));
}

TEST(BroadcastShapesTest, ShorterShapeIsAlignedOnTheRight) {
  EXPECT_EQ(Broadcast({2, 3}, {3}), TensorShape({2, 3}));
  EXPECT_EQ(Broadcast({3}, {2, 3}), TensorShape({2, 3}));
  EXPECT_EQ(Broadcast({5, 4, 3}, {4, 3}), TensorShape({5, 4, 3}));
}

TEST(BroadcastShapesTest, SizeOneStretchesOnEitherSide) {
  EXPECT_EQ(Broadcast({4, 1}, {1, 5}), TensorShape({4, 5}));
  EXPECT_EQ(Broadcast({2, 1, 3}, {4, 1}), TensorShape({2, 4, 3}));
  EXPECT_EQ(Broadcast({1}, {7}), TensorShape({7}));
  EXPECT_EQ(Broadcast({1, 1}, {3}), TensorShape({1, 3}));
}

TEST(BroadcastShapesTest, ScalarBroadcastsToAnything) {
  EXPECT_EQ(Broadcast({}, {2, 3}), TensorShape({2, 3}));
  EXPECT_EQ(Broadcast({2, 3}, {}), TensorShape({2, 3}));
  EXPECT_EQ(Broadcast({}, {0}), TensorShape({0}));
}

TEST(BroadcastShapesTest, ZeroMatchesZeroOrOneAsInNumPy) {
  EXPECT_EQ(Broadcast({0}, {1}), TensorShape({0}));
  EXPECT_EQ(Broadcast({1}, {0}), TensorShape({0}));
  EXPECT_EQ(Broadcast({0, 3}, {3}), TensorShape({0, 3}));
  EXPECT_EQ(Broadcast({2, 0}, {2, 1}), TensorShape({2, 0}));
  ExpectIncompatible({0}, {3}, "Incompatible shapes: [0] vs. [3]");
}

TEST(BroadcastShapesTest, MismatchedSizesAreIncompatible) {
  ExpectIncompatible({2, 3}, {2}, "Incompatible shapes: [2,3] vs. [2]");
  ExpectIncompatible({2}, {2, 3}, "Incompatible shapes: [2] vs. [2,3]");
  ExpectIncompatible({4, 2, 3}, {5, 1, 3},
                     "Incompatible shapes: [4,2,3] vs. [5,1,3]");
}

TEST(BroadcastShapesTest, PartiallyKnownShapesAreRejected) {
  ExpectIncompatible(
      {None, 3}, {3},
      "Cannot broadcast shapes that are not fully defined: [?,3] vs. [3]");
  ExpectIncompatible(
      {3}, TensorShape::UnknownRank(),
      "Cannot broadcast shapes that are not fully defined: [3] vs. <unknown>");
}

// The plan for x and y, broadcast to their common shape.
BroadcastPlan Plan(const TensorShape& x, const TensorShape& y) {
  return BroadcastPlan(x, y, Broadcast(x, y));
}

TEST(BroadcastPlanTest, SameShapesMergeIntoOneFlatLoop) {
  BroadcastPlan p = Plan({100, 200}, {100, 200});
  EXPECT_EQ(p.dims, Dims({20000}));
  EXPECT_EQ(p.x_strides, Dims({1}));
  EXPECT_EQ(p.y_strides, Dims({1}));
}

TEST(BroadcastPlanTest, RowVectorRepeatsAlongTheOuterLoop) {
  BroadcastPlan p = Plan({64, 10}, {10});
  EXPECT_EQ(p.dims, Dims({64, 10}));
  EXPECT_EQ(p.x_strides, Dims({10, 1}));
  EXPECT_EQ(p.y_strides, Dims({0, 1}));
}

TEST(BroadcastPlanTest, ColumnTimesRowAlternatesRepeats) {
  BroadcastPlan p = Plan({2, 1}, {1, 3});
  EXPECT_EQ(p.dims, Dims({2, 3}));
  EXPECT_EQ(p.x_strides, Dims({1, 0}));
  EXPECT_EQ(p.y_strides, Dims({0, 1}));
}

TEST(BroadcastPlanTest, ScalarRepeatsOverOneFlatLoop) {
  BroadcastPlan p = Plan({}, {2, 3});
  EXPECT_EQ(p.dims, Dims({6}));
  EXPECT_EQ(p.x_strides, Dims({0}));
  EXPECT_EQ(p.y_strides, Dims({1}));
}

TEST(BroadcastPlanTest, OneElementOutputIsOneLoopOfOne) {
  for (const auto& [x, y] : std::vector<std::pair<TensorShape, TensorShape>>{
           {{}, {}}, {{1}, {}}, {{1, 1}, {1}}}) {
    BroadcastPlan p = Plan(x, y);
    EXPECT_EQ(p.dims, Dims({1})) << x << " with " << y;
    EXPECT_EQ(p.x_strides, Dims({1}));
    EXPECT_EQ(p.y_strides, Dims({1}));
  }
}

TEST(BroadcastPlanTest, SizeOneDimensionsAreDropped) {
  BroadcastPlan p = Plan({1, 3, 1}, {3, 1});
  EXPECT_EQ(p.dims, Dims({3}));
  EXPECT_EQ(p.x_strides, Dims({1}));
  EXPECT_EQ(p.y_strides, Dims({1}));
}

TEST(BroadcastPlanTest, AdjacentDimensionsThatRepeatAlikeMerge) {
  // x:[5,1,1,4] y:[5,3,2,4]: x repeats along the middle two, which merge to 6.
  BroadcastPlan p = Plan({5, 1, 1, 4}, {5, 3, 2, 4});
  EXPECT_EQ(p.dims, Dims({5, 6, 4}));
  EXPECT_EQ(p.x_strides, Dims({4, 0, 1}));
  EXPECT_EQ(p.y_strides, Dims({24, 4, 1}));
}

TEST(BroadcastPlanTest, EveryDimensionBroadcastingDifferentlyStaysApart) {
  // x:[2,1,3] y:[4,1] -> [2,4,3]: the inputs alternate, so nothing merges.
  BroadcastPlan p = Plan({2, 1, 3}, {4, 1});
  EXPECT_EQ(p.dims, Dims({2, 4, 3}));
  EXPECT_EQ(p.x_strides, Dims({3, 0, 1}));
  EXPECT_EQ(p.y_strides, Dims({0, 1, 0}));
}

TEST(BroadcastPlanTest, EmptyOutputHasNoElementsToVisit) {
  BroadcastPlan p = Plan({0, 3}, {3});
  EXPECT_EQ(p.dims, Dims({0, 3}));
  EXPECT_EQ(p.x_strides, Dims({3, 1}));
  EXPECT_EQ(p.y_strides, Dims({0, 1}));
}

}  // namespace
}  // namespace minitf::kernels
