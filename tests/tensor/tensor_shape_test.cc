#include "minitf/tensor/tensor_shape.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <sstream>
#include <vector>

namespace minitf {
namespace {

TEST(TensorShapeTest, PrintsAsTensorFlowDoes) {
  EXPECT_EQ(TensorShape({2, 3}).DebugString(), "[2,3]");
  EXPECT_EQ(TensorShape({None, 784}).DebugString(), "[?,784]");
  EXPECT_EQ(TensorShape().DebugString(), "[]");
  EXPECT_EQ(TensorShape({0}).DebugString(), "[0]");
  EXPECT_EQ(TensorShape::UnknownRank().DebugString(), "<unknown>");
  std::ostringstream os;
  os << TensorShape({4, None});
  EXPECT_EQ(os.str(), "[4,?]");
}

TEST(TensorShapeTest, RankAndDimensions) {
  const TensorShape s({2, 3, 5});
  EXPECT_EQ(s.dims(), 3);
  EXPECT_EQ(s.dim_size(0), 2);
  EXPECT_EQ(s.dim_size(2), 5);
  EXPECT_EQ(s.dim_sizes(), (std::vector<int64_t>{2, 3, 5}));
  EXPECT_FALSE(s.unknown_rank());
  EXPECT_EQ(TensorShape().dims(), 0);
  EXPECT_EQ(TensorShape::UnknownRank().dims(), -1);
  EXPECT_TRUE(TensorShape::UnknownRank().unknown_rank());
}

TEST(TensorShapeTest, ConstructsFromVectorsAndSpans) {
  const std::vector<int64_t> dims = {4, 1};
  EXPECT_EQ(TensorShape(dims), TensorShape({4, 1}));
  EXPECT_EQ(TensorShape(std::span<const int64_t>(dims)), TensorShape({4, 1}));
}

TEST(TensorShapeTest, NumElementsIsTheProductOrMinusOne) {
  EXPECT_EQ(TensorShape({2, 3}).num_elements(), 6);
  EXPECT_EQ(TensorShape().num_elements(), 1);  // A scalar holds one value.
  EXPECT_EQ(TensorShape({3, 0, 4}).num_elements(), 0);
  EXPECT_EQ(TensorShape({None, 784}).num_elements(), -1);
  EXPECT_EQ(TensorShape::UnknownRank().num_elements(), -1);
}

TEST(TensorShapeTest, FullyDefinedMeansRankAndEveryDimensionKnown) {
  EXPECT_TRUE(TensorShape({2, 3}).IsFullyDefined());
  EXPECT_TRUE(TensorShape().IsFullyDefined());
  EXPECT_TRUE(TensorShape({0}).IsFullyDefined());
  EXPECT_FALSE(TensorShape({2, None}).IsFullyDefined());
  EXPECT_FALSE(TensorShape::UnknownRank().IsFullyDefined());
}

TEST(TensorShapeTest, AddDimAndSetDimEditInPlace) {
  TensorShape s;
  s.AddDim(None);
  s.AddDim(10);
  EXPECT_EQ(s.DebugString(), "[?,10]");
  s.set_dim(0, 32);
  EXPECT_EQ(s, TensorShape({32, 10}));
}

TEST(TensorShapeTest, EqualityDistinguishesUnknownRankFromScalar) {
  EXPECT_EQ(TensorShape({2, 3}), TensorShape({2, 3}));
  EXPECT_NE(TensorShape({2, 3}), TensorShape({3, 2}));
  EXPECT_NE(TensorShape(), TensorShape::UnknownRank());
  EXPECT_EQ(TensorShape::UnknownRank(), TensorShape::UnknownRank());
}

TEST(TensorShapeTest, CompatibilityTreatsNoneAsAWildcard) {
  const TensorShape batch({None, 784});
  EXPECT_TRUE(batch.IsCompatibleWith(TensorShape({100, 784})));
  EXPECT_TRUE(TensorShape({100, 784}).IsCompatibleWith(batch));
  EXPECT_TRUE(batch.IsCompatibleWith(TensorShape({None, None})));
  EXPECT_FALSE(batch.IsCompatibleWith(TensorShape({100, 10})));
  EXPECT_FALSE(batch.IsCompatibleWith(TensorShape({784})));  // Rank differs.
  EXPECT_TRUE(TensorShape().IsCompatibleWith(TensorShape()));
  EXPECT_FALSE(TensorShape().IsCompatibleWith(TensorShape({1})));
}

TEST(TensorShapeTest, UnknownRankIsCompatibleWithEverything) {
  const TensorShape unknown = TensorShape::UnknownRank();
  EXPECT_TRUE(unknown.IsCompatibleWith(TensorShape({2, 3})));
  EXPECT_TRUE(TensorShape().IsCompatibleWith(unknown));
  EXPECT_TRUE(unknown.IsCompatibleWith(unknown));
}

TEST(TensorShapeTest, FromDimsAcceptsValidSizes) {
  const std::vector<int64_t> dims = {2, 0, 3};
  StatusOr<TensorShape> s = TensorShape::FromDims(dims, false);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(*s, TensorShape({2, 0, 3}));
  const std::vector<int64_t> batch = {None, 784};
  StatusOr<TensorShape> partial = TensorShape::FromDims(batch, true);
  ASSERT_TRUE(partial.ok()) << partial.status();
  EXPECT_EQ(partial->DebugString(), "[?,784]");
}

TEST(TensorShapeTest, FromDimsRejectsNegativeSizes) {
  const std::vector<int64_t> dims = {2, -5};
  StatusOr<TensorShape> s = TensorShape::FromDims(dims, true);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(s.status().message(),
            "Dimension -5 must be >= 0 (dimension 1 of shape [2,-5])");
}

TEST(TensorShapeTest, FromDimsRejectsNoneUnlessAllowed) {
  const std::vector<int64_t> dims = {None, 3};
  StatusOr<TensorShape> s = TensorShape::FromDims(dims, false);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(s.status().message(),
            "Dimension -1 must be >= 0 (dimension 0 of shape [?,3])");
}

TEST(TensorShapeTest, FromDimsRejectsElementCountsBeyondInt64) {
  const int64_t big = int64_t{1} << 32;
  const std::vector<int64_t> dims = {big, big};
  StatusOr<TensorShape> s = TensorShape::FromDims(dims, false);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(s.status().message(),
            "Shape [4294967296,4294967296] has too many elements");
  // The largest count that fits is fine, and so is a zero after huge sizes.
  const std::vector<int64_t> max = {std::numeric_limits<int64_t>::max(), 1};
  EXPECT_TRUE(TensorShape::FromDims(max, false).ok());
  const std::vector<int64_t> empty = {0, big, big};
  EXPECT_TRUE(TensorShape::FromDims(empty, false).ok());
}

}  // namespace
}  // namespace minitf
