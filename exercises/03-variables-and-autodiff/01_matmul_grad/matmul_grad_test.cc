// Tests of exercise 01_matmul_grad. They call MatMulGrad on MatMul nodes
// built here, as tf::gradients calls a registered gradient function, run the
// ops it returns, and compare them with the gradient checker's two Jacobians:
// central differences, and the library's own MatMul gradient. Every test
// fails on the starter, which throws UnimplementedError.
#include "matmul_grad.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/train/gradients/gradient_checker.h"
#include "minitf/train/gradients/gradients.h"

namespace minitf::exercises {
namespace {

// Distinct values of both signs, so that a swapped operand or a missing
// transpose changes the answer.
Tensor Values(DType dtype, const TensorShape& shape, double seed) {
  Tensor t(dtype, shape);
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    const double v = std::sin(seed + 1.7 * static_cast<double>(i));
    if (dtype == DT_DOUBLE) {
      t.data<double>()[i] = v;
    } else {
      t.data<float>()[i] = static_cast<float>(v);
    }
  }
  return t;
}

std::string Describe(bool ta, bool tb) {
  return StrCat("c = matmul(a, b, transpose_a=", ta ? "true" : "false",
                ", transpose_b=", tb ? "true" : "false", ")");
}

// The Jacobians of c with respect to a and b, [a.size, c.size] and
// [b.size, c.size] as the gradient checker lays them out, from the ops that
// MatMulGrad builds: column j is what they compute for dc = one-hot j.
void JacobiansFromMatMulGrad(Output c, const FeedDict& feeds, Tensor* ja,
                             Tensor* jb) {
  Output dc = placeholder(DT_DOUBLE, c.shape(), "dc");
  std::vector<Output> g = MatMulGrad(c.op(), {dc});
  ASSERT_EQ(g.size(), 2u) << "MatMulGrad must return one gradient per input";
  ASSERT_TRUE(g[0].valid() && g[1].valid()) << "a gradient is missing";
  const int64_t n = c.shape().num_elements();
  const int64_t na = c.op().input(0).shape().num_elements();
  const int64_t nb = c.op().input(1).shape().num_elements();
  *ja = Tensor(DT_DOUBLE, TensorShape({na, n}));
  *jb = Tensor(DT_DOUBLE, TensorShape({nb, n}));
  Session sess;
  for (int64_t j = 0; j < n; ++j) {
    Tensor one_hot(DT_DOUBLE, c.shape());
    for (int64_t k = 0; k < n; ++k) one_hot.data<double>()[k] = k == j;
    FeedDict f = feeds;
    f.emplace_back(dc, one_hot);
    std::vector<Tensor> r = sess.run({g[0], g[1]}, f);
    ASSERT_EQ(r[0].NumElements(), na)
        << "da has " << r[0].shape() << ", not a's shape";
    ASSERT_EQ(r[1].NumElements(), nb)
        << "db has " << r[1].shape() << ", not b's shape";
    for (int64_t i = 0; i < na; ++i) {
      ja->data<double>()[i * n + j] = r[0].data<double>()[i];
    }
    for (int64_t i = 0; i < nb; ++i) {
      jb->data<double>()[i * n + j] = r[1].data<double>()[i];
    }
  }
}

// Names the first few entries that differ: "d c[j] / d x[i]" over the flat
// (row-major) element indices.
void ExpectJacobianNear(const Tensor& got, const Tensor& want, double tol,
                        const std::string& what) {
  ASSERT_EQ(got.shape(), want.shape()) << what;
  const int64_t cols = want.dim_size(1);
  int shown = 0;
  for (int64_t k = 0; k < want.NumElements(); ++k) {
    const double g = got.data<double>()[k], w = want.data<double>()[k];
    if (std::abs(g - w) <= tol) continue;
    ADD_FAILURE() << what << ": d c[" << k % cols << "] / d " << what[0] << "["
                  << k / cols << "] is " << g << ", expected " << w;
    if (++shown == 3) return;
  }
}

void ExpectGradientsMatch(bool ta, bool tb) {
  SCOPED_TRACE(Describe(ta, tb));
  // a holds [2,3] as the product reads it, b [3,4]; c is [2,4].
  Graph g;
  graph_scope use(g);
  Output a = placeholder(DT_DOUBLE,
                         ta ? TensorShape({3, 2}) : TensorShape({2, 3}), "a");
  Output b = placeholder(DT_DOUBLE,
                         tb ? TensorShape({4, 3}) : TensorShape({3, 4}), "b");
  Output c = matmul(a, b, ta, tb);
  const Tensor av = Values(DT_DOUBLE, a.shape(), 0.3);
  const Tensor bv = Values(DT_DOUBLE, b.shape(), 1.1);
  Tensor ja, jb;
  ASSERT_NO_FATAL_FAILURE(
      JacobiansFromMatMulGrad(c, {{a, av}, {b, bv}}, &ja, &jb));
  auto [theory_a, numeric_a] = test::compute_gradient(a, av, c, {{b, bv}});
  auto [theory_b, numeric_b] = test::compute_gradient(b, bv, c, {{a, av}});
  ExpectJacobianNear(ja, numeric_a, 1e-6, "a against central differences");
  ExpectJacobianNear(jb, numeric_b, 1e-6, "b against central differences");
  ExpectJacobianNear(ja, theory_a, 1e-12, "a against the library's gradient");
  ExpectJacobianNear(jb, theory_b, 1e-12, "b against the library's gradient");
}

TEST(MatMulGradTest, PlainProductMatchesTheGradientChecker) {
  ExpectGradientsMatch(false, false);
}

TEST(MatMulGradTest, TransposeBMatchesTheGradientChecker) {
  ExpectGradientsMatch(false, true);
}

TEST(MatMulGradTest, TransposeAMatchesTheGradientChecker) {
  ExpectGradientsMatch(true, false);
}

TEST(MatMulGradTest, BothTransposedMatchesTheGradientChecker) {
  ExpectGradientsMatch(true, true);
}

TEST(MatMulGradTest, EachGradientHasItsInputsStoredShapeAndDtype) {
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      SCOPED_TRACE(Describe(ta, tb));
      Graph g;
      graph_scope use(g);
      // The batch is None: the gradients must keep what is known.
      Output a = placeholder(
          DT_FLOAT, ta ? TensorShape({3, None}) : TensorShape({None, 3}), "a");
      Output b = placeholder(
          DT_FLOAT, tb ? TensorShape({4, 3}) : TensorShape({3, 4}), "b");
      Output c = matmul(a, b, ta, tb);
      Output dc = placeholder(DT_FLOAT, c.shape(), "dc");
      std::vector<Output> grads = MatMulGrad(c.op(), {dc});
      ASSERT_EQ(grads.size(), 2u);
      ASSERT_TRUE(grads[0].valid() && grads[1].valid());
      EXPECT_EQ(grads[0].shape().DebugString(), a.shape().DebugString());
      EXPECT_EQ(grads[1].shape().DebugString(), b.shape().DebugString());
      EXPECT_EQ(grads[0].dtype(), DT_FLOAT);
      EXPECT_EQ(grads[1].dtype(), DT_FLOAT);
    }
  }
}

