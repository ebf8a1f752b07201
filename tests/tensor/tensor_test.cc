#include "minitf/tensor/tensor.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace minitf {
namespace {

// --- Construction from nested lists -----------------------------------------

// --8<-- [start:nested_lists]
TEST(TensorTest, NestedListsGiveTheShapeAndTheElementTypeGivesTheDtype) {
  const Tensor v({1, 2, 3});
  EXPECT_EQ(v.dtype(), DT_INT32);
  EXPECT_EQ(v.shape(), TensorShape({3}));

  const Tensor m({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
  EXPECT_EQ(m.dtype(), DT_FLOAT);
  EXPECT_EQ(m.shape(), TensorShape({2, 3}));
  EXPECT_EQ(m.ToVector<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));

  EXPECT_EQ(Tensor({1L}).dtype(), DT_INT64);
  EXPECT_EQ(Tensor({1.0}).dtype(), DT_DOUBLE);
  EXPECT_EQ(Tensor({true}).dtype(), DT_BOOL);
}
// --8<-- [end:nested_lists]

TEST(TensorTest, ThreeAndFourLevelsOfNestingAreRowMajor) {
  const Tensor t3({{{1, 2}}, {{3, 4}}});
  EXPECT_EQ(t3.shape(), TensorShape({2, 1, 2}));
  EXPECT_EQ(t3.ToVector<int32_t>(), (std::vector<int32_t>{1, 2, 3, 4}));
  const Tensor t4({{{{1.0, 2.0}, {3.0, 4.0}}}, {{{5.0, 6.0}, {7.0, 8.0}}}});
  EXPECT_EQ(t4.shape(), TensorShape({2, 1, 2, 2}));
  EXPECT_EQ(t4.dims(), 4);
  EXPECT_EQ(t4.ToVector<double>(),
            (std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8}));
}

TEST(TensorTest, OneElementListIsAVectorNotAScalar) {
  const Tensor t({7});
  EXPECT_EQ(t.shape(), TensorShape({1}));
  EXPECT_EQ(Tensor({{7}}).shape(), TensorShape({1, 1}));
}

TEST(TensorTest, EmptyListsMakeZeroElementTensors) {
  const Tensor v(std::initializer_list<float>{});
  EXPECT_EQ(v.shape(), TensorShape({0}));
  EXPECT_EQ(v.NumElements(), 0);
  const Tensor m(std::initializer_list<std::initializer_list<float>>{{}, {}});
  EXPECT_EQ(m.shape(), TensorShape({2, 0}));
}

TEST(TensorTest, RaggedRowsThrowInvalidArgument) {
  try {
    Tensor({{1, 2}, {3}});
    FAIL() << "expected InvalidArgumentError";
  } catch (const errors::InvalidArgumentError& e) {
    EXPECT_EQ(e.code(), error::INVALID_ARGUMENT);
    EXPECT_EQ(e.message(),
              "Can't convert a non-rectangular nested list to a Tensor: a list "
              "at depth 1 has 1 elements where the first has 2");
  }
}

TEST(TensorTest, RaggedRowsAreFoundAtEveryDepth) {
  try {
    Tensor({{{1.f, 2.f}}, {{3.f}}});
    FAIL() << "expected InvalidArgumentError";
  } catch (const errors::InvalidArgumentError& e) {
    EXPECT_EQ(e.message(),
              "Can't convert a non-rectangular nested list to a Tensor: a list "
              "at depth 2 has 1 elements where the first has 2");
  }
  EXPECT_THROW(Tensor({{{1}}, {{2}, {3}}}), errors::InvalidArgumentError);
  EXPECT_THROW(Tensor({{1.0}, {}}), errors::InvalidArgumentError);
}

// --- Scalars -----------------------------------------------------------------

TEST(TensorTest, ScalarsHaveRankZeroAndOneElement) {
  const Tensor s(3.f);
  EXPECT_EQ(s.dtype(), DT_FLOAT);
  EXPECT_EQ(s.dims(), 0);
  EXPECT_EQ(s.shape(), TensorShape());
  EXPECT_EQ(s.NumElements(), 1);
  EXPECT_EQ(s.scalar<float>(), 3.f);
  EXPECT_EQ(Tensor(2).dtype(), DT_INT32);
  EXPECT_EQ(Tensor(int64_t{2}).dtype(), DT_INT64);
  EXPECT_EQ(Tensor(2.0).dtype(), DT_DOUBLE);
  EXPECT_EQ(Tensor(false).dtype(), DT_BOOL);
}

TEST(TensorTest, ScalarIsWritable) {
  Tensor s(1);
  s.scalar<int32_t>() = 42;
  EXPECT_EQ(s.ToVector<int32_t>(), (std::vector<int32_t>{42}));
}

// --- FromVector: tf.constant(value, shape=...) -------------------------------

// --8<-- [start:from_vector_rules]
TEST(TensorTest, FromVectorLaysOutAnExactCountInRowMajorOrder) {
  StatusOr<Tensor> t = Tensor::FromVector<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->shape(), TensorShape({2, 3}));
  EXPECT_EQ(t->matrix<float>()(1, 0), 4.f);
}

