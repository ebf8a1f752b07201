#include "minitf/tensor/kernels/cwise_ops.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "minitf/tensor/kernels/broadcast.h"

namespace minitf::kernels {
namespace {

using ::testing::NanSensitiveDoubleEq;
using ::testing::NanSensitiveFloatEq;
using ::testing::NanSensitiveFloatNear;
using ::testing::Pointwise;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr int32_t kInt32Min = std::numeric_limits<int32_t>::min();
constexpr int32_t kInt32Max = std::numeric_limits<int32_t>::max();
constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

template <typename T>
Tensor Make(const std::vector<T>& values, const TensorShape& shape) {
  return Tensor::FromVector(values, shape).value();
}

// Checks that `result` holds a T tensor of `shape` with elements `want` in
// row-major order. Floats compare within 4 ULPs, and NaN equals NaN.
template <typename T>
void ExpectTensor(const StatusOr<Tensor>& result, const TensorShape& shape,
                  const std::vector<T>& want) {
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->dtype(), DataTypeToEnum<T>::value);
  EXPECT_EQ(result->shape(), shape);
  if constexpr (std::is_same_v<T, float>) {
    EXPECT_THAT(result->ToVector<float>(),
                Pointwise(NanSensitiveFloatEq(), want));
  } else if constexpr (std::is_same_v<T, double>) {
    EXPECT_THAT(result->ToVector<double>(),
                Pointwise(NanSensitiveDoubleEq(), want));
  } else {
    EXPECT_EQ(result->ToVector<T>(), want);
  }
}

void ExpectInvalidArgument(const StatusOr<Tensor>& result,
                           const std::string& message) {
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(result.status().message(), message);
}

// ---------------------------------------------------------------------------
// Unary ops.

TEST(NegTest, NegatesEachElementKeepingTheShape) {
  ExpectTensor<float>(Neg(Tensor({{1.f, -2.f}, {0.f, kInf}})), {2, 2},
                      {-1.f, 2.f, 0.f, -kInf});
  ExpectTensor<double>(Neg(Tensor({0.5, -0.25})), {2}, {-0.5, 0.25});
  ExpectTensor<int64_t>(Neg(Tensor({int64_t{3}, int64_t{-4}})), {2}, {-3, 4});
}

TEST(NegTest, IntegerMinimumWrapsToItself) {
  ExpectTensor<int32_t>(Neg(Tensor({kInt32Min, kInt32Max, 0})), {3},
                        {kInt32Min, -kInt32Max, 0});
  ExpectTensor<int64_t>(Neg(Tensor({kInt64Min})), {1}, {kInt64Min});
}

TEST(SquareTest, SquaresFloatsAndIntegers) {
  ExpectTensor<float>(Square(Tensor({-3.f, 0.5f, kNaN})), {3},
                      {9.f, 0.25f, kNaN});
  ExpectTensor<int32_t>(Square(Tensor({-3, 4})), {2}, {9, 16});
}

TEST(SquareTest, IntegerOverflowWrapsAround) {
  // 46341^2 = 2147488281 = 2^31 + 4633, which wraps to -2^31 + 4633.
  ExpectTensor<int32_t>(Square(Tensor({46341, 65536})), {2}, {-2147479015, 0});
  // (2^32 + 1)^2 = 2^64 + 2^33 + 1, which wraps to 2^33 + 1.
  ExpectTensor<int64_t>(Square(Tensor({int64_t{4294967297}})), {1},
                        {8589934593});
}

TEST(SqrtTest, NegativeInputsGiveNaN) {
  ExpectTensor<float>(Sqrt(Tensor({4.f, 2.25f, 0.f, -1.f, kInf})), {5},
                      {2.f, 1.5f, 0.f, kNaN, kInf});
}

TEST(ExpTest, MatchesHandValuesAndLimits) {
  ExpectTensor<float>(Exp(Tensor({0.f, 1.f, -kInf, kInf, kNaN, 100.f})), {6},
                      {1.f, 2.7182817f, 0.f, kInf, kNaN, kInf});
  ExpectTensor<double>(Exp(Tensor({std::log(2.0)})), {1}, {2.0});
}

TEST(LogTest, ZeroIsMinusInfinityAndNegativesNaN) {
  ExpectTensor<float>(Log(Tensor({1.f, 2.7182817f, 0.f, -1.f, kInf})), {5},
                      {0.f, 1.f, -kInf, kNaN, kInf});
}

TEST(AbsTest, TakesMagnitudes) {
  ExpectTensor<float>(Abs(Tensor({-1.5f, 2.f, -0.f, -kInf, kNaN})), {5},
                      {1.5f, 2.f, 0.f, kInf, kNaN});
  ExpectTensor<int32_t>(Abs(Tensor({-5, 7, 0})), {3}, {5, 7, 0});
}

TEST(AbsTest, IntegerMinimumWrapsToItself) {
  ExpectTensor<int32_t>(Abs(Tensor({kInt32Min, -kInt32Max})), {2},
                        {kInt32Min, kInt32Max});
  ExpectTensor<int64_t>(Abs(Tensor({kInt64Min, int64_t{-9}})), {2},
                        {kInt64Min, 9});
}

TEST(SignTest, GivesMinusOneZeroOrOneAndKeepsNaN) {
  ExpectTensor<float>(Sign(Tensor({-2.f, 0.f, 3.f, kNaN, -kInf, 1e-30f})), {6},
                      {-1.f, 0.f, 1.f, kNaN, -1.f, 1.f});
  ExpectTensor<int32_t>(Sign(Tensor({-7, 0, 9, kInt32Min})), {4},
                        {-1, 0, 1, -1});
  ExpectTensor<int64_t>(Sign(Tensor({kInt64Max})), {1}, {1});
}

TEST(ReluTest, ClampsNegativesToZeroAndKeepsNaN) {
  ExpectTensor<float>(Relu(Tensor({-1.f, 0.f, 2.f, kNaN, -kInf, kInf})), {6},
                      {0.f, 0.f, 2.f, kNaN, 0.f, kInf});
  ExpectTensor<int32_t>(Relu(Tensor({-3, 4, kInt32Min})), {3}, {0, 4, 0});
}

TEST(ReluTest, NaNSurvivesTheVectorisedLoop) {
  // 37 elements: several full SIMD packets and a scalar tail, NaN in each part.
  std::vector<float> x(37);
  std::vector<float> want(37);
  for (int i = 0; i < 37; ++i) {
    x[i] = (i % 2 == 0) ? -1.f * i : 1.f * i;
    want[i] = (i % 2 == 0) ? 0.f : 1.f * i;
  }
  for (int i : {0, 5, 16, 35, 36}) x[i] = want[i] = kNaN;
  ExpectTensor<float>(Relu(Make(x, {37})), {37}, want);
}

TEST(SigmoidTest, MatchesHandValues) {
  // sigmoid(ln 3) = 1 / (1 + 1/3) = 3/4, and sigmoid(-x) = 1 - sigmoid(x).
  const float ln3 = std::log(3.f);
  ExpectTensor<float>(Sigmoid(Tensor({0.f, ln3, -ln3, kNaN})), {4},
                      {0.5f, 0.75f, 0.25f, kNaN});
}

TEST(SigmoidTest, StableForLargeMagnitudes) {
  // 20 elements, so the SIMD loop and its scalar tail both see each case.
  std::vector<float> x;
  std::vector<float> want;
  for (int i = 0; i < 5; ++i) {
    x.insert(x.end(), {1000.f, -1000.f, kInf, -kInf});
    want.insert(want.end(), {1.f, 0.f, 1.f, 0.f});
  }
  StatusOr<Tensor> s = Sigmoid(Make(x, {20}));
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_THAT(s->ToVector<float>(),
              Pointwise(NanSensitiveFloatNear(1e-30f), want));
}

TEST(SigmoidTest, SmallResultsKeepTheirRelativeAccuracy) {
  // sigmoid(x) = e^x / (1 + e^x), which is e^x to float precision here.
  ExpectTensor<float>(Sigmoid(Tensor({-80.f, -30.f})), {2},
                      {1.8048514e-35f, 9.3576230e-14f});
  ExpectTensor<double>(Sigmoid(Tensor({-100.0})), {1}, {std::exp(-100.0)});
}

TEST(TanhTest, MatchesHandValuesAndSaturates) {
  StatusOr<Tensor> t = Tanh(Tensor({0.f, 0.5f, -0.5f, 20.f, -20.f, kNaN}));
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_THAT(t->ToVector<float>(),
              Pointwise(NanSensitiveFloatNear(1e-6f),
                        std::vector<float>{0.f, 0.46211716f, -0.46211716f, 1.f,
                                           -1.f, kNaN}));
}

TEST(LogicalNotTest, FlipsBools) {
  ExpectTensor<bool>(LogicalNot(Tensor({true, false})), {2}, {false, true});
}

// Special values in a run long enough for SIMD packets and a scalar tail,
// checked against the C++ library's scalar functions: the vectorised Eigen
// math must treat NaN, infinities and zeros as the scalar math does.
TEST(UnaryOpTest, VectorisedMathAgreesWithScalarMath) {
  const std::vector<float> specials = {
      kNaN, kInf, -kInf, 0.f,  -0.f,  1.f,    -1.f,  0.5f,   -0.5f, 3.f,
      -3.f, 20.f, -20.f, 88.f, -88.f, 1e-20f, 1e20f, -1e20f, 2.f};
  std::vector<float> x = specials;
  x.insert(x.end(), specials.begin(), specials.end());  // 38 elements.
  auto expect_like = [&](StatusOr<Tensor> result, float (*scalar)(float)) {
    std::vector<float> want;
    for (float v : x) want.push_back(scalar(v));
    ExpectTensor<float>(result, {38}, want);
  };
  const Tensor t = Make(x, {38});
  // Exp flushes results below the smallest normal float to 0.
  expect_like(Exp(t), [](float v) {
    const float e = std::exp(v);
    return e < std::numeric_limits<float>::min() ? 0.f : e;
  });
  expect_like(Log(t), [](float v) { return std::log(v); });
  expect_like(Sqrt(t), [](float v) { return std::sqrt(v); });
  expect_like(Tanh(t), [](float v) { return std::tanh(v); });
  expect_like(Abs(t), [](float v) { return std::abs(v); });
  expect_like(Neg(t), [](float v) { return -v; });
  expect_like(Square(t), [](float v) { return v * v; });
  expect_like(Sigmoid(t), [](float v) { return 1.f / (1.f + std::exp(-v)); });
}

TEST(UnaryOpTest, EmptyTensorGivesEmptyTensorOfTheSameShape) {
  Tensor empty(DT_FLOAT, TensorShape({0, 3}));
  ExpectTensor<float>(Exp(empty), {0, 3}, {});
  ExpectTensor<float>(Sigmoid(empty), {0, 3}, {});
}

TEST(UnaryOpTest, MissingDTypeKernelsAreNamed) {
  ExpectInvalidArgument(
      Exp(Tensor({1, 2})),
      "No Exp kernel for dtype int32 (Exp takes float, double)");
  ExpectInvalidArgument(
      Sqrt(Tensor({int64_t{1}})),
      "No Sqrt kernel for dtype int64 (Sqrt takes float, double)");
  ExpectInvalidArgument(
      Log(Tensor(true)),
      "No Log kernel for dtype bool (Log takes float, double)");
  ExpectInvalidArgument(
      Sigmoid(Tensor(1)),
      "No Sigmoid kernel for dtype int32 (Sigmoid takes float, double)");
  ExpectInvalidArgument(
      Tanh(Tensor(1)),
      "No Tanh kernel for dtype int32 (Tanh takes float, double)");
  ExpectInvalidArgument(
      Neg(Tensor(true)),
      "No Neg kernel for dtype bool (Neg takes float, double, int32, int64)");
  ExpectInvalidArgument(Square(Tensor(true)),
                        "No Square kernel for dtype bool (Square takes float, "
                        "double, int32, int64)");
  ExpectInvalidArgument(
      Abs(Tensor(true)),
      "No Abs kernel for dtype bool (Abs takes float, double, int32, int64)");
  ExpectInvalidArgument(
      Sign(Tensor(true)),
      "No Sign kernel for dtype bool (Sign takes float, double, int32, int64)");
  ExpectInvalidArgument(
      Relu(Tensor(true)),
      "No Relu kernel for dtype bool (Relu takes float, double, int32, int64)");
  ExpectInvalidArgument(
      LogicalNot(Tensor(1.f)),
      "No LogicalNot kernel for dtype float (LogicalNot takes bool)");
}

TEST(UnaryOpTest, UninitializedInputIsAnError) {
  ExpectInvalidArgument(
      Exp(Tensor()),
      "cannot compute Exp as input #0(zero-based) is an uninitialized tensor");
  ExpectInvalidArgument(LogicalNot(Tensor()),
                        "cannot compute LogicalNot as input #0(zero-based) is "
                        "an uninitialized tensor");
}

// ---------------------------------------------------------------------------
// Binary arithmetic.

TEST(AddTest, AddsSameShapesInEveryNumericDType) {
  ExpectTensor<float>(Add(Tensor({{1.f, 2.f}, {3.f, 4.f}}),
                          Tensor({{10.f, 20.f}, {30.f, 40.f}})),
                      {2, 2}, {11.f, 22.f, 33.f, 44.f});
  ExpectTensor<double>(Add(Tensor({0.5, 1.5}), Tensor({0.25, -1.5})), {2},
                       {0.75, 0.0});
  ExpectTensor<int32_t>(Add(Tensor({1, -2}), Tensor({3, 5})), {2}, {4, 3});
  ExpectTensor<int64_t>(Add(Tensor({int64_t{1} << 40}), Tensor({int64_t{1}})),
                        {1}, {(int64_t{1} << 40) + 1});
}

// --8<-- [start:broadcast_examples]
TEST(AddTest, BroadcastsARowAcrossEveryRow) {
  // x:[2,3] y:[3] -> [2,3]: y is added to each row.
  ExpectTensor<float>(Add(Tensor({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}}),
                          Tensor({10.f, 20.f, 30.f})),
                      {2, 3}, {11.f, 22.f, 33.f, 14.f, 25.f, 36.f});
}

