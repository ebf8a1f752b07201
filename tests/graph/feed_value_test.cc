// ConvertFedValue: a fed value of another dtype is converted as TensorFlow's
// Python session converts it with NumPy. Every expectation here was taken
// from TensorFlow 2.21 (tf.compat.v1, NumPy 2.4) feeding a placeholder.
#include "minitf/graph/feed_value.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/scope.h"

namespace minitf {
namespace {

class FeedValueTest : public ::testing::Test {
 protected:
  // The fed value converted for a placeholder "x" of `dtype`, shape unknown.
  Tensor Fed(DType dtype, const Tensor& value) {
    StatusOr<Tensor> out = ConvertFedValue(
        placeholder(dtype, TensorShape::UnknownRank(), "x"), value);
    EXPECT_TRUE(out.ok()) << out.status();
    if (!out.ok()) return Tensor();
    EXPECT_EQ(out->dtype(), dtype);
    EXPECT_EQ(out->shape(), value.shape());
    return *out;
  }
  // The error of feeding `value` to a placeholder of `dtype` and `shape`.
  Status Refused(DType dtype, const Tensor& value,
                 const TensorShape& shape = TensorShape::UnknownRank()) {
    return ConvertFedValue(placeholder(dtype, shape, "x"), value).status();
  }

  Graph g_;
  graph_scope use_{g_};
};

constexpr int32_t kInt32Min = std::numeric_limits<int32_t>::min();
constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
const float kNan = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

// `sess.run(y, {x: [1, 2, 3]})` with x a float32 placeholder.
TEST_F(FeedValueTest, IntegersBecomeFloats) {
  EXPECT_EQ(Fed(DT_FLOAT, Tensor({1, 2, 3})).ToVector<float>(),
            (std::vector<float>{1.f, 2.f, 3.f}));
  EXPECT_EQ(Fed(DT_FLOAT, Tensor({int64_t{1}, int64_t{2}})).ToVector<float>(),
            (std::vector<float>{1.f, 2.f}));
  EXPECT_EQ(Fed(DT_DOUBLE, Tensor({7})).ToVector<double>(),
            (std::vector<double>{7.0}));
  // To the nearest float: 16777217 is not a float32.
  EXPECT_EQ(Fed(DT_FLOAT, Tensor({int64_t{16777217}})).ToVector<float>(),
            (std::vector<float>{16777216.f}));
}

// np.array([1.5, -2.7, -0.7]).astype(np.int32): [1, -2, 0].
TEST_F(FeedValueTest, FloatsBecomeIntegersByTruncation) {
  EXPECT_EQ(Fed(DT_INT32, Tensor({1.5f, -2.7f, -0.7f})).ToVector<int32_t>(),
            (std::vector<int32_t>{1, -2, 0}));
  EXPECT_EQ(Fed(DT_INT64, Tensor({2.5, -2.5, 1e10})).ToVector<int64_t>(),
            (std::vector<int64_t>{2, -2, 10000000000}));
  // A float scalar too: `sess.run(y, {x: 1.5})` gives 1.
  EXPECT_EQ(Fed(DT_INT32, Tensor(1.5f)).scalar<int32_t>(), 1);
}

// NumPy (x86) gives the integer's smallest value for NaN, inf and values out
// of range: TensorFlow fed [nan, inf, 1e10] as [-2147483648] * 3.
TEST_F(FeedValueTest, FloatsThatDoNotFitBecomeTheSmallestInteger) {
  EXPECT_EQ(Fed(DT_INT32, Tensor({kNan, kInf, -kInf, 1e10f, -1e10f, 3e9f}))
                .ToVector<int32_t>(),
            std::vector<int32_t>(6, kInt32Min));
  // 2147483647.f is 2^31, one past the end; 2147483647.0 (double) fits, and
  // so do -2147483648 and -2147483648.9, which truncates to it.
  EXPECT_EQ(Fed(DT_INT32, Tensor({2147483647.f})).scalar<int32_t>(), kInt32Min);
  EXPECT_EQ(Fed(DT_INT32, Tensor({2147483647.0, -2147483648.0, -2147483648.9,
                                  2147483648.0, -2147483649.0}))
                .ToVector<int32_t>(),
            (std::vector<int32_t>{2147483647, kInt32Min, kInt32Min, kInt32Min,
                                  kInt32Min}));
  EXPECT_EQ(
      Fed(DT_INT64, Tensor({kNan, kInf, 1e19f, -1e19f})).ToVector<int64_t>(),
      std::vector<int64_t>(4, kInt64Min));
  EXPECT_EQ(Fed(DT_INT64, Tensor({3e9f})).scalar<int64_t>(), 3000000000);
}

// np.array([2**31, -2**31 - 1, 2**32 + 5]).astype(np.int32).
TEST_F(FeedValueTest, Int64WrapsIntoInt32) {
  EXPECT_EQ(Fed(DT_INT32, Tensor({int64_t{2147483648}, int64_t{-2147483649},
                                  int64_t{4294967301}}))
                .ToVector<int32_t>(),
            (std::vector<int32_t>{kInt32Min, 2147483647, 5}));
  EXPECT_EQ(Fed(DT_INT64, Tensor({1, -1})).ToVector<int64_t>(),
            (std::vector<int64_t>{1, -1}));
}

TEST_F(FeedValueTest, BoolsAndNumbersConvertBothWays) {
  EXPECT_EQ(Fed(DT_FLOAT, Tensor({true, false})).ToVector<float>(),
            (std::vector<float>{1.f, 0.f}));
  EXPECT_EQ(Fed(DT_INT32, Tensor({true, false})).ToVector<int32_t>(),
            (std::vector<int32_t>{1, 0}));
  // Anything to bool is != 0; NaN is true.
  EXPECT_EQ(Fed(DT_BOOL, Tensor({1, 0, 2})).ToVector<bool>(),
            (std::vector<bool>{true, false, true}));
  EXPECT_EQ(Fed(DT_BOOL, Tensor({kNan, 0.f, -0.f, 0.1f})).ToVector<bool>(),
            (std::vector<bool>{true, false, false, true}));
}

TEST_F(FeedValueTest, DoubleToFloatRoundsAndOverflowsToInf) {
  const std::vector<float> got =
      Fed(DT_FLOAT, Tensor({1e40, -1e40, 0.1})).ToVector<float>();
  EXPECT_EQ(got[0], kInf);
  EXPECT_EQ(got[1], -kInf);
  EXPECT_EQ(got[2], 0.1f);
  EXPECT_EQ(Fed(DT_DOUBLE, Tensor({0.5f})).ToVector<double>(),
            (std::vector<double>{0.5}));
}

TEST_F(FeedValueTest, TheSameDtypeIsTheValueItself) {
  const Tensor v({1.f, 2.f});
  EXPECT_TRUE(Fed(DT_FLOAT, v).SharesBufferWith(v));
}

// Python's own check of an int scalar, before NumPy would wrap it.
TEST_F(FeedValueTest, AnIntegerScalarTheDtypeCannotHoldIsRefused) {
  Status s = Refused(DT_INT32, Tensor(int64_t{2147483648}));
  EXPECT_EQ(s.code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(s.message(),
            "Type of feed value 2147483648 with type <class 'int'> is not "
            "compatible with Tensor type <class 'numpy.int32'>. Try explicitly "
            "setting the type of the feed tensor to a larger type (e.g. "
            "int64).");
  EXPECT_EQ(Refused(DT_INT32, Tensor(int64_t{-2147483649})).message(),
            "Type of feed value -2147483649 with type <class 'int'> is not "
            "compatible with Tensor type <class 'numpy.int32'>. Try explicitly "
            "setting the type of the feed tensor to a larger type (e.g. "
            "int64).");
  EXPECT_EQ(Refused(DT_BOOL, Tensor(2)).message(),
            "Type of feed value 2 with type <class 'int'> is not compatible "
            "with Tensor type <class 'numpy.bool'>. Try explicitly setting the "
            "type of the feed tensor to a larger type (e.g. int64).");
  // Before the shape: TensorFlow checks the int first.
  EXPECT_EQ(Refused(DT_INT32, Tensor(int64_t{2147483648}), {2}).message(),
            "Type of feed value 2147483648 with type <class 'int'> is not "
            "compatible with Tensor type <class 'numpy.int32'>. Try explicitly "
            "setting the type of the feed tensor to a larger type (e.g. "
            "int64).");
}

// The scalars Python's check lets through.
TEST_F(FeedValueTest, AnIntegerScalarTheDtypeHoldsIsConverted) {
  EXPECT_EQ(Fed(DT_INT32, Tensor(int64_t{-2147483648})).scalar<int32_t>(),
            kInt32Min);
  EXPECT_EQ(Fed(DT_BOOL, Tensor(1)).scalar<bool>(), true);
  EXPECT_EQ(Fed(DT_BOOL, Tensor(int64_t{0})).scalar<bool>(), false);
  // A float holds every int, to the nearest value.
  EXPECT_EQ(Fed(DT_FLOAT, Tensor(16777217)).scalar<float>(), 16777216.f);
  EXPECT_EQ(Fed(DT_DOUBLE, Tensor(int64_t{9007199254740993})).scalar<double>(),
            9007199254740992.0);
  // Only a scalar is Python's int: a list wraps, as NumPy does.
  EXPECT_EQ(Fed(DT_INT32, Tensor({int64_t{2147483648}})).scalar<int32_t>(),
            kInt32Min);
}

TEST_F(FeedValueTest, AShapeThatDoesNotFitIsRefused) {
  Status s = Refused(DT_FLOAT, Tensor({1, 2, 3}), {2});
  EXPECT_EQ(s.code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(s.message(),
            "Cannot feed value of shape (3,) for Tensor 'x:0', which has "
            "shape '(2,)'");
}

TEST_F(FeedValueTest, AnUninitializedValueIsRefused) {
  EXPECT_EQ(Refused(DT_FLOAT, Tensor()).message(),
            "Cannot feed an uninitialized Tensor for 'x:0'");
}

}  // namespace
}  // namespace minitf
