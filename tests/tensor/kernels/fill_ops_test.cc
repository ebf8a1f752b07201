#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "minitf/tensor/kernels/array_ops.h"
#include "minitf/tensor/kernels/checks.h"

namespace minitf::kernels {
namespace {

using ::testing::Each;
using ::testing::ElementsAre;

void ExpectInvalidArgument(const StatusOr<Tensor>& result,
                           const std::string& message) {
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(result.status().message(), message);
}

TEST(FillTest, RepeatsAScalar) {
  StatusOr<Tensor> r = Fill({2, 3}, Tensor(int64_t{9}));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->dtype(), DT_INT64);
  EXPECT_EQ(r->shape(), TensorShape({2, 3}));
  EXPECT_THAT(r->ToVector<int64_t>(), Each(9));
  StatusOr<Tensor> scalar = Fill({}, Tensor(2.5));
  ASSERT_TRUE(scalar.ok());
  EXPECT_EQ(scalar->scalar<double>(), 2.5);
  StatusOr<Tensor> empty = Fill({0, 4}, Tensor(true));
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->shape(), TensorShape({0, 4}));
}

TEST(FillTest, Errors) {
  ExpectInvalidArgument(Fill({2}, Tensor({1.f, 2.f})),
                        "value must be a scalar, got shape [2]");
  ExpectInvalidArgument(
      Fill({2, -1}, Tensor(1.f)),
      "Dimension -1 must be >= 0 (dimension 1 of shape [2,?])");
  ExpectInvalidArgument(Fill({2}, Tensor()),
                        "Fill got an uninitialized tensor as its value");
}

// The graph's Fill kernels (CPU and GPU) check its inputs in TensorFlow's
// words before they read dims.
TEST(FillTest, ChecksTheGraphsInputs) {
  EXPECT_TRUE(CheckFillInputs(Tensor({2, 3}), Tensor(1.f)).ok());
  const Status not_vector = CheckFillInputs(Tensor(2), Tensor(1.f));
  EXPECT_EQ(not_vector.code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(not_vector.message(), "dims must be a vector, got shape []");
  EXPECT_EQ(CheckFillInputs(Tensor({2}), Tensor({1.f, 2.f})).message(),
            "value must be a scalar, got shape [2]");
}

TEST(ZerosTest, ZerosAndOnesOfEveryDType) {
  StatusOr<Tensor> z = Zeros({2, 2}, DT_FLOAT);
  ASSERT_TRUE(z.ok());
  EXPECT_THAT(z->ToVector<float>(), ElementsAre(0, 0, 0, 0));
  StatusOr<Tensor> o = Ones({3}, DT_INT32);
  ASSERT_TRUE(o.ok());
  EXPECT_THAT(o->ToVector<int32_t>(), ElementsAre(1, 1, 1));
  StatusOr<Tensor> ob = Ones({2}, DT_BOOL);
  ASSERT_TRUE(ob.ok());
  EXPECT_THAT(ob->ToVector<bool>(), ElementsAre(true, true));
  StatusOr<Tensor> zb = Zeros({1}, DT_BOOL);
  ASSERT_TRUE(zb.ok());
  EXPECT_THAT(zb->ToVector<bool>(), ElementsAre(false));
  StatusOr<Tensor> od = Ones({}, DT_DOUBLE);
  ASSERT_TRUE(od.ok());
  EXPECT_EQ(od->scalar<double>(), 1.0);
  StatusOr<Tensor> zi = Zeros({0}, DT_INT64);
  ASSERT_TRUE(zi.ok());
  EXPECT_EQ(zi->NumElements(), 0);
}

TEST(ZerosTest, Errors) {
  ExpectInvalidArgument(
      Zeros({-2}, DT_FLOAT),
      "Dimension -2 must be >= 0 (dimension 0 of shape [-2])");
  ExpectInvalidArgument(Ones({2}, DT_INVALID),
                        "Cannot allocate a tensor of invalid dtype 0");
}

TEST(ZerosLikeTest, KeepsShapeAndDType) {
  Tensor x({{1.5, 2.5}, {3.5, 4.5}});
  StatusOr<Tensor> z = ZerosLike(x);
  ASSERT_TRUE(z.ok());
  EXPECT_EQ(z->dtype(), DT_DOUBLE);
  EXPECT_EQ(z->shape(), TensorShape({2, 2}));
  EXPECT_THAT(z->ToVector<double>(), Each(0.0));
  StatusOr<Tensor> o = OnesLike(Tensor({false, false}));
  ASSERT_TRUE(o.ok());
  EXPECT_THAT(o->ToVector<bool>(), ElementsAre(true, true));
  ExpectInvalidArgument(ZerosLike(Tensor()),
                        "ZerosLike got an uninitialized tensor as its input");
  ExpectInvalidArgument(OnesLike(Tensor()),
                        "OnesLike got an uninitialized tensor as its input");
}

TEST(OneHotTest, LabelsToRows) {
  StatusOr<Tensor> r = OneHot(Tensor({0, 2, 1}), 3, 1.f, 0.f, -1);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->dtype(), DT_FLOAT);
  EXPECT_EQ(r->shape(), TensorShape({3, 3}));
  EXPECT_THAT(r->ToVector<float>(), ElementsAre(1, 0, 0, 0, 0, 1, 0, 1, 0));
}

