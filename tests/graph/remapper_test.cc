// The optimized-graph stage (graph_rewrite.h) and its remapper: which chains
// MatMul -> BiasAdd [-> Relu] become one _FusedMatMul, as TensorFlow 2.21's
// remapper fuses them, and that a fused run computes what the ops do.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "minitf/graph/graph_def.h"
#include "minitf/graph/graph_rewrite.h"
#include "minitf/graph/local_session.h"
#include "minitf/graph/node_builder.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/ops/nn_ops.h"
#include "minitf/graph/scope.h"

namespace minitf {
namespace {

class RemapperTest : public ::testing::Test {
 protected:
  // x:[?,4] w:[4,3] b:[?] -> mm -> ba -> r, as TensorFlow's test graph.
  RemapperTest() {
    x_ = placeholder(float32, {None, 4}, "x");
    w_ = constant(
        {1.f, -2.f, 3.f, -4.f, 5.f, -6.f, 7.f, -8.f, 9.f, -1.f, 2.f, -3.f},
        {4, 3}, "w");
    b_ = placeholder(float32, {None}, "b");
    mm_ = matmul(x_, w_, false, false, "mm");
    ba_ = nn::bias_add(mm_, b_, "ba");
    r_ = nn::relu(ba_, "r");
  }

  // The ops of the graph a run of `fetches` plans, by node name ("" for a
  // node that is not there); null graph: nothing rewritten.
  RewrittenRun Rewrite(const std::vector<Output>& fetches,
                       const std::vector<Output>& feeds = {}) {
    auto run = RewriteForRun(g_, feeds, fetches, {}, {});
    EXPECT_TRUE(run.ok()) << run.status();
    return run.ok() ? std::move(run).value() : RewrittenRun{};
  }
  static std::string OpOf(const RewrittenRun& run, const char* name) {
    const Node* n = run.graph->FindNode(name);
    return n == nullptr ? "" : n->type_string();
  }
  static std::vector<std::string> FusedOps(const RewrittenRun& run,
                                           const char* name) {
    return GetAttr<std::vector<std::string>>(run.graph->FindNode(name)->attrs(),
                                             "fused_ops")
        .value();
  }

  Status RunSession(RewriterConfig::Toggle remapping,
                    const std::vector<float>& bias,
                    const std::vector<std::string>& fetches,
                    std::vector<Tensor>* out) {
    ConfigProto config;
    config.graph_options.rewrite_options.remapping = remapping;
    LocalSession session(SessionOptions{.config = config}, graph_);
    Tensor x =
        Tensor::FromVector<float>({1.f, 2.f, 3.f, 4.f, -1.f, 0.5f, 2.f, -3.f},
                                  TensorShape({2, 4}))
            .value();
    Tensor b = Tensor::FromVector<float>(
                   bias, TensorShape({static_cast<int64_t>(bias.size())}))
                   .value();
    return session.Run({{"x:0", x}, {"b:0", b}}, fetches, {}, out);
  }

