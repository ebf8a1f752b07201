#include "minitf/tensor/kernels/nn_ops.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace minitf::kernels {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::FloatNear;
using ::testing::Pointwise;

constexpr float kInf = std::numeric_limits<float>::infinity();

void ExpectInvalidArgument(const StatusOr<Tensor>& result,
                           const std::string& message) {
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(result.status().message(), message);
}

// softmax([1, 2, 3]) = [e^1, e^2, e^3] / (e^1 + e^2 + e^3).
std::vector<double> Softmax123() {
  const double s = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
  return {std::exp(1.0) / s, std::exp(2.0) / s, std::exp(3.0) / s};
}

TEST(SoftmaxTest, HandWorkedRow) {
  StatusOr<Tensor> r = Softmax(Tensor({{1.0, 2.0, 3.0}}));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->shape(), TensorShape({1, 3}));
  // 0.09003, 0.24473, 0.66524.
  EXPECT_THAT(r->ToVector<double>(),
              Pointwise(DoubleNear(1e-15), Softmax123()));
}

TEST(SoftmaxTest, RowsSumToOneAndShiftDoesNotMatter) {
  StatusOr<Tensor> a = Softmax(Tensor({{1.f, 2.f, 3.f}, {0.f, 0.f, 0.f}}));
  StatusOr<Tensor> b =
      Softmax(Tensor({{101.f, 102.f, 103.f}, {-7.f, -7.f, -7.f}}));
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_THAT(a->ToVector<float>(),
              Pointwise(FloatNear(1e-6f), b->ToVector<float>()));
  const std::vector<float> v = a->ToVector<float>();
  EXPECT_NEAR(v[0] + v[1] + v[2], 1.f, 1e-6f);
  EXPECT_THAT(std::vector<float>(v.begin() + 3, v.end()),
              Pointwise(FloatNear(1e-7f), std::vector<float>(3, 1.f / 3)));
}

TEST(SoftmaxTest, LargeLogitsDoNotOverflow) {
  // exp(1000) is inf in float and double; the shifted form never computes it.
  StatusOr<Tensor> r = Softmax(Tensor({1000.f, 1000.f, 0.f}));
  ASSERT_TRUE(r.ok());
  EXPECT_THAT(r->ToVector<float>(), ElementsAre(0.5f, 0.5f, 0.f));
  StatusOr<Tensor> log = LogSoftmax(Tensor({1000.f, 1000.f, 0.f}));
  ASSERT_TRUE(log.ok());
  const std::vector<float> l = log->ToVector<float>();
  EXPECT_FLOAT_EQ(l[0], -std::log(2.f));
  EXPECT_FLOAT_EQ(l[1], -std::log(2.f));
  EXPECT_FLOAT_EQ(l[2], -1000.f - std::log(2.f));
}

TEST(SoftmaxTest, MinusInfinityGetsZeroProbability) {
  StatusOr<Tensor> r = Softmax(Tensor({0.f, -kInf, 0.f}));
  ASSERT_TRUE(r.ok());
  EXPECT_THAT(r->ToVector<float>(), ElementsAre(0.5f, 0.f, 0.5f));
  StatusOr<Tensor> log = LogSoftmax(Tensor({0.f, -kInf, 0.f}));
  ASSERT_TRUE(log.ok());
  EXPECT_THAT(log->ToVector<float>(),
              ElementsAre(-std::log(2.f), -kInf, -std::log(2.f)));
}

TEST(SoftmaxTest, AnyAxis) {
  // x:[2,3] softmax along axis 0: each column is softmax([x0j, x1j]).
  Tensor x({{1.0, 2.0, 3.0}, {3.0, 2.0, 1.0}});
  StatusOr<Tensor> r = Softmax(x, 0);
  ASSERT_TRUE(r.ok());
  const double p = 1.0 / (1.0 + std::exp(2.0));  // softmax([1, 3])[0]
  EXPECT_THAT(r->ToVector<double>(),
              Pointwise(DoubleNear(1e-15),
                        std::vector<double>{p, 0.5, 1 - p, 1 - p, 0.5, p}));
  StatusOr<Tensor> negative = Softmax(x, -2);
  ASSERT_TRUE(negative.ok());
  EXPECT_EQ(negative->ToVector<double>(), r->ToVector<double>());
}

TEST(SoftmaxTest, MiddleAxisMatchesTransposedLastAxis) {
  // x:[2,3,2]: softmax along axis 1 for each (i, k) is softmax of x[i, :, k].
  Tensor x(DT_DOUBLE, TensorShape({2, 3, 2}));
  for (int i = 0; i < 12; ++i) x.data<double>()[i] = std::sin(i) * 3;
  StatusOr<Tensor> r = Softmax(x, 1);
  StatusOr<Tensor> lr = LogSoftmax(x, 1);
  ASSERT_TRUE(r.ok() && lr.ok());
  for (int i = 0; i < 2; ++i) {
    for (int k = 0; k < 2; ++k) {
      double column[3];
      for (int j = 0; j < 3; ++j)
        column[j] = x.data<double>()[i * 6 + j * 2 + k];
      StatusOr<Tensor> expected =
          Softmax(Tensor({column[0], column[1], column[2]}));
      ASSERT_TRUE(expected.ok());
      for (int j = 0; j < 3; ++j) {
        EXPECT_NEAR(r->data<double>()[i * 6 + j * 2 + k],
                    expected->data<double>()[j], 1e-15);
        EXPECT_NEAR(lr->data<double>()[i * 6 + j * 2 + k],
                    std::log(expected->data<double>()[j]), 1e-14);
      }
    }
  }
}

