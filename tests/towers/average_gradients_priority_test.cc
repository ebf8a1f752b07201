// An average_gradients function registered above the library's priority 0
// (average_gradients.h): the towers' gradients go to it while it is there,
// and to the library's again once it is removed.
#include <gtest/gtest.h>

#include <vector>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/towers/average_gradients.h"

namespace minitf {
namespace {

// The mean of two towers' one gradient, {1, 3} and {3, 5}.
float MeanOfTheFirstElement() {
  Graph g;
  graph_scope use(g);
  auto a = constant({1.f, 3.f}, {2}, "a");
  auto b = constant({3.f, 5.f}, {2}, "b");
  Output mean = average_gradients({{a}, {b}})[0];
  Session sess(SessionOptions{}, &g);
  return sess.run(mean).data<float>()[0];
}

TEST(AverageGradientsPriorityTest,
     AHigherPriorityFunctionAveragesUntilRemoved) {
  ASSERT_EQ(MeanOfTheFirstElement(), 2.f);
  // A wrong mean on purpose, the last tower's: the answer says whose it is.
  ASSERT_TRUE(RegisterAverageGradientsFunction(
                  [](const std::vector<std::vector<Output>>& towers) {
                    return towers.back();
                  },
                  1)
                  .ok());
  EXPECT_EQ(MeanOfTheFirstElement(), 3.f);
  ASSERT_TRUE(UnregisterAverageGradientsFunction(1).ok());
  EXPECT_EQ(MeanOfTheFirstElement(), 2.f);
}

TEST(AverageGradientsPriorityTest, TheLibrarysFunctionStays) {
  Status s = RegisterAverageGradientsFunction(nullptr, 0);
  EXPECT_EQ(s.code(), error::ALREADY_EXISTS);
  EXPECT_EQ(s.message(),
            "An average_gradients function with priority 0 is already "
            "registered");
  s = UnregisterAverageGradientsFunction(0);
  EXPECT_EQ(s.code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(s.message(),
            "The library's average_gradients (priority 0) cannot be removed");
  EXPECT_EQ(UnregisterAverageGradientsFunction(1).code(), error::NOT_FOUND);
  EXPECT_EQ(MeanOfTheFirstElement(), 2.f);
}

}  // namespace
}  // namespace minitf
