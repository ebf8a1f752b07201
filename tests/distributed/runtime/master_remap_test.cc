// The master's optimized graph: a client graph run through a "grpc://"
// session is rewritten (graph_rewrite.h) after placement and before it is
// cut by task, as DirectSession's is, so a worker registers _FusedMatMul
// where the user's graph has MatMul -> BiasAdd -> Relu. RunOptions
// output_partition_graphs returns the graph each device ran, from every
// task, as TensorFlow's master returns its workers' partition graphs.
// TensorFlow 2.21 (tf.compat.v1.Session on tf.distribute.Server, oneDNN
// off) registers the same ops under the same names for these graphs: one
// _FusedMatMul "r" on the worker and no "mm"; MatMul, BiasAdd and Relu with
// remapping OFF or with "mm" fetched; two partition graphs, one per device.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "distributed_testing.h"
#include "minitf/distributed/runtime/proto_convert.h"
#include "minitf/distributed/runtime/server.h"
#include "minitf/graph/api.h"
#include "minitf/train/api.h"

namespace minitf {
namespace {

using train::ClusterSpec;
using train::Server;

// One ps and one worker, servers of this process; sessions on the ps, so
// that a fetch from the worker crosses tasks.
class MasterRemapTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cluster_ = ClusterSpec({{"ps", {testing::FreeAddress()}},
                            {"worker", {testing::FreeAddress()}}});
    ps_ = std::make_unique<Server>(cluster_, "ps", 0, ConfigProto{},
                                   train::ServerOptions{.log_stream = &log_});
    worker_ =
        std::make_unique<Server>(cluster_, "worker", 0, ConfigProto{},
                                 train::ServerOptions{.log_stream = &log_});
  }

  SessionOptions On(RewriterConfig::Toggle remapping) {
    SessionOptions options;
    options.target = ps_->target();
    options.config.operation_timeout_in_ms = 30000;  // a broken test ends
    options.config.graph_options.rewrite_options.remapping = remapping;
    return options;
  }

  std::ostringstream log_;
  ClusterSpec cluster_;
  std::unique_ptr<Server> ps_, worker_;
};

// x w + b, then Relu, on the worker, with x fed.
struct Layer {
  Output x, mm, r;
};

Layer MakeLayer() {
  device_scope on("/job:worker/task:0");
  Layer layer;
  layer.x = placeholder(float32, {2, 2}, "x");
  Output w = constant({1.f, 2.f, -3.f, 4.f}, {2, 2}, "w");
  Output b = constant({0.5f, -9.f}, {2}, "b");
  layer.mm = matmul(layer.x, w, false, false, "mm");
  layer.r = nn::relu(nn::bias_add(layer.mm, b, "ba"), "r");
  return layer;
}

FeedDict FeedX(const Layer& layer) {
  return {{layer.x, Tensor({{1.f, -2.f}, {3.f, 4.f}})}};
}

// The op of each node of the partition graphs, by name, and how many
// graphs there were.
struct Ran {
  std::map<std::string, std::string> op_of;
  size_t graphs = 0;
};

Ran PartitionGraphs(const RunMetadata& metadata) {
  Ran ran;
  ran.graphs = metadata.partition_graphs.size();
  for (const GraphDef& g : metadata.partition_graphs) {
    for (const auto& n : g.node()) ran.op_of[n.name()] = n.op();
  }
  return ran;
}

// Runs `fetches` of `layer`'s graph in a session with `options`, asking
// for the partition graphs.
std::vector<Tensor> RunAskingForGraphs(const SessionOptions& options,
                                       const Layer& layer,
                                       const std::vector<Fetch>& fetches,
                                       Ran* ran) {
  Session sess(options, layer.x.graph());
  RunMetadata metadata;
  std::vector<Tensor> out =
      sess.run(fetches, FeedX(layer),
               RunOptions{.output_partition_graphs = true}, &metadata);
  *ran = PartitionGraphs(metadata);
  return out;
}

