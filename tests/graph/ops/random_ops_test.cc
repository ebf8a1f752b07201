#include "minitf/graph/ops/random_ops.h"

#include <gtest/gtest.h>

#include "kernel_harness.h"
#include "minitf/graph/node_builder.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/scope.h"
#include "minitf/tensor/kernels/random_ops.h"

namespace minitf {
namespace {

using testing::KernelRunner;

std::string ShapeOf(const Output& o) { return PythonShapeString(o.shape()); }

std::pair<int64_t, int64_t> SeedsOf(const Output& random_op) {
  const AttrMap& attrs = random_op.node()->attrs();
  return {attrs.at("seed").get<int64_t>(), attrs.at("seed2").get<int64_t>()};
}

// The random op under a tf.random_normal-style graph: mul's first input.
Output RandomNode(const Output& scaled) {
  return scaled.op().input(0).op().input(0);
}

TEST(RandomOpsTest, SeedsFollowTensorFlowGetSeed) {
  Graph g;
  graph_scope use(g);
  EXPECT_EQ(random_seed::GetSeed(&g, std::nullopt),
            (std::pair<int64_t, int64_t>{0, 0}));
  EXPECT_EQ(random_seed::GetSeed(&g, 5),
            (std::pair<int64_t, int64_t>{87654321, 5}));
  set_random_seed(42);
  EXPECT_EQ(random_seed::GetSeed(&g, std::nullopt),
            (std::pair<int64_t, int64_t>{42, 1}));
  EXPECT_EQ(random_seed::GetSeed(&g, std::nullopt),
            (std::pair<int64_t, int64_t>{42, 2}));
  EXPECT_EQ(random_seed::GetSeed(&g, 7), (std::pair<int64_t, int64_t>{42, 7}));
  g.set_seed(0);
  EXPECT_EQ(random_seed::GetSeed(&g, 0),
            (std::pair<int64_t, int64_t>{87654321, 0}));
}

TEST(RandomOpsTest, RandomNormalIsBuiltAsTensorFlowBuildsIt) {
  Graph g;
  graph_scope use(g);
  Output r = random_normal({2, 3}, 1.0, 2.0, DT_FLOAT, 3);
  EXPECT_EQ(r.op().name(), "random_normal");
  EXPECT_EQ(r.op().type(), "AddV2");
  EXPECT_EQ(ShapeOf(r), "(2, 3)");
  Output op = RandomNode(r);
  EXPECT_EQ(op.op().name(), "random_normal/RandomStandardNormal");
  EXPECT_TRUE(op.node()->op_def().is_stateful);
  EXPECT_EQ(SeedsOf(op), (std::pair<int64_t, int64_t>{87654321, 3}));
  EXPECT_EQ(r.op().input(1).name(), "random_normal/mean:0");
  EXPECT_EQ(r.op().input(0).op().input(1).name(), "random_normal/stddev:0");
  Output t = truncated_normal({784, 10}, 0.0, 0.1);
  EXPECT_EQ(RandomNode(t).op().type(), "TruncatedNormal");
  EXPECT_EQ(ShapeOf(t), "(784, 10)");
  Output u = random_uniform({4}, -1.0, 1.0);
  EXPECT_EQ(u.op().name(), "random_uniform");
  EXPECT_EQ(RandomNode(u).op().type(), "RandomUniform");
  Output ui = random_uniform({4}, 0, 10, DT_INT32);
  EXPECT_EQ(ui.op().type(), "RandomUniformInt");
  EXPECT_EQ(ui.dtype(), DT_INT32);
}

// A RandomStandardNormal node with explicit seeds over a Const shape.
Output NormalNode(int64_t seed, int64_t seed2) {
  Output shape = constant({4}, {1});
  return ops::AddOp(NodeBuilder("RandomStandardNormal")
                        .Input(shape)
                        .Attr("dtype", DT_FLOAT)
                        .Attr("seed", seed)
                        .Attr("seed2", seed2),
                    {shape});
}

TEST(RandomOpsTest, KernelsDrawNewNumbersEachRunAndRepeatWhenFresh) {
  Graph g;
  graph_scope use(g);
  Output n = NormalNode(1, 2);
  KernelRunner first(n);
  std::vector<float> a = first.Run().value().ToVector<float>();
  std::vector<float> b = first.Run().value().ToVector<float>();
  EXPECT_NE(a, b);
  // A fresh kernel (a fresh session) with the same seeds repeats both runs.
  KernelRunner again(n);
  EXPECT_EQ(again.Run().value().ToVector<float>(), a);
  EXPECT_EQ(again.Run().value().ToVector<float>(), b);
  // The first run is layer 1's seeded sequence.
  EXPECT_EQ(a, kernels::RandomNormal({4}, DT_FLOAT, 0, 1, 1, 2)
                   .value()
                   .ToVector<float>());
  // Unseeded kernels differ from one another.
  Output u = NormalNode(0, 0);
  EXPECT_NE(KernelRunner(u).Run().value().ToVector<float>(),
            KernelRunner(u).Run().value().ToVector<float>());
}

TEST(RandomOpsTest, UniformKernelsRespectTheirRange) {
  Graph g;
  graph_scope use(g);
  Output shape = constant({1000}, {1});
  Output lo = constant(Tensor(3));
  Output hi = constant(Tensor(6));
  Output ints = ops::AddOp(NodeBuilder("RandomUniformInt")
                               .Input(shape)
                               .Input(lo)
                               .Input(hi)
                               .Attr("seed", int64_t{9})
                               .Attr("seed2", int64_t{1}),
                           {shape, lo, hi});
  for (int32_t v : KernelRunner(ints).Run().value().ToVector<int32_t>()) {
    EXPECT_GE(v, 3);
    EXPECT_LT(v, 6);
  }
  Output empty = ops::AddOp(
      NodeBuilder("RandomUniformInt").Input(shape).Input(hi).Input(hi),
      {shape, hi});
  EXPECT_EQ(KernelRunner(empty).Run().status().code(), error::INVALID_ARGUMENT);
  Output f = ops::AddOp(NodeBuilder("TruncatedNormal")
                            .Input(shape)
                            .Attr("dtype", DT_DOUBLE)
                            .Attr("seed", int64_t{4}),
                        {shape});
  for (double v : KernelRunner(f).Run().value().ToVector<double>()) {
    EXPECT_LT(std::abs(v), 2.0);
  }
}

}  // namespace
}  // namespace minitf
