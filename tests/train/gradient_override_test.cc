// An exercise's override of a registered gradient (gradient_override.h):
// tf::gradients uses it while it is there, and the registered function again
// once it is removed.
#include "minitf/train/gradients/gradient_override.h"

#include <gtest/gtest.h>

#include <vector>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"

namespace minitf {
namespace {

std::vector<float> Values(const Tensor& t) {
  return std::vector<float>(t.data<float>(), t.data<float>() + t.NumElements());
}

// d square(x) / dx, computed by whatever function the registry gives.
std::vector<float> SquareGradient() {
  Graph g;
  graph_scope use(g);
  auto x = constant({1.f, 2.f, 3.f}, {3}, "x");
  auto dx = gradients({square(x)}, {x})[0];
  Session sess(SessionOptions{}, &g);
  return Values(sess.run(dx));
}

TEST(GradientOverrideTest, AnOverrideWinsUntilRemoved) {
  ASSERT_EQ(SquareGradient(), (std::vector<float>{2, 4, 6}));
  const GradFn* registered = GradientRegistry::Global()->Lookup("Square");
  ASSERT_NE(registered, nullptr);
  // A wrong gradient on purpose, dx = dy: the answer says whose it is.
  OverrideGradientForExercise(
      "Square", [](const Operation&, const std::vector<Output>& grads) {
        return std::vector<Output>{identity(grads[0])};
      });
  EXPECT_EQ(SquareGradient(), (std::vector<float>{1, 1, 1}));
  EXPECT_NE(GradientRegistry::Global()->Lookup("Square"), registered);
  RemoveGradientOverrideForExercise("Square");
  EXPECT_EQ(GradientRegistry::Global()->Lookup("Square"), registered);
  EXPECT_EQ(SquareGradient(), (std::vector<float>{2, 4, 6}));
}

TEST(GradientOverrideTest, RemovingWhatWasNeverOverriddenChangesNothing) {
  RemoveGradientOverrideForExercise("Square");
  EXPECT_EQ(SquareGradient(), (std::vector<float>{2, 4, 6}));
}

}  // namespace
}  // namespace minitf