TEST(AddTest, BroadcastsAColumnAgainstARowIntoATable) {
  // x:[2,1] y:[1,3] -> [2,3]: out[i][j] = x[i][0] + y[0][j].
  ExpectTensor<float>(Add(Tensor({{1.f}, {2.f}}), Tensor({{10.f, 20.f, 30.f}})),
                      {2, 3}, {11.f, 21.f, 31.f, 12.f, 22.f, 32.f});
}
// --8<-- [end:broadcast_examples]

TEST(AddTest, ScalarBroadcastsOnEitherSide) {
  ExpectTensor<float>(Add(Tensor({{1.f, 2.f}, {3.f, 4.f}}), Tensor(0.5f)),
                      {2, 2}, {1.5f, 2.5f, 3.5f, 4.5f});
  ExpectTensor<float>(Add(Tensor(0.5f), Tensor({{1.f, 2.f}, {3.f, 4.f}})),
                      {2, 2}, {1.5f, 2.5f, 3.5f, 4.5f});
  ExpectTensor<int32_t>(Add(Tensor(2), Tensor(3)), {}, {5});
}

TEST(AddTest, SizeOneDimensionsStretch) {
  ExpectTensor<float>(Add(Tensor({1.f}), Tensor({1.f, 2.f, 3.f})), {3},
                      {2.f, 3.f, 4.f});
  ExpectTensor<float>(Add(Tensor({1.f, 2.f, 3.f}), Tensor({{1.f}})), {1, 3},
                      {2.f, 3.f, 4.f});
  // x:[3,1] y:[3,4]: x repeats along the inner dimension.
  ExpectTensor<int32_t>(
      Add(Tensor({{100}, {200}, {300}}),
          Make<int32_t>({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, {3, 4})),
      {3, 4}, {101, 102, 103, 104, 205, 206, 207, 208, 309, 310, 311, 312});
}

TEST(AddTest, EmptyTensorsBroadcastToEmptyResults) {
  ExpectTensor<float>(
      Add(Tensor(DT_FLOAT, TensorShape({0, 3})), Tensor({1.f, 2.f, 3.f})),
      {0, 3}, {});
  ExpectTensor<float>(Add(Tensor(DT_FLOAT, TensorShape({0})), Tensor({1.f})),
                      {0}, {});
  ExpectTensor<float>(
      Add(Tensor(DT_FLOAT, TensorShape({2, 0})), Tensor({{1.f}, {2.f}})),
      {2, 0}, {});
  ExpectTensor<float>(Add(Tensor(2.f), Tensor(DT_FLOAT, TensorShape({0}))), {0},
                      {});
}

// The slow, obvious broadcast add, one output element at a time from its
// multi-index, to check the planned loops against.
std::vector<float> ReferenceAdd(const Tensor& x, const Tensor& y,
                                const TensorShape& out) {
  // Row-major offset in `t` of output multi-index `index`, aligned on the
  // right.
  auto offset = [](const Tensor& t, const std::vector<int64_t>& index) {
    int64_t off = 0;
    const int skip = static_cast<int>(index.size()) - t.dims();
    for (int d = 0; d < t.dims(); ++d) {
      off = off * t.dim_size(d) + (t.dim_size(d) == 1 ? 0 : index[skip + d]);
    }
    return off;
  };
  std::vector<float> z;
  std::vector<int64_t> index(out.dims(), 0);
  for (int64_t i = 0; i < out.num_elements(); ++i) {
    int64_t rest = i;
    for (int d = out.dims() - 1; d >= 0; --d) {
      index[d] = rest % out.dim_size(d);
      rest /= out.dim_size(d);
    }
    z.push_back(x.data<float>()[offset(x, index)] +
                y.data<float>()[offset(y, index)]);
  }
  return z;
}

// Elements 0, 1, 2 ... as floats, in `shape`.
Tensor Iota(const TensorShape& shape, float scale) {
  std::vector<float> v(shape.num_elements());
  for (size_t i = 0; i < v.size(); ++i) v[i] = scale * static_cast<float>(i);
  return Make(v, shape);
}

TEST(AddTest, MixedRankFourBroadcastMatchesTheReference) {
  // x:[2,1,3,1] y:[4,1,2] -> [2,4,3,2].
  Tensor x = Iota({2, 1, 3, 1}, 100.f);
  Tensor y = Iota({4, 1, 2}, 1.f);
  StatusOr<Tensor> z = Add(x, y);
  ASSERT_TRUE(z.ok()) << z.status();
  ExpectTensor<float>(z, {2, 4, 3, 2}, ReferenceAdd(x, y, {2, 4, 3, 2}));
  // By hand: z[1][2][0][1] = x[1][0][0][0] + y[2][0][1] = 300 + 5.
  EXPECT_EQ(z->ToVector<float>()[1 * 24 + 2 * 6 + 0 * 2 + 1], 305.f);
  // And with the sides swapped, so the other input repeats innermost.
  ExpectTensor<float>(Add(y, x), {2, 4, 3, 2},
                      ReferenceAdd(y, x, {2, 4, 3, 2}));
}

TEST(AddTest, LongRowsAndOddSizesMatchTheReference) {
  // Rows of 37: SIMD packets plus a tail, from every run offset.
  for (const auto& [xs, ys] : std::vector<std::pair<TensorShape, TensorShape>>{
           {{33, 37}, {37}},
           {{33, 1}, {1, 37}},
           {{5, 1, 37}, {5, 3, 37}},
           {{1001}, {1001}}}) {
    Tensor x = Iota(xs, 1.f);
    Tensor y = Iota(ys, 0.001f);
    StatusOr<TensorShape> out = BroadcastShapes(xs, ys);
    ASSERT_TRUE(out.ok());
    ExpectTensor<float>(Add(x, y), *out, ReferenceAdd(x, y, *out));
  }
}

TEST(AddTest, InfinitiesAndNaNPropagate) {
  ExpectTensor<float>(
      Add(Tensor({kInf, kInf, kNaN, 1.f}), Tensor({1.f, -kInf, 1.f, kInf})),
      {4}, {kInf, kNaN, kNaN, kInf});
}

TEST(AddTest, IntegerOverflowWrapsAround) {
  ExpectTensor<int32_t>(Add(Tensor({kInt32Max, kInt32Min}), Tensor({1, -1})),
                        {2}, {kInt32Min, kInt32Max});
  // The same through the broadcast path, with y repeated.
  ExpectTensor<int32_t>(Add(Tensor({kInt32Max, 0}), Tensor(1)), {2},
                        {kInt32Min, 1});
  ExpectTensor<int64_t>(Add(Tensor({kInt64Max}), Tensor({int64_t{2}})), {1},
                        {kInt64Min + 1});
}

TEST(SubTest, SubtractsWithBroadcasting) {
  ExpectTensor<float>(Sub(Tensor({5.f, 1.f}), Tensor({2.f, 3.f})), {2},
                      {3.f, -2.f});
  ExpectTensor<float>(Sub(Tensor(10.f), Tensor({1.f, 2.f})), {2}, {9.f, 8.f});
  ExpectTensor<float>(Sub(Tensor({kInf}), Tensor({kInf})), {1}, {kNaN});
}

TEST(SubTest, IntegerOverflowWrapsAround) {
  ExpectTensor<int32_t>(Sub(Tensor({kInt32Min, 0}), Tensor({1, kInt32Min})),
                        {2}, {kInt32Max, kInt32Min});
  ExpectTensor<int64_t>(Sub(Tensor({kInt64Min}), Tensor({int64_t{1}})), {1},
                        {kInt64Max});
}

TEST(MulTest, MultipliesWithBroadcasting) {
  ExpectTensor<float>(Mul(Tensor({2.f, 3.f}), Tensor({4.f, -1.f})), {2},
                      {8.f, -3.f});
  ExpectTensor<int32_t>(Mul(Tensor({{1}, {2}}), Tensor({{3, 4}})), {2, 2},
                        {3, 4, 6, 8});
  ExpectTensor<float>(Mul(Tensor({0.f, 2.f}), Tensor({kInf, kNaN})), {2},
                      {kNaN, kNaN});
}

TEST(MulTest, IntegerOverflowWrapsAround) {
  // 65537^2 = 2^32 + 2^17 + 1, which wraps to 2^17 + 1.
  ExpectTensor<int32_t>(
      Mul(Tensor({65536, 65537, kInt32Min}), Tensor({65536, 65537, -1})), {3},
      {0, 131073, kInt32Min});
  ExpectTensor<int64_t>(Mul(Tensor({kInt64Max}), Tensor({int64_t{2}})), {1},
                        {-2});
}

TEST(DivTest, FloatDivisionIsTrueDivision) {
  ExpectTensor<float>(Div(Tensor({1.f, -1.f, 0.f, 6.f, 7.f}),
                          Tensor({2.f, 0.f, 0.f, 4.f, 2.f})),
                      {5}, {0.5f, -kInf, kNaN, 1.5f, 3.5f});
  ExpectTensor<double>(Div(Tensor({1.0, 2.0}), Tensor(4.0)), {2}, {0.25, 0.5});
}

TEST(DivTest, IntegerDivisionRoundsTowardMinusInfinity) {
  // -7 / 2 = -3.5 -> -4; 7 / -2 -> -4; -7 / -2 = 3.5 -> 3; exact quotients
  // stay.
  ExpectTensor<int32_t>(
      Div(Tensor({-7, 7, -7, 7, 6, -6, 0}), Tensor({2, 2, -2, -2, 3, 3, -5})),
      {7}, {-4, 3, 3, -4, 2, -2, 0});
  ExpectTensor<int64_t>(
      Div(Tensor({int64_t{-1}, int64_t{9}}), Tensor({int64_t{10}})), {2},
      {-1, 0});
  ExpectTensor<int32_t>(Div(Tensor(-7), Tensor({2, 7, 8})), {3}, {-4, -1, -1});
}

TEST(DivTest, IntegerMinimumOverMinusOneWraps) {
  ExpectTensor<int32_t>(Div(Tensor({kInt32Min, kInt32Min}), Tensor({-1, 2})),
                        {2}, {kInt32Min, kInt32Min / 2});
  ExpectTensor<int64_t>(Div(Tensor({kInt64Min}), Tensor({int64_t{-1}})), {1},
                        {kInt64Min});
}

TEST(DivTest, IntegerDivisionByZeroIsAnError) {
  ExpectInvalidArgument(Div(Tensor({1, 2}), Tensor({1, 0})),
                        "Integer division by zero");
  ExpectInvalidArgument(Div(Tensor({int64_t{1}}), Tensor(int64_t{0})),
                        "Integer division by zero");
  // No element is divided when the output is empty, so there is no error.
  ExpectTensor<int32_t>(Div(Tensor(DT_INT32, TensorShape({0})), Tensor({0})),
                        {0}, {});
}

TEST(MaximumTest, TakesTheLargerAndPropagatesNaN) {
  ExpectTensor<float>(Maximum(Tensor({1.f, 5.f, kNaN, 2.f, -kInf}),
                              Tensor({3.f, 2.f, 1.f, kNaN, -1.f})),
                      {5}, {3.f, 5.f, kNaN, kNaN, -1.f});
  ExpectTensor<int32_t>(Maximum(Tensor({{-1, 7}, {3, kInt32Min}}), Tensor(0)),
                        {2, 2}, {0, 7, 3, 0});
}

TEST(MinimumTest, TakesTheSmallerAndPropagatesNaN) {
  ExpectTensor<float>(Minimum(Tensor({1.f, 5.f, kNaN, 2.f, kInf}),
                              Tensor({3.f, 2.f, 1.f, kNaN, 1.f})),
                      {5}, {1.f, 2.f, kNaN, kNaN, 1.f});
  ExpectTensor<int64_t>(
      Minimum(Tensor({int64_t{4}, kInt64Max}), Tensor({int64_t{5}})), {2},
      {4, 5});
}

TEST(MaximumTest, NaNOnEitherSideSurvivesTheVectorisedLoop) {
  std::vector<float> x(37, 1.f);
  std::vector<float> y(37, 2.f);
  std::vector<float> want(37, 2.f);
  for (int i : {0, 9, 17, 36}) x[i] = want[i] = kNaN;
  for (int i : {3, 8, 30}) y[i] = want[i] = kNaN;
  ExpectTensor<float>(Maximum(Make(x, {37}), Make(y, {37})), {37}, want);
  ExpectTensor<float>(Maximum(Make(y, {37}), Make(x, {37})), {37}, want);
  // With one side a repeated scalar NaN, everything is NaN.
  ExpectTensor<float>(Minimum(Make(x, {37}), Tensor(kNaN)), {37},
                      std::vector<float>(37, kNaN));
}

// ---------------------------------------------------------------------------
// Comparisons and logic.

TEST(ComparisonTest, EachComparisonGivesBools) {
  const Tensor x({1.f, 2.f, 3.f});
  const Tensor y({2.f, 2.f, 2.f});
  ExpectTensor<bool>(Less(x, y), {3}, {true, false, false});
  ExpectTensor<bool>(LessEqual(x, y), {3}, {true, true, false});
  ExpectTensor<bool>(Greater(x, y), {3}, {false, false, true});
  ExpectTensor<bool>(GreaterEqual(x, y), {3}, {false, true, true});
  ExpectTensor<bool>(Equal(x, y), {3}, {false, true, false});
  ExpectTensor<bool>(NotEqual(x, y), {3}, {true, false, true});
}

TEST(ComparisonTest, NaNIsUnorderedAndUnequalToItself) {
  const Tensor x({kNaN, kNaN});
  const Tensor y({kNaN, 1.f});
  ExpectTensor<bool>(Equal(x, y), {2}, {false, false});
  ExpectTensor<bool>(NotEqual(x, y), {2}, {true, true});
  ExpectTensor<bool>(Less(x, y), {2}, {false, false});
  ExpectTensor<bool>(GreaterEqual(x, y), {2}, {false, false});
}

TEST(ComparisonTest, BroadcastsInEveryNumericDType) {
  ExpectTensor<bool>(Less(Tensor({{1, 5}, {3, 2}}), Tensor(3)), {2, 2},
                     {true, false, false, true});
  ExpectTensor<bool>(Greater(Tensor({{1.0}, {4.0}}), Tensor({{2.0, 3.0}})),
                     {2, 2}, {false, false, true, true});
  ExpectTensor<bool>(
      Equal(Tensor({kInt64Max, int64_t{0}}), Tensor({kInt64Max})), {2},
      {true, false});
}

TEST(ComparisonTest, EqualAndNotEqualTakeBools) {
  ExpectTensor<bool>(Equal(Tensor({true, false}), Tensor({true, true})), {2},
                     {true, false});
  ExpectTensor<bool>(NotEqual(Tensor({true, false}), Tensor(false)), {2},
                     {true, false});
}

TEST(LogicalTest, AndOrFollowTheTruthTables) {
  const Tensor x({false, false, true, true});
  const Tensor y({false, true, false, true});
  ExpectTensor<bool>(LogicalAnd(x, y), {4}, {false, false, false, true});
  ExpectTensor<bool>(LogicalOr(x, y), {4}, {false, true, true, true});
}

TEST(LogicalTest, Broadcasts) {
  ExpectTensor<bool>(
      LogicalAnd(Tensor({{true}, {false}}), Tensor({{true, false}})), {2, 2},
      {true, false, false, false});
  ExpectTensor<bool>(LogicalOr(Tensor(false), Tensor({true, false})), {2},
                     {true, false});
}

// ---------------------------------------------------------------------------
// Errors shared by the binary ops: checked inputs first, then dtypes, then
// shapes.

TEST(BinaryOpTest, IncompatibleShapesAreAnError) {
  ExpectInvalidArgument(
      Add(Tensor({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}}), Tensor({1.f, 2.f})),
      "Incompatible shapes: [2,3] vs. [2]");
  ExpectInvalidArgument(Less(Tensor({1, 2, 3}), Tensor({{1, 2}})),
                        "Incompatible shapes: [3] vs. [1,2]");
  ExpectInvalidArgument(Div(Tensor({1, 2, 3}), Tensor({0, 1})),
                        "Incompatible shapes: [3] vs. [2]");
  ExpectInvalidArgument(
      Add(Tensor(DT_FLOAT, TensorShape({0})), Tensor({1.f, 2.f, 3.f})),
      "Incompatible shapes: [0] vs. [3]");
}

