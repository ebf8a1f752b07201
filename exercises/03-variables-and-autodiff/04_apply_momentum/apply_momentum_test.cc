// Tests of exercise 04_apply_momentum. They follow hand-computed sequences of
// steps (plain and Nesterov), compare a run of steps with
// tf::train::MomentumOptimizer training a variable in a Session, check that
// var and accum are updated in their own buffers, and compare every error
// with the library's ApplyMomentum kernel. Every test fails on the starter,
// which returns Unimplemented.
#include "apply_momentum.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "exercise_testing.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/train/ops/training_ops.h"
#include "minitf/train/optimizers/momentum.h"
#include "minitf/train/variables.h"

namespace minitf::exercises {
namespace {

// Four steps with grad = 1, lr = 0.1, momentum = 0.9 from var = 1,
// accum = 0, checked after each against `accums` and `vars`.
void ExpectSequence(bool use_nesterov, const std::vector<float>& accums,
                    const std::vector<float>& vars) {
  Tensor w(1.f), accum(0.f);
  for (size_t step = 0; step < vars.size(); ++step) {
    ASSERT_TRUE(Ok(ApplyMomentum(&w, &accum, Tensor(0.1f), Tensor(1.f),
                                 Tensor(0.9f), use_nesterov)));
    EXPECT_NEAR(accum.scalar<float>(), accums[step], 1e-6)
        << "accum after step " << step + 1;
    EXPECT_NEAR(w.scalar<float>(), vars[step], 1e-6)
        << "var after step " << step + 1;
  }
}

TEST(ApplyMomentumTest, FollowsTheHandComputedSequence) {
  // accum = 0.9 accum + 1;  var -= 0.1 accum.
  ExpectSequence(false, {1.f, 1.9f, 2.71f, 3.439f},
                 {0.9f, 0.71f, 0.439f, 0.0951f});
}

TEST(ApplyMomentumTest, NesterovFollowsTheHandComputedSequence) {
  // The same accum; var -= 0.1 * (1 + 0.9 accum): 0.19, 0.271, 0.3439 ...
  ExpectSequence(true, {1.f, 1.9f, 2.71f, 3.439f},
                 {0.81f, 0.539f, 0.1951f, -0.21441f});
}

TEST(ApplyMomentumTest, MomentumZeroIsGradientDescent) {
  for (bool nesterov : {false, true}) {
    SCOPED_TRACE(nesterov ? "use_nesterov" : "plain");
    Tensor w({{1.0, 2.0}, {3.0, 4.0}});
    Tensor accum({{5.0, 5.0}, {5.0, 5.0}});  // forgotten at once
    const Tensor grad({{1.0, -2.0}, {0.5, 0.0}});
    ASSERT_TRUE(Ok(
        ApplyMomentum(&w, &accum, Tensor(0.5), grad, Tensor(0.0), nesterov)));
    EXPECT_EQ(accum.ToVector<double>(), grad.ToVector<double>());
    EXPECT_EQ(w.ToVector<double>(), (std::vector<double>{0.5, 3.0, 2.75, 4.0}));
  }
}

TEST(ApplyMomentumTest, UpdatesVarAndAccumInTheirOwnBuffers) {
  Tensor w({1.f, 2.f}), accum({0.f, 0.f});
  const Tensor w_reader = w, accum_reader = accum;
  ASSERT_TRUE(Ok(ApplyMomentum(&w, &accum, Tensor(1.f), Tensor({1.f, 2.f}),
                               Tensor(0.5f), false)));
  EXPECT_TRUE(w.SharesBufferWith(w_reader)) << "var must be updated in place";
  EXPECT_TRUE(accum.SharesBufferWith(accum_reader))
      << "accum must be updated in place";
  EXPECT_EQ(w_reader.ToVector<float>(), (std::vector<float>{0.f, 0.f}));
  EXPECT_EQ(accum_reader.ToVector<float>(), (std::vector<float>{1.f, 2.f}));
}

// Minimizes sum((w - target)^2) with MomentumOptimizer in a Session and with
// ApplyMomentum on plain tensors, whose gradient 2 (w - target) is computed
// here; the variable and its slot must agree after every step.
void ExpectSameTrainingAsMomentumOptimizer(bool use_nesterov) {
  SCOPED_TRACE(use_nesterov ? "use_nesterov" : "plain");
  Graph g;
  graph_scope use(g);
  const std::vector<float> start = {3.f, -1.f, 0.5f};
  const std::vector<float> target = {1.f, 2.f, -2.f};
  Variable w(Tensor({start[0], start[1], start[2]}), "weight");
  Output loss = reduce_sum(
      square(w.value() - constant({target[0], target[1], target[2]}, {3})));
  train::MomentumOptimizer opt(0.05, 0.9, use_nesterov);
  Operation train_op = opt.minimize(loss);
  Variable slot = opt.get_slot(w, "momentum");
  Session sess;
  sess.run(global_variables_initializer());

  Tensor mine({start[0], start[1], start[2]}), accum({0.f, 0.f, 0.f});
  for (int step = 1; step <= 8; ++step) {
    Tensor grad(DT_FLOAT, TensorShape({3}));
    for (int k = 0; k < 3; ++k) {
      grad.data<float>()[k] = 2.f * (mine.data<float>()[k] - target[k]);
    }
    ASSERT_TRUE(Ok(ApplyMomentum(&mine, &accum, Tensor(0.05f), grad,
                                 Tensor(0.9f), use_nesterov)));
    sess.run(train_op);
    const std::vector<Tensor> library = sess.run({w.value(), slot.value()});
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(mine.data<float>()[k], library[0].data<float>()[k], 1e-5)
          << "var after step " << step << ", element " << k;
      EXPECT_NEAR(accum.data<float>()[k], library[1].data<float>()[k], 1e-5)
          << "accum after step " << step << ", element " << k;
    }
  }
}

TEST(ApplyMomentumTest, TrainsAsMomentumOptimizerDoes) {
  ExpectSameTrainingAsMomentumOptimizer(false);
}

TEST(ApplyMomentumTest, TrainsAsNesterovMomentumOptimizerDoes) {
  ExpectSameTrainingAsMomentumOptimizer(true);
}

TEST(ApplyMomentumTest, ErrorsAreTheLibraryKernels) {
  Graph g;
  graph_scope use(g);
  Variable w(Tensor({1.f, 2.f}), "weight");
  Variable slot(Tensor({0.f, 0.f}), "accum");
  // Placeholders of unknown shape, so that only the kernel can object.
  const TensorShape unknown = TensorShape::UnknownRank();
  Output lr = placeholder(DT_FLOAT, unknown, "lr");
  Output grad = placeholder(DT_FLOAT, unknown, "grad");
  Output momentum = placeholder(DT_FLOAT, unknown, "momentum");
  Output step = apply_momentum(w.ref(), slot.ref(), lr, grad, momentum);
  Session sess;
  sess.run(global_variables_initializer());
  auto library_error = [&](const Tensor& lr_v, const Tensor& grad_v,
                           const Tensor& momentum_v) {
    return LibraryError([&] {
      sess.run(step, {{lr, lr_v}, {grad, grad_v}, {momentum, momentum_v}});
    });
  };
  Tensor var({1.f, 2.f}), accum({0.f, 0.f});
  const Tensor two({1.f, 1.f});

  std::string want =
      library_error(Tensor(0.1f), Tensor({{1.f, 2.f}}), Tensor(0.9f));
  EXPECT_EQ(want, "var and grad do not have the same shape[2] [1,2]");
  ExpectInvalid(ApplyMomentum(&var, &accum, Tensor(0.1f), Tensor({{1.f, 2.f}}),
                              Tensor(0.9f), false),
                want);
  want = library_error(Tensor({0.1f}), two, Tensor(0.9f));
  EXPECT_EQ(want, "lr is not a scalar: [1]");
  ExpectInvalid(
      ApplyMomentum(&var, &accum, Tensor({0.1f}), two, Tensor(0.9f), false),
      want);
  want = library_error(Tensor(0.1f), two, Tensor({0.9f}));
  EXPECT_EQ(want, "momentum is not a scalar: [1]");
  ExpectInvalid(
      ApplyMomentum(&var, &accum, Tensor(0.1f), two, Tensor({0.9f}), true),
      want);

  // The slot always has the variable's shape in a graph: by hand.
  Tensor short_accum({0.f});
  ExpectInvalid(
      ApplyMomentum(&var, &short_accum, Tensor(0.1f), two, Tensor(0.9f), false),
      "var and accum do not have the same shape[2] [1]");
  Tensor counts({1, 2}), count_accum({0, 0});
  ExpectInvalid(ApplyMomentum(&counts, &count_accum, Tensor(1), Tensor({1, 1}),
                              Tensor(0), false),
                "ApplyMomentum does not support int32");
}

TEST(ApplyMomentumTest, ChecksInTheKernelsOrderAndWritesNothingOnError) {
  Tensor var({1.f, 2.f}), accum({0.5f, 0.5f});
  const Tensor bad_scalar({1.f, 1.f});
  ExpectInvalid(
      ApplyMomentum(&var, &accum, bad_scalar, Tensor({1.f}), bad_scalar, false),
      "var and grad do not have the same shape[2] [1]");
  ExpectInvalid(ApplyMomentum(&var, &accum, bad_scalar, Tensor({1.f, 1.f}),
                              bad_scalar, false),
                "lr is not a scalar: [2]");
  Tensor long_accum({0.f, 0.f, 0.f});
  ExpectInvalid(ApplyMomentum(&var, &long_accum, Tensor(0.1f), Tensor({1.f}),
                              Tensor(0.9f), false),
                "var and accum do not have the same shape[2] [3]");
  Tensor counts({1, 2}), count_accum({0, 0});
  ExpectInvalid(ApplyMomentum(&counts, &count_accum, Tensor(1), Tensor({1, 1}),
                              Tensor({0, 0}), false),
                "momentum is not a scalar: [2]");
  EXPECT_EQ(var.ToVector<float>(), (std::vector<float>{1.f, 2.f}));
  EXPECT_EQ(accum.ToVector<float>(), (std::vector<float>{0.5f, 0.5f}));
  EXPECT_EQ(long_accum.ToVector<float>(), (std::vector<float>{0.f, 0.f, 0.f}));
  EXPECT_EQ(counts.ToVector<int32_t>(), (std::vector<int32_t>{1, 2}));
}

}  // namespace
}  // namespace minitf::exercises