// The tests of the layer: its graph is the fixture's.
class LayerTest : public MasterRemapTest {
 protected:
  Graph g_;
  graph_scope use_{g_};
  Layer layer_ = MakeLayer();
};

TEST_F(LayerTest, AWorkerRunsTheLayerAsOneFusedMatMul) {
  Ran ran;
  std::vector<Tensor> fused =
      RunAskingForGraphs(On(RewriterConfig::DEFAULT), layer_, {layer_.r}, &ran);
  // The worker's CPU and the ps's CPU (which receives the fetch).
  EXPECT_EQ(ran.graphs, 2u);
  EXPECT_EQ(ran.op_of["r"], "_FusedMatMul");
  EXPECT_EQ(ran.op_of.count("mm"), 0u);
  EXPECT_EQ(ran.op_of.count("ba"), 0u);

  Ran plain_ran;
  std::vector<Tensor> plain = RunAskingForGraphs(
      On(RewriterConfig::OFF), layer_, {layer_.r}, &plain_ran);
  EXPECT_EQ(plain_ran.op_of["mm"], "MatMul");
  EXPECT_EQ(plain_ran.op_of["ba"], "BiasAdd");
  EXPECT_EQ(plain_ran.op_of["r"], "Relu");
  // relu([[1 -2] [3 4]] [[1 2] [-3 4]] + [0.5 -9]), both ways.
  EXPECT_EQ(testing::Str(fused[0]), "[[ 7.5  0. ]\n [ 0.  13. ]]");
  EXPECT_EQ(testing::Str(fused[0]), testing::Str(plain[0]));
}

TEST_F(LayerTest, AFetchedMatMulIsNotFusedAway) {
  Ran ran;
  std::vector<Tensor> out = RunAskingForGraphs(
      On(RewriterConfig::DEFAULT), layer_, {layer_.r, layer_.mm}, &ran);
  EXPECT_EQ(ran.op_of["mm"], "MatMul");
  EXPECT_EQ(ran.op_of["r"], "Relu");
  EXPECT_EQ(testing::Str(out[1]), "[[ 7. -6.]\n [-9. 22.]]");
}

TEST_F(LayerTest, WithoutTheOptionNoGraphsComeBack) {
  Session sess(On(RewriterConfig::DEFAULT), &g_);
  RunMetadata metadata;
  sess.run({layer_.r}, FeedX(layer_), RunOptions{}, &metadata);
  EXPECT_TRUE(metadata.partition_graphs.empty());
  // A run's metadata reports that run alone, as TensorFlow's session.run
  // replaces the whole RunMetadata: an earlier run's graphs do not stay.
  sess.run({layer_.r}, FeedX(layer_),
           RunOptions{.output_partition_graphs = true}, &metadata);
  EXPECT_EQ(metadata.partition_graphs.size(), 2u);
  sess.run({layer_.r}, FeedX(layer_), RunOptions{}, &metadata);
  EXPECT_TRUE(metadata.partition_graphs.empty());
}

// x is not fed: the worker's step fails, and so does the run.
TEST_F(LayerTest, AFailedStepAskedForItsGraphsReturnsTheError) {
  Session sess(On(RewriterConfig::DEFAULT), &g_);
  RunMetadata metadata;
  const std::string text = testing::InvalidArgumentText([&] {
    sess.run({layer_.r}, {}, RunOptions{.output_partition_graphs = true},
             &metadata);
  });
  EXPECT_NE(text.find("You must feed a value for placeholder tensor 'x'"),
            std::string::npos)
      << text;
  EXPECT_TRUE(metadata.partition_graphs.empty());
}

