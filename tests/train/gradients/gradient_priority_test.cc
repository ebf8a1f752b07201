// A gradient registered above the library's priority 0 (gradients.h):
// tf::gradients uses it while it is there, and the library's function again
// once it is removed.
#include <gtest/gtest.h>

#include <vector>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/train/gradients/gradients.h"

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

TEST(GradientPriorityTest, AHigherPriorityGradientWinsUntilRemoved) {
  GradientRegistry* registry = GradientRegistry::Global();
  ASSERT_EQ(SquareGradient(), (std::vector<float>{2, 4, 6}));
  const GradFn* registered = registry->Lookup("Square");
  ASSERT_NE(registered, nullptr);
  // A wrong gradient on purpose, dx = dy: the answer says whose it is.
  registry->Register(
      "Square",
      [](const Operation&, const std::vector<Output>& grads) {
        return std::vector<Output>{identity(grads[0])};
      },
      1);
  EXPECT_EQ(SquareGradient(), (std::vector<float>{1, 1, 1}));
  EXPECT_NE(registry->Lookup("Square"), registered);
  ASSERT_TRUE(registry->Unregister("Square", 1).ok());
  EXPECT_EQ(registry->Lookup("Square"), registered);
  EXPECT_EQ(SquareGradient(), (std::vector<float>{2, 4, 6}));
}

TEST(GradientPriorityTest, UnregisteringWhatIsNotThereIsNotFound) {
  Status s = GradientRegistry::Global()->Unregister("Square", 1);
  EXPECT_EQ(s.code(), error::NOT_FOUND);
  EXPECT_EQ(s.message(),
            "No gradient for 'Square' with priority 1 is registered");
  EXPECT_EQ(SquareGradient(), (std::vector<float>{2, 4, 6}));
}

}  // namespace
}  // namespace minitf