TEST(BinaryOpTest, DifferentDTypesAreAnErrorBeforeShapes) {
  ExpectInvalidArgument(
      Add(Tensor({1.f, 2.f}), Tensor({1, 2})),
      "cannot compute Add as input #1(zero-based) was expected to be a float "
      "tensor but is a int32 tensor");
  ExpectInvalidArgument(
      Mul(Tensor({{1.f, 2.f, 3.f}}), Tensor({1.0, 2.0})),
      "cannot compute Mul as input #1(zero-based) was expected to be a float "
      "tensor but is a double tensor");
  ExpectInvalidArgument(
      Equal(Tensor({true}), Tensor({1})),
      "cannot compute Equal as input #1(zero-based) was expected to be a bool "
      "tensor but is a int32 tensor");
}

TEST(BinaryOpTest, MissingDTypeKernelsAreNamed) {
  const std::string numbers = "float, double, int32, int64)";
  ExpectInvalidArgument(Add(Tensor(true), Tensor(true)),
                        "No Add kernel for dtype bool (Add takes " + numbers);
  ExpectInvalidArgument(Sub(Tensor(true), Tensor(true)),
                        "No Sub kernel for dtype bool (Sub takes " + numbers);
  ExpectInvalidArgument(Mul(Tensor(true), Tensor(true)),
                        "No Mul kernel for dtype bool (Mul takes " + numbers);
  ExpectInvalidArgument(Div(Tensor(true), Tensor(true)),
                        "No Div kernel for dtype bool (Div takes " + numbers);
  ExpectInvalidArgument(
      Maximum(Tensor(true), Tensor(true)),
      "No Maximum kernel for dtype bool (Maximum takes " + numbers);
  ExpectInvalidArgument(
      Minimum(Tensor(true), Tensor(true)),
      "No Minimum kernel for dtype bool (Minimum takes " + numbers);
  ExpectInvalidArgument(Less(Tensor(true), Tensor(true)),
                        "No Less kernel for dtype bool (Less takes " + numbers);
  ExpectInvalidArgument(
      LessEqual(Tensor(true), Tensor(true)),
      "No LessEqual kernel for dtype bool (LessEqual takes " + numbers);
  ExpectInvalidArgument(
      Greater(Tensor(true), Tensor(true)),
      "No Greater kernel for dtype bool (Greater takes " + numbers);
  ExpectInvalidArgument(
      GreaterEqual(Tensor(true), Tensor(true)),
      "No GreaterEqual kernel for dtype bool (GreaterEqual takes " + numbers);
  ExpectInvalidArgument(
      LogicalAnd(Tensor(1.f), Tensor(1.f)),
      "No LogicalAnd kernel for dtype float (LogicalAnd takes bool)");
  ExpectInvalidArgument(
      LogicalOr(Tensor(1), Tensor(1)),
      "No LogicalOr kernel for dtype int32 (LogicalOr takes bool)");
  // A missing kernel is reported before a shape mismatch.
  ExpectInvalidArgument(Add(Tensor({true, false}), Tensor({true, false, true})),
                        "No Add kernel for dtype bool (Add takes " + numbers);
}

TEST(BinaryOpTest, UninitializedInputsAreAnError) {
  ExpectInvalidArgument(
      Add(Tensor(), Tensor(1.f)),
      "cannot compute Add as input #0(zero-based) is an uninitialized tensor");
  ExpectInvalidArgument(Equal(Tensor(1.f), Tensor()),
                        "cannot compute Equal as input #1(zero-based) is an "
                        "uninitialized tensor");
  ExpectInvalidArgument(LogicalOr(Tensor(), Tensor()),
                        "cannot compute LogicalOr as input #0(zero-based) is "
                        "an uninitialized tensor");
}

}  // namespace
}  // namespace minitf::kernels
