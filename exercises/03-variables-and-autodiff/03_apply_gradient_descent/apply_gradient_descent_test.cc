// Tests of exercise 03_apply_gradient_descent. They check the update by hand,
// that it lands in the variable's own buffer, and that a run of steps and
// every error match the library's ApplyGradientDescent kernel, run through a
// Session on a tf::Variable. Every test fails on the starter, which returns
// Unimplemented.
#include "apply_gradient_descent.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "exercise_testing.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/train/ops/training_ops.h"
#include "minitf/train/variables.h"

namespace minitf::exercises {
namespace {

TEST(ApplyGradientDescentTest, SubtractsAlphaTimesDelta) {
  Tensor w({1.f, 2.f, 3.f});
  ASSERT_TRUE(
      Ok(ApplyGradientDescent(&w, Tensor(0.1f), Tensor({1.f, -2.f, 0.f}))));
  EXPECT_EQ(w.shape(), TensorShape({3}));
  EXPECT_FLOAT_EQ(w.data<float>()[0], 1.f - 0.1f * 1.f);
  EXPECT_FLOAT_EQ(w.data<float>()[1], 2.f + 0.1f * 2.f);
  EXPECT_FLOAT_EQ(w.data<float>()[2], 3.f);
}

TEST(ApplyGradientDescentTest, WorksForDoubleMatricesAndScalars) {
  Tensor m({{1.0, 2.0}, {3.0, 4.0}});
  ASSERT_TRUE(Ok(ApplyGradientDescent(&m, Tensor(0.5),
                                      Tensor({{2.0, 2.0}, {-2.0, 8.0}}))));
  EXPECT_EQ(m.ToVector<double>(), (std::vector<double>{0.0, 1.0, 4.0, 0.0}));
  Tensor s(10.0);
  ASSERT_TRUE(Ok(ApplyGradientDescent(&s, Tensor(0.25), Tensor(4.0))));
  EXPECT_EQ(s.scalar<double>(), 9.0);
  Tensor empty(DT_FLOAT, TensorShape({0, 3}));
  EXPECT_TRUE(Ok(ApplyGradientDescent(&empty, Tensor(1.f),
                                      Tensor(DT_FLOAT, TensorShape({0, 3})))));
}

TEST(ApplyGradientDescentTest, UpdatesTheVariablesOwnBuffer) {
  Tensor w({1.f, 2.f});
  const Tensor reader = w;  // shares w's buffer, as a variable's readers do
  const float* before = w.data<float>();
  ASSERT_TRUE(Ok(ApplyGradientDescent(&w, Tensor(1.f), Tensor({1.f, 1.f}))));
  EXPECT_EQ(w.data<float>(), before) << "var must be updated in place";
  EXPECT_TRUE(w.SharesBufferWith(reader));
  EXPECT_EQ(reader.ToVector<float>(), (std::vector<float>{0.f, 1.f}));
}

TEST(ApplyGradientDescentTest, StepsMatchTheLibraryKernel) {
  Graph g;
  graph_scope use(g);
  const Tensor initial({0.5f, -1.5f, 2.f, 7.f});
  Variable w(initial.DeepCopy(), "weight");
  Output delta = placeholder(DT_FLOAT, {4}, "delta");
  Output step = apply_gradient_descent(w.ref(), constant(0.05f), delta);
  Session sess;
  sess.run(w.initializer());
  Tensor mine = initial.DeepCopy();
  for (int i = 0; i < 5; ++i) {
    Tensor d(DT_FLOAT, TensorShape({4}));
    for (int k = 0; k < 4; ++k) {
      d.data<float>()[k] = std::sin(1.3f * static_cast<float>(i * 4 + k));
    }
    const Tensor library = sess.run(step, {{delta, d}});
    ASSERT_TRUE(Ok(ApplyGradientDescent(&mine, Tensor(0.05f), d)));
    for (int k = 0; k < 4; ++k) {
      EXPECT_NEAR(mine.data<float>()[k], library.data<float>()[k], 1e-6)
          << "step " << i << ", element " << k;
    }
  }
}

TEST(ApplyGradientDescentTest, ErrorsAreTheLibraryKernels) {
  Graph g;
  graph_scope use(g);
  Variable w(Tensor({1.f, 2.f}), "weight");
  // Placeholders of unknown shape, so that only the kernel can object.
  Output alpha = placeholder(DT_FLOAT, TensorShape::UnknownRank(), "alpha");
  Output delta = placeholder(DT_FLOAT, TensorShape::UnknownRank(), "delta");
  Output step = apply_gradient_descent(w.ref(), alpha, delta);
  Session sess;
  sess.run(w.initializer());

  Tensor mine({1.f, 2.f});
  const std::string shape_error = LibraryError([&] {
    sess.run(step, {{alpha, Tensor(0.1f)}, {delta, Tensor({1.f, 1.f, 1.f})}});
  });
  EXPECT_EQ(shape_error, "var and delta do not have the same shape[2] [3]");
  ExpectInvalid(
      ApplyGradientDescent(&mine, Tensor(0.1f), Tensor({1.f, 1.f, 1.f})),
      shape_error);
  const std::string alpha_error = LibraryError([&] {
    sess.run(step, {{alpha, Tensor({0.1f})}, {delta, Tensor({1.f, 1.f})}});
  });
  EXPECT_EQ(alpha_error, "alpha is not a scalar: [1]");
  ExpectInvalid(ApplyGradientDescent(&mine, Tensor({0.1f}), Tensor({1.f, 1.f})),
                alpha_error);
  Tensor counts({1, 2});
  ExpectInvalid(ApplyGradientDescent(&counts, Tensor(1), Tensor({1, 1})),
                "ApplyGradientDescent does not support int32");
}

TEST(ApplyGradientDescentTest, ChecksInTheKernelsOrderAndWritesNothingOnError) {
  Tensor w({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
  // A wrong delta and a wrong alpha: the delta is reported.
  ExpectInvalid(
      ApplyGradientDescent(&w, Tensor({1.f, 1.f}), Tensor({1.f, 2.f, 3.f})),
      "var and delta do not have the same shape[2,3] [3]");
  ExpectInvalid(
      ApplyGradientDescent(&w, Tensor({1.f, 1.f}),
                           Tensor({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}})),
      "alpha is not a scalar: [2]");
  Tensor counts({1, 2});
  ExpectInvalid(ApplyGradientDescent(&counts, Tensor({1, 1}), Tensor({1, 1})),
                "alpha is not a scalar: [2]");
  EXPECT_EQ(w.ToVector<float>(),
            (std::vector<float>{1.f, 2.f, 3.f, 4.f, 5.f, 6.f}));
  EXPECT_EQ(counts.ToVector<int32_t>(), (std::vector<int32_t>{1, 2}));
}

}  // namespace
}  // namespace minitf::exercises