TEST(TensorTest, FromVectorFillsTheShapeWithASingleValue) {
  StatusOr<Tensor> t = Tensor::FromVector<int32_t>({7}, {2, 2});
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->ToVector<int32_t>(), (std::vector<int32_t>{7, 7, 7, 7}));
}

TEST(TensorTest, FromVectorRejectsTooManyValues) {
  StatusOr<Tensor> t = Tensor::FromVector<float>({1, 2, 3, 4, 5, 6, 7}, {2, 3});
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(t.status().message(),
            "Too many elements provided. Needed at most 6, but received 7");
}

TEST(TensorTest, FromVectorRejectsTooFewValues) {
  StatusOr<Tensor> t = Tensor::FromVector<float>({1, 2, 3, 4}, {2, 3});
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(t.status().message(),
            "Too few elements provided for shape [2,3]. Needed 6 (or a single "
            "value to fill it), but received 4");
}
// --8<-- [end:from_vector_rules]

TEST(TensorTest, FromVectorHandlesEmptyShapesAndScalars) {
  StatusOr<Tensor> empty = Tensor::FromVector<float>({}, {0, 3});
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(empty->NumElements(), 0);
  StatusOr<Tensor> filled_empty = Tensor::FromVector<float>({5}, {0});
  ASSERT_TRUE(filled_empty.ok()) << filled_empty.status();
  EXPECT_EQ(filled_empty->NumElements(), 0);
  StatusOr<Tensor> scalar = Tensor::FromVector<double>({2.5}, TensorShape());
  ASSERT_TRUE(scalar.ok()) << scalar.status();
  EXPECT_EQ(scalar->scalar<double>(), 2.5);
  StatusOr<Tensor> nothing = Tensor::FromVector<double>({}, TensorShape());
  EXPECT_FALSE(nothing.ok());
}

TEST(TensorTest, FromVectorWorksForBools) {
  StatusOr<Tensor> t = Tensor::FromVector<bool>({true, false}, {2});
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->ToVector<bool>(), (std::vector<bool>{true, false}));
}

TEST(TensorTest, FromVectorRejectsPartialAndNegativeShapes) {
  StatusOr<Tensor> partial = Tensor::FromVector<float>({1}, {None, 3});
  ASSERT_FALSE(partial.ok());
  EXPECT_EQ(partial.status().message(),
            "Cannot allocate a tensor of partially known shape [?,3]");
  StatusOr<Tensor> negative = Tensor::FromVector<float>({1}, {-2});
  ASSERT_FALSE(negative.ok());
  EXPECT_EQ(negative.status().message(),
            "Dimension -2 must be >= 0 (dimension 0 of shape [-2])");
}

// --- Sharing, DeepCopy, Reshaped
// ----------------------------------------------