// Chapter 3's MLP, 12-8-3, its variables on the ps and its layers on the
// worker, trained with Adam through the master with the remapper on and
// off.
TEST_F(MasterRemapTest, AnMlpTrainsAsTheUnfusedGraphDoes) {
  std::vector<float> losses[2];
  for (int on = 0; on < 2; ++on) {
    Graph g;
    graph_scope use(g);
    set_random_seed(7);
    Output x = placeholder(float32, {None, 12}, "x");
    Output y_ = placeholder(float32, {None, 3}, "y_");
    std::vector<Variable> vars;
    {
      device_scope on_ps("/job:ps/task:0");
      vars = {Variable(truncated_normal({12, 8}, 0.0, 0.5), "W1"),
              Variable(truncated_normal({8}, 0.0, 0.5), "b1"),
              Variable(truncated_normal({8, 3}, 0.0, 0.5), "W2"),
              Variable(zeros({3}), "b2")};
    }
    Output loss;
    Operation train_op;
    {
      device_scope on_worker("/job:worker/task:0");
      Output hidden = nn::relu(matmul(x, vars[0]) + vars[1]);
      Output logits = matmul(hidden, vars[2]) + vars[3];
      loss = reduce_mean(nn::softmax_cross_entropy_with_logits(y_, logits), {},
                         false, "loss");
      train_op = train::AdamOptimizer(0.01).minimize(loss);
    }
    Session sess(On(on ? RewriterConfig::ON : RewriterConfig::OFF), &g);
    sess.run(global_variables_initializer());
    for (int step = 0; step < 5; ++step) {
      std::vector<float> xs(6 * 12), ys(6 * 3, 0.f);
      for (size_t i = 0; i < xs.size(); ++i) {
        xs[i] = static_cast<float>((i * 7 + step * 3) % 11) / 5.f - 1.f;
      }
      for (int row = 0; row < 6; ++row) ys[row * 3 + (row + step) % 3] = 1.f;
      FeedDict feeds = {
          {x, Tensor::FromVector(xs, TensorShape({6, 12})).value()},
          {y_, Tensor::FromVector(ys, TensorShape({6, 3})).value()}};
      RunMetadata metadata;
      std::vector<Tensor> r =
          sess.run({loss, train_op}, feeds,
                   RunOptions{.output_partition_graphs = true}, &metadata);
      losses[on].push_back(r[0].scalar<float>());
      if (step == 0) {
        int fused = 0;
        for (const auto& [name, op] : PartitionGraphs(metadata).op_of) {
          fused += op == "_FusedMatMul";
        }
        EXPECT_EQ(fused, on ? 2 : 0);
      }
    }
  }
  ASSERT_EQ(losses[0].size(), losses[1].size());
  for (size_t i = 0; i < losses[0].size(); ++i) {
    EXPECT_NEAR(losses[0][i], losses[1][i], 1e-5f) << "step " << i;
  }
  EXPECT_LT(losses[1].back(), losses[1].front());
}

// The switch as the client sends it to the master with CreateSession, and as
// the master reads it: DEFAULT and OFF as they are; TensorFlow's other
// settings (AGGRESSIVE and the MLIR ones) run its remapper too, and read ON.
TEST(RewriterConfigTest, TheRemappingSwitchCrossesTheWire) {
  for (RewriterConfig::Toggle t :
       {RewriterConfig::DEFAULT, RewriterConfig::ON, RewriterConfig::OFF}) {
    ConfigProto config;
    config.graph_options.rewrite_options.remapping = t;
    EXPECT_EQ(ConfigProtoFromProto(ConfigProtoToProto(config))
                  .graph_options.rewrite_options.remapping,
              t);
  }
  for (auto t : {proto::RewriterConfig::AGGRESSIVE,
                 proto::RewriterConfig::EXPERIMENTAL_MLIR,
                 proto::RewriterConfig::EXPERIMENTAL_BOTH}) {
    proto::ConfigProto wire;
    wire.mutable_graph_options()->mutable_rewrite_options()->set_remapping(t);
    EXPECT_EQ(
        ConfigProtoFromProto(wire).graph_options.rewrite_options.remapping,
        RewriterConfig::ON)
        << t;
  }
}

}  // namespace
}  // namespace minitf
