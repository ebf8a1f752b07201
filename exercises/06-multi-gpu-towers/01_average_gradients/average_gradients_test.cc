// Tests of exercise 01_average_gradients. The starter throws
// UnimplementedError, so every test fails on it; a correct AverageGradients
// builds the tutorial's three ops per variable and gives the library's mean.
#include "average_gradients.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/tensor/errors.h"
#include "minitf/towers/average_gradients.h"

namespace minitf::exercises {
namespace {

template <typename F>
std::string ErrorOf(F f) {
  try {
    f();
  } catch (const errors::InvalidArgumentError& e) {
    return e.what();
  }
  return "";
}

Output Const(const std::vector<float>& v, const std::vector<int64_t>& shape) {
  return constant(
      errors::ValueOrThrow(Tensor::FromVector(v, TensorShape(shape))));
}

TEST(AverageGradientsExerciseTest, TheMeanOfEachVariablesGradients) {
  Graph g;
  graph_scope use(g);
  // Three towers, two variables: a [2,2] weight and a [3] bias.
  std::vector<std::vector<Output>> tower_grads = {
      {Const({1, 2, 3, 4}, {2, 2}), Const({1, 1, 1}, {3})},
      {Const({3, 2, 1, 0}, {2, 2}), Const({2, 4, 6}, {3})},
      {Const({2, 5, 8, 2}, {2, 2}), Const({0, 1, 2}, {3})}};
  std::vector<Output> mine = AverageGradients(tower_grads);
  ASSERT_EQ(mine.size(), 2u);
  Session sess;
  auto r = sess.run({mine[0], mine[1]});
  const std::vector<float> w = {2, 3, 4, 2}, b = {1, 2, 3};
  ASSERT_EQ(r[0].shape(), TensorShape({2, 2}));
  ASSERT_EQ(r[1].shape(), TensorShape({3}));
  for (int i = 0; i < 4; ++i) EXPECT_FLOAT_EQ(r[0].data<float>()[i], w[i]);
  for (int i = 0; i < 3; ++i) EXPECT_FLOAT_EQ(r[1].data<float>()[i], b[i]);
}

TEST(AverageGradientsExerciseTest, BuildsTheTutorialsOps) {
  Graph g;
  graph_scope use(g);
  std::vector<std::vector<Output>> tower_grads = {{Const({1, 2}, {2})},
                                                  {Const({3, 4}, {2})}};
  const int first = g.num_nodes();
  std::vector<Output> mine = AverageGradients(tower_grads);
  std::vector<std::string> types;
  for (int i = first; i < g.num_nodes(); ++i) {
    if (g.node(i)->type_string() != "Const") {
      types.push_back(g.node(i)->type_string());
    }
  }
  EXPECT_EQ(types, (std::vector<std::string>{"ExpandDims", "ExpandDims",
                                             "ConcatV2", "Mean"}));
  EXPECT_EQ(mine[0].op().type(), "Mean");
}

TEST(AverageGradientsExerciseTest, AgreesWithTheLibraryToTheBit) {
  Graph g;
  graph_scope use(g);
  std::vector<std::vector<Output>> tower_grads;
  for (int t = 0; t < 4; ++t) {
    std::vector<float> v(6);
    for (int i = 0; i < 6; ++i) v[i] = 0.1f * (t + 1) + 0.37f * i;
    tower_grads.push_back({Const(v, {2, 3})});
  }
  Output mine = AverageGradients(tower_grads)[0];
  Output library = average_gradients(tower_grads)[0];
  Session sess;
  auto r = sess.run({mine, library});
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(r[0].data<float>()[i], r[1].data<float>()[i]) << "element " << i;
  }
}

TEST(AverageGradientsExerciseTest, BadTowersAreTypedErrors) {
  Graph g;
  graph_scope use(g);
  Output a = Const({1, 2}, {2});
  EXPECT_EQ(ErrorOf([] { AverageGradients({}); }),
            "average_gradients: no towers");
  EXPECT_EQ(ErrorOf([&] {
              AverageGradients({{a, a}, {a}});
            }),
            "average_gradients: tower 1 has 1 gradient(s), tower 0 has 2");
  EXPECT_EQ(ErrorOf([&] {
              AverageGradients({{a}, {Output()}});
            }),
            "Tried to convert 'input' to a tensor and failed. Error: None "
            "values not supported.");
}

}  // namespace
}  // namespace minitf::exercises