// --8<-- [start:sharing]
TEST(TensorTest, CopiesShareTheBufferAndDeepCopiesDoNot) {
  Tensor a({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
  const Tensor b = a;
  const Tensor c = a.DeepCopy();
  EXPECT_TRUE(b.SharesBufferWith(a));
  EXPECT_FALSE(c.SharesBufferWith(a));
  a.flat<float>()(0) = 10.f;
  EXPECT_EQ(b.flat<float>()(0), 10.f);
  EXPECT_EQ(c.flat<float>()(0), 1.f);
  EXPECT_EQ(c.shape(), a.shape());
  EXPECT_EQ(c.dtype(), a.dtype());
}
// --8<-- [end:sharing]

TEST(TensorTest, DeepCopyOfAnUninitializedTensorIsUninitialized) {
  EXPECT_FALSE(Tensor().DeepCopy().IsInitialized());
}

TEST(TensorTest, ReshapedSharesTheBytesUnderANewShape) {
  Tensor a({1, 2, 3, 4, 5, 6});
  StatusOr<Tensor> m = a.Reshaped({3, 2});
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->shape(), TensorShape({3, 2}));
  EXPECT_EQ(a.shape(), TensorShape({6}));
  EXPECT_TRUE(m->SharesBufferWith(a));
  a.flat<int32_t>()(5) = 60;
  EXPECT_EQ(m->matrix<int32_t>()(2, 1), 60);
  EXPECT_TRUE(Tensor(5).Reshaped({1, 1}).ok());
}

TEST(TensorTest, ReshapedRefusesAWrongElementCount) {
  const Tensor a({1, 2, 3, 4, 5, 6});
  StatusOr<Tensor> r = a.Reshaped({4});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(
      r.status().message(),
      "Cannot reshape a tensor with 6 elements to shape [4] (4 elements)");
  StatusOr<Tensor> partial = a.Reshaped({None, 2});
  ASSERT_FALSE(partial.ok());
  EXPECT_EQ(partial.status().message(),
            "Cannot reshape a tensor with 6 elements to shape [?,2] (-1 "
            "elements)");
}

TEST(TensorTest, ReshapedValidatesTheShapeBeforeCounting) {
  const Tensor empty(DT_FLOAT, {0});
  // 2^32 * 2^32 wraps to 0 in int64: it must not pass for an empty tensor.
  const int64_t big = int64_t{1} << 32;
  StatusOr<Tensor> r = empty.Reshaped({big, big});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "Shape [4294967296,4294967296] has too many elements");
  StatusOr<Tensor> negative = Tensor({1, 2}).Reshaped({-1, -2});
  ASSERT_FALSE(negative.ok());
  EXPECT_EQ(negative.status().message(),
            "Dimension -2 must be >= 0 (dimension 1 of shape [?,-2])");
}

TEST(TensorTest, ReshapingAnUninitializedTensorFails) {
  StatusOr<Tensor> r = Tensor().Reshaped({0});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), error::FAILED_PRECONDITION);
  EXPECT_EQ(r.status().message(),
            "Cannot reshape an uninitialized tensor to [0]");
}

// --- Allocate
// -----------------------------------------------------------------

TEST(TensorTest, AllocateMakesATensorOfTheRequestedShape) {
  StatusOr<Tensor> t = Tensor::Allocate(DT_DOUBLE, {2, 3});
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_TRUE(t->IsInitialized());
  EXPECT_EQ(t->dtype(), DT_DOUBLE);
  EXPECT_EQ(t->NumElements(), 6);
  EXPECT_EQ(t->TotalBytes(), 48u);
  EXPECT_EQ(t->allocator(), cpu_allocator());
}

TEST(TensorTest, AllocateRejectsAnInvalidDtype) {
  StatusOr<Tensor> t = Tensor::Allocate(DT_INVALID, {2});
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(t.status().message(),
            "Cannot allocate a tensor of invalid dtype 0");
  EXPECT_FALSE(Tensor::Allocate(static_cast<DType>(4), {2}).ok());
}

TEST(TensorTest, AllocateRejectsPartialShapes) {
  StatusOr<Tensor> t = Tensor::Allocate(DT_FLOAT, {None, 784});
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(t.status().message(),
            "Cannot allocate a tensor of partially known shape [?,784]");
  StatusOr<Tensor> unknown =
      Tensor::Allocate(DT_FLOAT, TensorShape::UnknownRank());
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(),
            "Cannot allocate a tensor of partially known shape <unknown>");
}

