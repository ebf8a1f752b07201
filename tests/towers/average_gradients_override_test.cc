// An exercise's override of average_gradients
// (average_gradients_override.h): the towers' gradients go to it while it is
// there, in both forms of average_gradients, and to the library's again once
// it is removed.
#include "minitf/towers/average_gradients_override.h"

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

TEST(AverageGradientsOverrideTest, AnOverrideAveragesUntilRemoved) {
  ASSERT_EQ(MeanOfTheFirstElement(), 2.f);
  // A wrong mean on purpose, the last tower's: the answer says whose it is.
  OverrideAverageGradientsForExercise(
      [](const std::vector<std::vector<Output>>& towers) {
        return towers.back();
      });
  EXPECT_EQ(MeanOfTheFirstElement(), 3.f);
  RemoveAverageGradientsOverrideForExercise();
  EXPECT_EQ(MeanOfTheFirstElement(), 2.f);
}

}  // namespace
}  // namespace minitf