  std::shared_ptr<Graph> graph_ = std::make_shared<Graph>();
  Graph& g_ = *graph_;
  graph_scope use_{g_};
  Output x_, w_, b_, mm_, ba_, r_;
};

TEST_F(RemapperTest, FusesMatMulBiasAddReluUnderTheRelusName) {
  RewrittenRun run = Rewrite({r_}, {x_, b_});
  ASSERT_NE(run.graph, nullptr);
  EXPECT_EQ(OpOf(run, "r"), "_FusedMatMul");
  EXPECT_EQ(OpOf(run, "mm"), "");
  EXPECT_EQ(OpOf(run, "ba"), "");
  EXPECT_EQ(FusedOps(run, "r"), (std::vector<std::string>{"BiasAdd", "Relu"}));
  const Node& fused = *run.graph->FindNode("r");
  EXPECT_EQ(GetAttr<int64_t>(fused.attrs(), "num_args").value(), 1);
  EXPECT_EQ(GetAttr<float>(fused.attrs(), "epsilon").value(), 0.f);
  EXPECT_EQ(fused.input(0).node()->name(), "x");
  EXPECT_EQ(fused.input(1).node()->name(), "w");
  EXPECT_EQ(fused.input(2).node()->name(), "b");
  EXPECT_EQ(run.fetches[0].node(), &fused);
}

TEST_F(RemapperTest, FetchingTheBiasAddFusesOnlyMatMulAndBiasAdd) {
  RewrittenRun run = Rewrite({ba_}, {x_, b_});
  ASSERT_NE(run.graph, nullptr);
  EXPECT_EQ(OpOf(run, "ba"), "_FusedMatMul");
  EXPECT_EQ(FusedOps(run, "ba"), (std::vector<std::string>{"BiasAdd"}));
  // Both fetched: TensorFlow keeps Relu apart, reading the fused BiasAdd.
  run = Rewrite({ba_, r_}, {x_, b_});
  ASSERT_NE(run.graph, nullptr);
  EXPECT_EQ(OpOf(run, "ba"), "_FusedMatMul");
  EXPECT_EQ(OpOf(run, "r"), "Relu");
}

TEST_F(RemapperTest, FetchingOrFeedingTheProductKeepsTheChainApart) {
  EXPECT_EQ(Rewrite({mm_, r_}, {x_, b_}).graph, nullptr);
  EXPECT_EQ(Rewrite({r_}, {x_, b_, mm_}).graph, nullptr);
}

TEST_F(RemapperTest, AnotherReaderOfTheBiasAddKeepsReluApart) {
  Output other = identity(ba_, "other");
  RewrittenRun run = Rewrite({r_, other}, {x_, b_});
  ASSERT_NE(run.graph, nullptr);
  EXPECT_EQ(OpOf(run, "ba"), "_FusedMatMul");
  EXPECT_EQ(FusedOps(run, "ba"), (std::vector<std::string>{"BiasAdd"}));
  EXPECT_EQ(OpOf(run, "r"), "Relu");
  // A reader the run does not need is pruned first, and fuses nothing away.
  run = Rewrite({r_}, {x_, b_});
  EXPECT_EQ(OpOf(run, "r"), "_FusedMatMul");
  EXPECT_EQ(OpOf(run, "other"), "");
}

TEST_F(RemapperTest, AControlEdgeOrAnotherDTypeKeepsTheChainApart) {
  {
    control_dependencies after({mm_.op()});
    identity(w_, "after_mm");
  }
  Output after = g_.GetTensorByName("after_mm:0").value();
  EXPECT_EQ(Rewrite({r_, after}, {x_, b_}).graph, nullptr);

  Output xd = placeholder(float64, {2, 2}, "xd");
  Output bd = placeholder(float64, {2}, "bd");
  Output rd = nn::relu(nn::bias_add(matmul(xd, xd), bd), "rd");
  EXPECT_EQ(Rewrite({rd}, {xd, bd}).graph, nullptr);
}

TEST_F(RemapperTest, FusedAndUnfusedRunsAgree) {
  std::vector<Tensor> fused, unfused;
  ASSERT_TRUE(RunSession(RewriterConfig::DEFAULT, {0.5f, -1.f, 2.f},
                         {"r:0", "ba:0"}, &fused)
                  .ok());
  ASSERT_TRUE(RunSession(RewriterConfig::OFF, {0.5f, -1.f, 2.f},
                         {"r:0", "ba:0"}, &unfused)
                  .ok());
  ASSERT_EQ(fused.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(fused[i].shape(), unfused[i].shape());
    for (int64_t j = 0; j < fused[i].NumElements(); ++j) {
      EXPECT_NEAR(fused[i].data<float>()[j], unfused[i].data<float>()[j],
                  1e-5f);
    }
  }
}

TEST_F(RemapperTest, AWrongBiasFailsAsBiasAddDoesUnderTheFusedName) {
  std::vector<Tensor> out;
  Status fused = RunSession(RewriterConfig::ON, {1.f, 2.f}, {"r:0"}, &out);
  Status unfused = RunSession(RewriterConfig::OFF, {1.f, 2.f}, {"r:0"}, &out);
  EXPECT_EQ(fused.code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(unfused.code(), error::INVALID_ARGUMENT);
  const std::string text =
      "Must provide as many biases as the last dimension of the input "
      "tensor: [2] vs. [2,3]";
  EXPECT_EQ(fused.message(), text + "\n\t [[{{node r}}]]");
  EXPECT_EQ(unfused.message(), text + "\n\t [[{{node ba}}]]");
}

TEST_F(RemapperTest, TheUsersGraphIsUntouched) {
  const std::string before = ToGraphDef(g_).value().DebugString();
  std::vector<Tensor> out;
  ASSERT_TRUE(
      RunSession(RewriterConfig::DEFAULT, {1.f, 2.f, 3.f}, {"r:0"}, &out).ok());
  EXPECT_EQ(ToGraphDef(g_).value().DebugString(), before);
}

// A _FusedMatMul a user builds: `fused_ops` on op(lhs) op(rhs) and `bias`.
Output FusedMatMul(Output lhs, Output rhs, Output bias, bool ta, bool tb,
                   std::vector<std::string> fused_ops) {
  return ops::AddOp(NodeBuilder("_FusedMatMul", "fused_matmul")
                        .Input(lhs)
                        .Input(rhs)
                        .Input(std::vector<Output>{bias})
                        .Attr("transpose_a", ta)
                        .Attr("transpose_b", tb)
                        .Attr("fused_ops", std::move(fused_ops)),
                    {lhs, rhs, bias});
}

// Built directly, for every transpose, it computes what MatMul, BiasAdd
// and Relu compute; a fusion the kernel does not make is Unimplemented.
TEST_F(RemapperTest, TheKernelMatchesTheOpsItFuses) {
  Output a = constant({1.f, -2.f, 3.f, 4.f, -5.f, 6.f}, {2, 3}, "a");
  Output c =
      constant({0.5f, -1.f, 2.f, 1.f, 3.f, -2.f, -1.f, 0.f, 1.f}, {3, 3}, "c");
  Output bias = constant({-1.f, 2.f, 0.5f}, {3}, "bias");
  std::vector<std::string> fused, want;
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      for (bool relu : {false, true}) {
        Output lhs = ta ? transpose(a) : a;
        Output rhs = tb ? transpose(c) : c;
        std::vector<std::string> ops = {"BiasAdd"};
        if (relu) ops.push_back("Relu");
        fused.push_back(FusedMatMul(lhs, rhs, bias, ta, tb, ops).name());
        Output chain = nn::bias_add(matmul(lhs, rhs, ta, tb), bias);
        want.push_back((relu ? nn::relu(chain) : chain).name());
      }
    }
  }
  ConfigProto config;
  config.graph_options.rewrite_options.remapping = RewriterConfig::OFF;
  LocalSession session(SessionOptions{.config = config}, graph_);
  std::vector<Tensor> got, expected;
  ASSERT_TRUE(session.Run({}, fused, {}, &got).ok());
  ASSERT_TRUE(session.Run({}, want, {}, &expected).ok());
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i].shape(), TensorShape({2, 3})) << fused[i];
    for (int64_t j = 0; j < 6; ++j) {
      EXPECT_NEAR(got[i].data<float>()[j], expected[i].data<float>()[j], 1e-5f)
          << fused[i];
    }
  }
  Output elu = FusedMatMul(a, c, bias, false, false, {"BiasAdd", "Elu"});
  Status s = session.Run({}, {elu.name()}, {}, &got);
  EXPECT_EQ(s.code(), error::UNIMPLEMENTED);
  EXPECT_NE(s.message().find("Fusion is not implemented: [BiasAdd,Elu]"),
            std::string::npos)
      << s;
}

}  // namespace
}  // namespace minitf