TEST(TensorTest, AllocateReportsANegativeDimensionAsSuch) {
  StatusOr<Tensor> t = Tensor::Allocate(DT_FLOAT, {3, -5});
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(t.status().message(),
            "Dimension -5 must be >= 0 (dimension 1 of shape [3,-5])");
}

TEST(TensorTest, AllocateRejectsSizesThatOverflow) {
  const int64_t big = int64_t{1} << 32;
  StatusOr<Tensor> elements = Tensor::Allocate(DT_FLOAT, {big, big});
  ASSERT_FALSE(elements.ok());
  EXPECT_EQ(elements.status().code(), error::INVALID_ARGUMENT);
  // 2^62 elements fit in int64, but not 2^62 * 4 bytes.
  StatusOr<Tensor> bytes = Tensor::Allocate(DT_FLOAT, {int64_t{1} << 62});
  ASSERT_FALSE(bytes.ok());
  EXPECT_EQ(bytes.status().code(), error::RESOURCE_EXHAUSTED);
  EXPECT_EQ(bytes.status().message(),
            "Tensor of shape [4611686018427387904] and type float does not fit "
            "in memory");
}

TEST(TensorTest, AllocateReportsOutOfMemory) {
  // 2^60 bytes: a valid size that no machine has.
  StatusOr<Tensor> t = Tensor::Allocate(DT_BOOL, {int64_t{1} << 60});
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), error::RESOURCE_EXHAUSTED);
  EXPECT_EQ(t.status().message(),
            "OOM when allocating tensor with shape[1152921504606846976] and "
            "type bool on cpu");
}

// --- Memory
// -------------------------------------------------------------------

TEST(TensorTest, DataIsAlignedToSixtyFourBytes) {
  for (int64_t n : {0, 1, 3, 17, 1000}) {
    const Tensor t(DT_FLOAT, {n});
    const auto address = reinterpret_cast<uintptr_t>(t.data<float>());
    EXPECT_EQ(address % 64, 0u) << n;
  }
  const Tensor b({true, false, true});
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b.data<bool>()) % 64, 0u);
}

TEST(TensorTest, ZeroElementTensorsAreInitializedAndEmpty) {
  const Tensor t(DT_INT32, {2, 0});
  EXPECT_TRUE(t.IsInitialized());
  EXPECT_EQ(t.NumElements(), 0);
  EXPECT_EQ(t.TotalBytes(), 0u);
  EXPECT_NE(t.data<int32_t>(), nullptr);
  EXPECT_EQ(t.flat<int32_t>().size(), 0);
  EXPECT_TRUE(t.ToVector<int32_t>().empty());
  StatusOr<Tensor> r = t.Reshaped({0, 7});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->shape(), TensorShape({0, 7}));
  EXPECT_EQ(t.DeepCopy().shape(), TensorShape({2, 0}));
}

TEST(TensorTest, DefaultTensorIsUninitialized) {
  const Tensor t;
  EXPECT_FALSE(t.IsInitialized());
  EXPECT_EQ(t.dtype(), DT_INVALID);
  EXPECT_EQ(t.NumElements(), 0);
  EXPECT_EQ(t.TotalBytes(), 0u);
  EXPECT_EQ(t.allocator(), nullptr);
  EXPECT_FALSE(t.SharesBufferWith(Tensor()));
}

TEST(TensorTest, EigenViewsReadAndWriteTheBuffer) {
  Tensor m({{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}});
  EXPECT_EQ(m.matrix<double>().rows(), 2);
  EXPECT_EQ(m.matrix<double>().cols(), 3);
  EXPECT_EQ(m.matrix<double>()(1, 2), 6.0);
  m.flat<double>() *= 2.0;
  EXPECT_EQ(m.ToVector<double>(), (std::vector<double>{2, 4, 6, 8, 10, 12}));
  EXPECT_EQ(m.TotalBytes(), 48u);
}

}  // namespace
}  // namespace minitf
