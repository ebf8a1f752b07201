// Chapter 3's MLP through the session's graph rewrite (graph_rewrite.h):
// the remapper fuses each layer as TensorFlow 2.21's does, and training with
// the fused graph gives what training with the user's ops gives.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "minitf/graph/api.h"
#include "minitf/graph/graph_rewrite.h"
#include "minitf/train/api.h"

namespace minitf {
namespace {

// mlp.cc's model, 784-256-10 shrunk to 12-8-3: relu(x W1 + b1) W2 + b2,
// softmax cross-entropy, Adam. Weights from a fixed seed.
struct Mlp {
  Output x, y_, loss;
  Operation train;
  std::vector<Variable> vars;
};

Mlp BuildMlp() {
  set_random_seed(7);
  Mlp m;
  m.x = placeholder(float32, {None, 12}, "x");
  m.y_ = placeholder(float32, {None, 3}, "y_");
  Variable W1(truncated_normal({12, 8}, 0.0, 0.5), "W1");
  Variable b1(truncated_normal({8}, 0.0, 0.5), "b1");
  Variable W2(truncated_normal({8, 3}, 0.0, 0.5), "W2");
  Variable b2(zeros({3}), "b2");
  Output hidden = nn::relu(matmul(m.x, W1) + b1);
  Output logits = matmul(hidden, W2) + b2;
  m.loss = reduce_mean(nn::softmax_cross_entropy_with_logits(m.y_, logits), {},
                       false, "loss");
  m.train = train::AdamOptimizer(0.01).minimize(m.loss);
  m.vars = {W1, b1, W2, b2};
  return m;
}

FeedDict Batch(const Mlp& m, int step) {
  std::vector<float> x(6 * 12), y(6 * 3, 0.f);
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = static_cast<float>((i * 7 + step * 3) % 11) / 5.f - 1.f;
  }
  for (int r = 0; r < 6; ++r) y[r * 3 + (r + step) % 3] = 1.f;
  return {{m.x, Tensor::FromVector(x, TensorShape({6, 12})).value()},
          {m.y_, Tensor::FromVector(y, TensorShape({6, 3})).value()}};
}

TEST(FusedMlpTest, EachLayerFusesAsTensorFlowFusesIt) {
  Graph g;
  graph_scope use(g);
  Mlp m = BuildMlp();
  // --8<-- [start:see_rewrite]
  auto run = RewriteForRun(g, {m.x, m.y_}, {m.loss}, {m.train.node()}, {});
  ASSERT_TRUE(run.ok()) << run.status();
  ASSERT_NE(run->graph, nullptr);
  std::vector<std::vector<std::string>> fused;
  int matmuls_left = 0;
  for (const Node* n : run->graph->nodes()) {
    if (n->type_string() == "_FusedMatMul") {
      fused.push_back(
          GetAttr<std::vector<std::string>>(n->attrs(), "fused_ops").value());
    }
    // The forward products are fused; the gradients' products remain.
    if (n->type_string() == "MatMul" && n->name().rfind("gradients", 0) != 0) {
      ++matmuls_left;
    }
  }
  EXPECT_EQ(fused, (std::vector<std::vector<std::string>>{{"BiasAdd", "Relu"},
                                                          {"BiasAdd"}}));
  EXPECT_EQ(matmuls_left, 0);
  // --8<-- [end:see_rewrite]
}

TEST(FusedMlpTest, TrainsAsTheUnfusedGraphDoes) {
  std::vector<std::vector<float>> results[2];
  for (int fused = 0; fused < 2; ++fused) {
    Graph g;
    graph_scope use(g);
    Mlp m = BuildMlp();
    ConfigProto config;
    config.graph_options.rewrite_options.remapping =
        fused ? RewriterConfig::ON : RewriterConfig::OFF;
    Session sess(SessionOptions{.config = config}, &g);
    sess.run(global_variables_initializer());
    for (int step = 0; step < 20; ++step) {
      std::vector<Tensor> r = sess.run({m.loss}, Batch(m, step), {m.train});
      results[fused].push_back({r[0].scalar<float>()});
    }
    for (const Variable& v : m.vars) {
      Tensor t = sess.run(v);
      results[fused].emplace_back(t.data<float>(),
                                  t.data<float>() + t.NumElements());
    }
  }
  ASSERT_EQ(results[0].size(), results[1].size());
  for (size_t i = 0; i < results[0].size(); ++i) {
    ASSERT_EQ(results[0][i].size(), results[1][i].size());
    for (size_t j = 0; j < results[0][i].size(); ++j) {
      EXPECT_NEAR(results[0][i][j], results[1][i][j], 1e-4f)
          << "result " << i << ", value " << j;
    }
  }
}

}  // namespace
}  // namespace minitf