TEST(OneHotTest, OutOfRangeIndicesGiveOffValueRows) {
  StatusOr<Tensor> r =
      OneHot(Tensor({int64_t{-1}, int64_t{3}, int64_t{1}}), 3, 5.f, -1.f, -1);
  ASSERT_TRUE(r.ok());
  EXPECT_THAT(r->ToVector<float>(),
              ElementsAre(-1, -1, -1, -1, -1, -1, -1, 5, -1));
}

TEST(OneHotTest, AxisZeroPutsDepthFirst) {
  // indices [0, 2] with axis 0: out[d, i] = (indices[i] == d).
  StatusOr<Tensor> r = OneHot(Tensor({0, 2}), 3, 1.f, 0.f, 0);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->shape(), TensorShape({3, 2}));
  EXPECT_THAT(r->ToVector<float>(), ElementsAre(1, 0, 0, 0, 0, 1));
}

TEST(OneHotTest, MiddleAxisOfAMatrixOfIndices) {
  // indices:[2,2] with axis 1 -> [2,depth,2].
  StatusOr<Tensor> r = OneHot(Tensor({{0, 1}, {1, 1}}), 2, 1.f, 0.f, 1);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->shape(), TensorShape({2, 2, 2}));
  EXPECT_THAT(r->ToVector<float>(), ElementsAre(1, 0, 0, 1, 0, 0, 1, 1));
  StatusOr<Tensor> last = OneHot(Tensor({{0, 1}, {1, 1}}), 2, 1.f, 0.f, 2);
  ASSERT_TRUE(last.ok());
  EXPECT_EQ(last->shape(), TensorShape({2, 2, 2}));
  EXPECT_THAT(last->ToVector<float>(), ElementsAre(1, 0, 0, 1, 0, 1, 0, 1));
}

TEST(OneHotTest, ScalarEmptyAndZeroDepth) {
  StatusOr<Tensor> scalar = OneHot(Tensor(1), 2, 1.f, 0.f, -1);
  ASSERT_TRUE(scalar.ok());
  EXPECT_EQ(scalar->shape(), TensorShape({2}));
  EXPECT_THAT(scalar->ToVector<float>(), ElementsAre(0, 1));
  StatusOr<Tensor> empty =
      OneHot(Tensor(DT_INT32, TensorShape({0})), 4, 1.f, 0.f, -1);
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->shape(), TensorShape({0, 4}));
  StatusOr<Tensor> zero_depth = OneHot(Tensor({0, 1}), 0, 1.f, 0.f, -1);
  ASSERT_TRUE(zero_depth.ok());
  EXPECT_EQ(zero_depth->shape(), TensorShape({2, 0}));
}

TEST(OneHotTest, Errors) {
  ExpectInvalidArgument(OneHot(Tensor({0}), -1, 1.f, 0.f, -1),
                        "depth must be non-negative, got: -1");
  ExpectInvalidArgument(
      OneHot(Tensor({0}), 3, 1.f, 0.f, 2),
      "Expected axis to be -1 or between [0, 2).  But received: 2");
  ExpectInvalidArgument(
      OneHot(Tensor({0}), 3, 1.f, 0.f, -2),
      "Expected axis to be -1 or between [0, 2).  But received: -2");
  ExpectInvalidArgument(OneHot(Tensor({0.f}), 3, 1.f, 0.f, -1),
                        "OneHot has no kernel for indices of dtype float");
}

}  // namespace
}  // namespace minitf::kernels
