// Tests of exercise 02_softmax_xent_grad. They compare SoftmaxXentGrad with
// hand-worked values, with the gradient that tf::gradients builds for the
// library's SoftmaxCrossEntropyWithLogits op, and with the gradient
// checker's central differences of that op's loss. Logits of +-1000 are the
// point of one test: a softmax computed as written gives NaN for them. Every
// test fails on the starter, which returns Unimplemented.
#include "softmax_xent_grad.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "exercise_testing.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/train/gradients/gradient_checker.h"
#include "minitf/train/gradients/gradients.h"
#include "minitf/train/ops/grad_ops.h"

namespace minitf::exercises {
namespace {

// Distinct values in [-scale, scale].
Tensor Values(DType dtype, const TensorShape& shape, double seed,
              double scale) {
  Tensor t(dtype, shape);
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    const double v = scale * std::sin(seed + 2.3 * static_cast<double>(i));
    if (dtype == DT_DOUBLE) {
      t.data<double>()[i] = v;
    } else {
      t.data<float>()[i] = static_cast<float>(v);
    }
  }
  return t;
}

// One-hot rows: example b is of class (2 * b + 1) % classes.
Tensor OneHot(DType dtype, int64_t batch, int64_t classes) {
  Tensor t(dtype, TensorShape({batch, classes}));
  for (int64_t i = 0; i < batch * classes; ++i) {
    const bool hot = i % classes == (2 * (i / classes) + 1) % classes;
    if (dtype == DT_DOUBLE) {
      t.data<double>()[i] = hot;
    } else {
      t.data<float>()[i] = hot;
    }
  }
  return t;
}

TEST(SoftmaxXentGradTest, IsSoftmaxMinusLabelsForOneExample) {
  // softmax(1, 2, 3) = 0.0900, 0.2447, 0.6652; the label is class 2.
  ExpectFloats(SoftmaxXentGrad(Tensor({{1.f, 2.f, 3.f}}),
                               Tensor({{0.f, 0.f, 1.f}}), Tensor({1.f})),
               {1, 3}, {0.09003057f, 0.24472847f, -0.33475903f});
  // Equal logits: every class 1/4.
  ExpectFloats(SoftmaxXentGrad(Tensor({{0.f, 0.f, 0.f, 0.f}}),
                               Tensor({{1.f, 0.f, 0.f, 0.f}}), Tensor({1.f})),
               {1, 4}, {-0.75f, 0.25f, 0.25f, 0.25f});
}

TEST(SoftmaxXentGradTest, EachRowIsScaledByItsOwnIncomingGradient) {
  // The same example three times, its loss weighted 2, 0 and -0.5.
  ExpectFloats(SoftmaxXentGrad(Tensor({{0.f, 0.f}, {0.f, 0.f}, {0.f, 0.f}}),
                               Tensor({{1.f, 0.f}, {1.f, 0.f}, {1.f, 0.f}}),
                               Tensor({2.f, 0.f, -0.5f})),
               {3, 2}, {-1.f, 1.f, 0.f, 0.f, 0.25f, -0.25f});
}

TEST(SoftmaxXentGradTest, LogitsOfPlusAndMinus1000GiveNoNaN) {
  // exp(1000) overflows to inf and exp(-1000) underflows to 0: a softmax
  // without the max shift gives inf / inf and 0 / 0, both NaN.
  ExpectFloats(SoftmaxXentGrad(Tensor({{1000.f, 0.f, -1000.f},
                                       {1000.f, 1000.f, 1000.f},
                                       {-1000.f, -1000.f, -1000.f},
                                       {-1000.f, -999.f, -2000.f}}),
                               Tensor({{0.f, 1.f, 0.f},
                                       {1.f, 0.f, 0.f},
                                       {0.f, 0.f, 1.f},
                                       {1.f, 0.f, 0.f}}),
                               Tensor({1.f, 1.f, 1.f, 3.f})),
               {4, 3},
               {1.f, -1.f, 0.f,                   // p = (1, 0, 0)
                1.f / 3 - 1, 1.f / 3, 1.f / 3,    // p = (1/3, 1/3, 1/3)
                1.f / 3, 1.f / 3, 1.f / 3 - 1,    // the same, shifted down
                -2.19317573f, 2.19317573f, 0.f},  // p = (1, e, 0) / (1 + e), x3
               1e-5f);
}

TEST(SoftmaxXentGradTest, LabelsNeedNotBeOneHotNorSumToOne) {
  // loss = sum(labels) * logsumexp(z) - sum(labels * z), so d loss / d z is
  // p * sum(labels) - labels: soft labels, a row of none, a row summing to 2.
  ExpectFloats(SoftmaxXentGrad(Tensor({{0.f, 0.f}, {1.f, 2.f}, {0.f, 0.f}}),
                               Tensor({{0.25f, 0.75f}, {0.f, 0.f}, {1.f, 1.f}}),
                               Tensor({1.f, 1.f, 1.f})),
               {3, 2}, {0.25f, -0.25f, 0.f, 0.f, 0.f, 0.f});
  ExpectFloats(SoftmaxXentGrad(Tensor({{0.f, 0.f, 0.f, 0.f}}),
                               Tensor({{2.f, 0.f, 0.f, 0.f}}), Tensor({1.f})),
               {1, 4}, {-1.5f, 0.5f, 0.5f, 0.5f});
}

TEST(SoftmaxXentGradTest, AgreesWithTfGradientsOfTheLibraryOp) {
  Graph g;
  graph_scope use(g);
  const int64_t batch = 4, classes = 5;
  const Tensor logits_v = Values(DT_FLOAT, {batch, classes}, 0.4, 6.0);
  const Tensor labels_v = OneHot(DT_FLOAT, batch, classes);
  const Tensor grad_v = Values(DT_FLOAT, {batch}, 1.9, 2.0);
  Output logits = placeholder(DT_FLOAT, {None, classes}, "logits");
  Output labels = placeholder(DT_FLOAT, {None, classes}, "labels");
  Output grad_loss = placeholder(DT_FLOAT, {None}, "grad_loss");
  Output loss = nn::softmax_cross_entropy_with_logits(labels, logits);
  Output dlogits = gradients({loss}, {logits}, {grad_loss})[0];
  Session sess;
  const Tensor want = sess.run(
      dlogits, {{logits, logits_v}, {labels, labels_v}, {grad_loss, grad_v}});
  ExpectFloats(SoftmaxXentGrad(logits_v, labels_v, grad_v), want.shape(),
               want.ToVector<float>(), 1e-6f);
}

TEST(SoftmaxXentGradTest, AgreesWithTheGradientChecker) {
  Graph g;
  graph_scope use(g);
  const int64_t batch = 3, classes = 4;
  const Tensor logits_v = Values(DT_DOUBLE, {batch, classes}, 0.7, 3.0);
  Tensor labels_v = OneHot(DT_DOUBLE, batch, classes);
  labels_v.data<double>()[0] = 0.5;  // row 0 sums to 1.5, not 1
  const std::vector<float> grad = {1.f, -2.f, 0.5f};
  Output logits = placeholder(DT_DOUBLE, {batch, classes}, "logits");
  Output loss =
      nn::softmax_cross_entropy_with_logits(constant(labels_v), logits);
  // numeric[i][b] = d loss[b] / d logits_flat[i], by central differences.
  const Tensor numeric = test::compute_gradient(logits, logits_v, loss).second;
  std::vector<float> want(batch * classes);
  for (int64_t i = 0; i < batch * classes; ++i) {
    const int64_t b = i / classes;
    want[i] =
        static_cast<float>(grad[b] * numeric.data<double>()[i * batch + b]);
  }
  Tensor logits_f(DT_FLOAT, logits_v.shape()),
      labels_f(DT_FLOAT, labels_v.shape());
  for (int64_t i = 0; i < batch * classes; ++i) {
    logits_f.data<float>()[i] = static_cast<float>(logits_v.data<double>()[i]);
    labels_f.data<float>()[i] = static_cast<float>(labels_v.data<double>()[i]);
  }
  ExpectFloats(
      SoftmaxXentGrad(logits_f, labels_f, Tensor({grad[0], grad[1], grad[2]})),
      {batch, classes}, want, 1e-5f);
}

TEST(SoftmaxXentGradTest, LeavesItsInputsAlone) {
  const Tensor logits({{1.f, 2.f}, {3.f, 5.f}});
  const Tensor labels({{0.f, 1.f}, {1.f, 0.f}});
  const Tensor grad_loss({1.f, 1.f});
  StatusOr<Tensor> result = SoftmaxXentGrad(logits, labels, grad_loss);
  ASSERT_TRUE(Ok(result.status()));
  EXPECT_FALSE(result->SharesBufferWith(logits));
  EXPECT_FALSE(result->SharesBufferWith(labels));
  EXPECT_EQ(logits.ToVector<float>(), (std::vector<float>{1.f, 2.f, 3.f, 5.f}));
  EXPECT_EQ(labels.ToVector<float>(), (std::vector<float>{0.f, 1.f, 1.f, 0.f}));
}

TEST(SoftmaxXentGradTest, AnEmptyBatchGivesAnEmptyGradient) {
  ExpectFloats(SoftmaxXentGrad(Tensor(DT_FLOAT, TensorShape({0, 3})),
                               Tensor(DT_FLOAT, TensorShape({0, 3})),
                               Tensor(DT_FLOAT, TensorShape({0}))),
               {0, 3}, {});
}

TEST(SoftmaxXentGradTest, RejectsOtherDtypesAndShapes) {
  const Tensor m({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
  const Tensor g({1.f, 1.f});
  ExpectInvalid(SoftmaxXentGrad(Tensor(DT_INT32, TensorShape({2, 3})), m, g),
                "SoftmaxXentGrad needs float tensors, got int32");
  ExpectInvalid(SoftmaxXentGrad(m, Tensor(DT_DOUBLE, TensorShape({2, 3})), g),
                "SoftmaxXentGrad needs float tensors, got double");
  ExpectInvalid(SoftmaxXentGrad(m, m, Tensor(DT_INT64, TensorShape({2}))),
                "SoftmaxXentGrad needs float tensors, got int64");
  ExpectInvalid(SoftmaxXentGrad(m, Tensor(DT_FLOAT, TensorShape({2, 4})), g),
                "logits and labels must be same size and 2-D: "
                "logits_size=[2,3] labels_size=[2,4]");
  ExpectInvalid(SoftmaxXentGrad(Tensor({1.f, 2.f}), Tensor({1.f, 2.f}), g),
                "logits and labels must be same size and 2-D: "
                "logits_size=[2] labels_size=[2]");
  ExpectInvalid(SoftmaxXentGrad(m, m, Tensor({1.f, 1.f, 1.f})),
                "grad_loss must have one value per example: "
                "grad_loss_size=[3] logits_size=[2,3]");
  ExpectInvalid(SoftmaxXentGrad(m, m, Tensor({{1.f, 1.f}})),
                "grad_loss must have one value per example: "
                "grad_loss_size=[1,2] logits_size=[2,3]");
}

}  // namespace
}  // namespace minitf::exercises