TEST(MatMulGradTest, AgreesWithTfGradientsForABatchKnownOnlyAtRunTime) {
  Graph g;
  graph_scope use(g);
  Output x = placeholder(DT_FLOAT, {None, 3}, "x");
  Output w = constant(Values(DT_FLOAT, TensorShape({3, 2}), 0.5), "w");
  Output y = matmul(x, w);
  Output dy = placeholder(DT_FLOAT, {None, 2}, "dy");
  std::vector<Output> mine = MatMulGrad(y.op(), {dy});
  ASSERT_EQ(mine.size(), 2u);
  std::vector<Output> library = gradients({y}, {x, w}, {dy});
  Session sess;
  std::vector<Tensor> r =
      sess.run({mine[0], mine[1], library[0], library[1]},
               {{x, Values(DT_FLOAT, TensorShape({5, 3}), 2.0)},
                {dy, Values(DT_FLOAT, TensorShape({5, 2}), 4.0)}});
  for (int i = 0; i < 2; ++i) {
    SCOPED_TRACE(i == 0 ? "dx" : "dw");
    ASSERT_EQ(r[i].shape(), r[i + 2].shape());
    for (int64_t k = 0; k < r[i].NumElements(); ++k) {
      EXPECT_NEAR(r[i].data<float>()[k], r[i + 2].data<float>()[k], 1e-5)
          << "element " << k;
    }
  }
}

// y = x w, loss = mean((y - t)^2). tf::gradients gives d loss / d y; the
// last link of the chain, d loss / d w, is MatMulGrad's. Gradient descent
// on it must find the w that made t.
TEST(MatMulGradTest, TrainsALinearModelAsTheLastLinkOfBackprop) {
  Graph g;
  graph_scope use(g);
  Output x = constant({1.f, 0.f, 0.f, 1.f, 1.f, 1.f, 2.f, -1.f}, {4, 2}, "x");
  Output t = constant({2.f, -3.f, -1.f, 7.f}, {4, 1}, "t");  // x [2,-3]
  Output w = placeholder(DT_FLOAT, {2, 1}, "w");
  Output y = matmul(x, w);
  Output loss = reduce_mean(square(y - t));
  Output dy = gradients({loss}, {y})[0];
  std::vector<Output> grads = MatMulGrad(y.op(), {dy});
  ASSERT_EQ(grads.size(), 2u);
  Session sess;
  Tensor wv(DT_FLOAT, TensorShape({2, 1}));
  wv.data<float>()[0] = wv.data<float>()[1] = 0.f;
  for (int step = 0; step < 200; ++step) {
    Tensor dw = sess.run(grads[1], {{w, wv}});
    ASSERT_EQ(dw.shape(), wv.shape());
    for (int i = 0; i < 2; ++i)
      wv.data<float>()[i] -= 0.2f * dw.data<float>()[i];
  }
  EXPECT_NEAR(wv.data<float>()[0], 2.f, 1e-4);
  EXPECT_NEAR(wv.data<float>()[1], -3.f, 1e-4);
}

}  // namespace
}  // namespace minitf::exercises