TEST(SoftmaxTest, SizeOneAxisAndEmpty) {
  StatusOr<Tensor> one = Softmax(Tensor({{5.f}, {-3.f}}));
  ASSERT_TRUE(one.ok());
  EXPECT_THAT(one->ToVector<float>(), ElementsAre(1.f, 1.f));
  StatusOr<Tensor> log_one = LogSoftmax(Tensor({{5.f}, {-3.f}}));
  ASSERT_TRUE(log_one.ok());
  EXPECT_THAT(log_one->ToVector<float>(), ElementsAre(0.f, 0.f));
  StatusOr<Tensor> empty = Softmax(Tensor(DT_FLOAT, TensorShape({0, 10})));
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->shape(), TensorShape({0, 10}));
  StatusOr<Tensor> no_classes =
      LogSoftmax(Tensor(DT_DOUBLE, TensorShape({3, 0})));
  ASSERT_TRUE(no_classes.ok());
  EXPECT_EQ(no_classes->shape(), TensorShape({3, 0}));
}

TEST(LogSoftmaxTest, IsTheLogOfSoftmax) {
  StatusOr<Tensor> r = LogSoftmax(Tensor({1.0, 2.0, 3.0}));
  ASSERT_TRUE(r.ok());
  std::vector<double> expected;
  for (double p : Softmax123()) expected.push_back(std::log(p));
  // -2.40761, -1.40761, -0.40761.
  EXPECT_THAT(r->ToVector<double>(), Pointwise(DoubleNear(1e-15), expected));
}

TEST(LogSoftmaxTest, TinyProbabilitiesStayFinite) {
  // softmax gives exactly 0 for the last entry (e^-1000 underflows); the
  // log form keeps it as -1000, which is what a cross-entropy loss needs.
  StatusOr<Tensor> r = LogSoftmax(Tensor({0.0, -1000.0}));
  ASSERT_TRUE(r.ok());
  EXPECT_THAT(r->ToVector<double>(), ElementsAre(0.0, -1000.0));
}

// Rows shorter than two SIMD packets take a batch-wide path, longer ones a
// row-by-row path; both must give the textbook values.
TEST(SoftmaxTest, ShortAndLongRowsMatchDefinition) {
  for (int64_t n : {2, 10, 15, 16, 17, 100}) {
    const int64_t rows = 7;
    std::vector<double> x(rows * n);
    for (int64_t i = 0; i < rows * n; ++i) x[i] = std::sin(0.7 * i) * 20.0;
    const Tensor logits = Tensor::FromVector(x, TensorShape({rows, n})).value();
    StatusOr<Tensor> soft = Softmax(logits);
    StatusOr<Tensor> log_soft = LogSoftmax(logits);
    ASSERT_TRUE(soft.ok() && log_soft.ok());
    for (int64_t r = 0; r < rows; ++r) {
      double max = x[r * n];
      for (int64_t c = 0; c < n; ++c) max = std::max(max, x[r * n + c]);
      double sum = 0;
      for (int64_t c = 0; c < n; ++c) sum += std::exp(x[r * n + c] - max);
      for (int64_t c = 0; c < n; ++c) {
        const double z = x[r * n + c] - max;
        EXPECT_NEAR(soft->data<double>()[r * n + c], std::exp(z) / sum, 1e-15)
            << "n=" << n;
        EXPECT_NEAR(log_soft->data<double>()[r * n + c], z - std::log(sum),
                    1e-13)
            << "n=" << n;
      }
    }
  }
}

TEST(SoftmaxTest, Errors) {
  ExpectInvalidArgument(Softmax(Tensor(1.f)),
                        "logits must have >= 1 dimension, got []");
  ExpectInvalidArgument(LogSoftmax(Tensor(1.0)),
                        "logits must have >= 1 dimension, got []");
  ExpectInvalidArgument(Softmax(Tensor({1, 2})),
                        "Softmax has no kernel for dtype int32");
  ExpectInvalidArgument(LogSoftmax(Tensor({true})),
                        "LogSoftmax has no kernel for dtype bool");
  ExpectInvalidArgument(Softmax(Tensor({{1.f, 2.f}}), 2),
                        "Dimension (2) must be in the range [-2, 2), where 2 "
                        "is the number of dimensions in the "
                        "input.");
  ExpectInvalidArgument(Softmax(Tensor({{1.f, 2.f}}), -3),
                        "Dimension (-3) must be in the range [-2, 2), where 2 "
                        "is the number of dimensions in the "
                        "input.");
}

}  // namespace
}  // namespace minitf::kernels
