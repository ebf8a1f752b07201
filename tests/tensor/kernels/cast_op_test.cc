#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "minitf/tensor/kernels/array_ops.h"

namespace minitf::kernels {
namespace {

using ::testing::ElementsAre;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr int32_t kInt32Max = std::numeric_limits<int32_t>::max();
constexpr int32_t kInt32Min = std::numeric_limits<int32_t>::min();
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();

TEST(CastTest, FloatToIntTruncatesTowardZero) {
  StatusOr<Tensor> r = Cast(Tensor({1.7f, -1.7f, 0.5f, -0.5f, 3.f}), DT_INT32);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->dtype(), DT_INT32);
  EXPECT_THAT(r->ToVector<int32_t>(), ElementsAre(1, -1, 0, 0, 3));
}

TEST(CastTest, FloatToIntSaturatesAndNaNBecomesZero) {
  Tensor x({kNaN, kInf, -kInf, 3e9f, -3e9f, 2147483648.f, -2147483648.f});
  StatusOr<Tensor> r = Cast(x, DT_INT32);
  ASSERT_TRUE(r.ok());
  EXPECT_THAT(r->ToVector<int32_t>(),
              ElementsAre(0, kInt32Max, kInt32Min, kInt32Max, kInt32Min,
                          kInt32Max, kInt32Min));
  StatusOr<Tensor> r64 =
      Cast(Tensor({std::nan(""), 1e19, -1e19, 9.2233720368547758e18, -2.5}),
           DT_INT64);
  ASSERT_TRUE(r64.ok());
  EXPECT_THAT(r64->ToVector<int64_t>(),
              ElementsAre(0, kInt64Max, kInt64Min, kInt64Max, -2));
}

TEST(CastTest, DoubleToInt32NearTheLimits) {
  StatusOr<Tensor> r =
      Cast(Tensor({2147483646.9, 2147483647.5, -2147483648.9}), DT_INT32);
  ASSERT_TRUE(r.ok());
  EXPECT_THAT(r->ToVector<int32_t>(),
              ElementsAre(2147483646, kInt32Max, kInt32Min));
}

TEST(CastTest, IntToFloatAndBack) {
  StatusOr<Tensor> f = Cast(Tensor({1, -2, 16777217}), DT_FLOAT);
  ASSERT_TRUE(f.ok());
  // 2^24 + 1 has no float; it rounds to the nearest even, 2^24.
  EXPECT_THAT(f->ToVector<float>(), ElementsAre(1.f, -2.f, 16777216.f));
  StatusOr<Tensor> d = Cast(Tensor({int64_t{1} << 53}), DT_DOUBLE);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->ToVector<double>()[0], 9007199254740992.0);
}

TEST(CastTest, Int64ToInt32Wraps) {
  StatusOr<Tensor> r = Cast(
      Tensor({int64_t{1} << 32, (int64_t{1} << 31), int64_t{-1}}), DT_INT32);
  ASSERT_TRUE(r.ok());
  EXPECT_THAT(r->ToVector<int32_t>(), ElementsAre(0, kInt32Min, -1));
}

TEST(CastTest, ToAndFromBool) {
  StatusOr<Tensor> b = Cast(Tensor({0.f, -0.f, 2.5f, kNaN}), DT_BOOL);
  ASSERT_TRUE(b.ok());
  EXPECT_THAT(b->ToVector<bool>(), ElementsAre(false, false, true, true));
  StatusOr<Tensor> bi = Cast(Tensor({int64_t{0}, int64_t{-3}}), DT_BOOL);
  ASSERT_TRUE(bi.ok());
  EXPECT_THAT(bi->ToVector<bool>(), ElementsAre(false, true));
  StatusOr<Tensor> f = Cast(Tensor({true, false}), DT_DOUBLE);
  ASSERT_TRUE(f.ok());
  EXPECT_THAT(f->ToVector<double>(), ElementsAre(1.0, 0.0));
  StatusOr<Tensor> i = Cast(Tensor({true, false}), DT_INT32);
  ASSERT_TRUE(i.ok());
  EXPECT_THAT(i->ToVector<int32_t>(), ElementsAre(1, 0));
}

TEST(CastTest, DoubleToFloatRoundsAndOverflowsToInfinity) {
  StatusOr<Tensor> r = Cast(Tensor({0.1, 1e300, -1e300}), DT_FLOAT);
  ASSERT_TRUE(r.ok());
  EXPECT_THAT(r->ToVector<float>(), ElementsAre(0.1f, kInf, -kInf));
}

TEST(CastTest, EveryPairOfDTypesKeepsTheShape) {
  const DType dtypes[] = {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_BOOL};
  for (DType from : dtypes) {
    StatusOr<Tensor> x = Cast(Tensor({{1, 0, 1}, {0, 1, 1}}), from);
    ASSERT_TRUE(x.ok());
    for (DType to : dtypes) {
      StatusOr<Tensor> r = Cast(*x, to);
      ASSERT_TRUE(r.ok()) << from << " -> " << to;
      EXPECT_EQ(r->dtype(), to);
      EXPECT_EQ(r->shape(), TensorShape({2, 3}));
      StatusOr<Tensor> back = Cast(*r, DT_INT32);
      ASSERT_TRUE(back.ok());
      EXPECT_THAT(back->ToVector<int32_t>(), ElementsAre(1, 0, 1, 0, 1, 1))
          << from << " -> " << to;
    }
  }
}

TEST(CastTest, SameDTypeSharesTheBuffer) {
  Tensor x({1.f, 2.f});
  StatusOr<Tensor> r = Cast(x, DT_FLOAT);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->SharesBufferWith(x));
}

TEST(CastTest, EmptyTensors) {
  StatusOr<Tensor> r = Cast(Tensor(DT_FLOAT, TensorShape({0, 2})), DT_INT64);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->shape(), TensorShape({0, 2}));
  EXPECT_EQ(r->dtype(), DT_INT64);
}

TEST(CastTest, Errors) {
  StatusOr<Tensor> bad = Cast(Tensor(1.f), DT_INVALID);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(bad.status().message(), "Cast to invalid dtype 0");
  StatusOr<Tensor> uninitialized = Cast(Tensor(), DT_FLOAT);
  ASSERT_FALSE(uninitialized.ok());
  EXPECT_EQ(uninitialized.status().message(),
            "Cast got an uninitialized tensor as its input");
}

}  // namespace
}  // namespace minitf::kernels
