// The tower pattern on virtual GPUs: N towers with batch b train as one
// device with batch N·b, and the ways a tower program goes wrong (a tower
// on a device that does not exist, a tower left unfed) are TensorFlow's
// errors.
//
// A small MLP (8 -> 16 ReLU -> 3, softmax cross-entropy) keeps the runs
// short; the variables are on /cpu:0, tower i's ops on /gpu:i, the mean of
// the gradients and the update on /cpu:0, as in seed 004.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "minitf/device/session/direct_session.h"
#include "minitf/graph/graph_def.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/ops/nn_ops.h"
#include "minitf/graph/run_metadata.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/tensor/errors.h"
#include "minitf/towers/average_gradients.h"
#include "minitf/towers/variable_sharing/variable_scope.h"
#include "minitf/train/gradients/gradients.h"
#include "minitf/train/ops/grad_ops.h"
#include "minitf/train/optimizers/gradient_descent.h"
#include "minitf/train/summary/summary_ops.h"
#include "minitf/train/variables.h"

namespace minitf {
namespace {

constexpr int64_t kIn = 8, kHidden = 16, kClasses = 3;

// Uniform values in [-scale, scale) from a fixed seed: the same numbers in
// every graph, so the towers and the single device start alike.
Tensor Random(const std::vector<int64_t>& shape, uint32_t seed, float scale) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-scale, scale);
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::vector<float> v(n);
  for (float& f : v) f = dist(gen);
  return errors::ValueOrThrow(Tensor::FromVector(v, TensorShape(shape)));
}

// Rows [begin, end) of a [rows, cols] matrix.
Tensor Rows(const Tensor& t, int64_t begin, int64_t end) {
  const int64_t cols = t.shape().dim_size(1);
  const float* p = t.data<float>();
  std::vector<float> v(p + begin * cols, p + end * cols);
  return errors::ValueOrThrow(
      Tensor::FromVector(v, TensorShape({end - begin, cols})));
}

Initializer FixedValue(const Tensor& value) {
  return
      [value](const std::vector<int64_t>&, DType) { return constant(value); };
}

struct Tower {
  Output x, y, loss;
  std::vector<Output> grads;
};

// The model of one tower, its variables shared through the variable scope
// "model" and kept on /cpu:0. x:[batch,8] y:[batch,3] one-hot.
Tower BuildTower() {
  std::vector<Variable> vars;
  {
    device_scope on_cpu("/cpu:0");
    variable_scope model("model", AUTO_REUSE);
    vars = {
        get_variable("w1", {kIn, kHidden},
                     FixedValue(Random({kIn, kHidden}, 1, 0.5f))),
        get_variable("b1", {kHidden}, FixedValue(Random({kHidden}, 2, 0.1f))),
        get_variable("w2", {kHidden, kClasses},
                     FixedValue(Random({kHidden, kClasses}, 3, 0.5f))),
        get_variable("b2", {kClasses},
                     FixedValue(Random({kClasses}, 4, 0.1f)))};
  }
  Tower t;
  t.x = placeholder(DT_FLOAT, {None, kIn}, "x");
  t.y = placeholder(DT_FLOAT, {None, kClasses}, "y");
  Output hidden = nn::relu(matmul(t.x, vars[0]) + vars[1]);
  Output logits = matmul(hidden, vars[2]) + vars[3];
  t.loss = reduce_mean(nn::softmax_cross_entropy_with_logits(t.y, logits));
  std::vector<Output> xs;
  for (const Variable& v : vars) xs.push_back(v.value());
  t.grads = gradients({t.loss}, xs);
  return t;
}

// The tower loop of seed 004: tower i under /gpu:i and "tower_i".
std::vector<Tower> BuildTowers(int num_towers) {
  std::vector<Tower> towers;
  for (int i = 0; i < num_towers; ++i) {
    device_scope on_gpu("/gpu:" + std::to_string(i));
    name_scope tower("tower_" + std::to_string(i));
    towers.push_back(BuildTower());
  }
  return towers;
}

Operation ApplyAveraged(const std::vector<Tower>& towers) {
  device_scope on_cpu("/cpu:0");
  std::vector<std::vector<Output>> tower_grads;
  for (const Tower& t : towers) tower_grads.push_back(t.grads);
  std::vector<Output> grads = average_gradients(tower_grads);
  train::Optimizer::GradsAndVars pairs;
  std::vector<Variable> vars = trainable_variables();
  for (size_t i = 0; i < grads.size(); ++i)
    pairs.emplace_back(grads[i], vars[i]);
  return train::GradientDescentOptimizer(0.5).apply_gradients(pairs);
}

// The variables after `steps` steps of batch `batch` (rows of xs, ys taken
// in order), trained on `num_towers` towers of batch / num_towers rows each
// on as many virtual GPUs, or, for 0 towers, on the CPU alone.
std::vector<Tensor> Train(int num_towers, int steps, int64_t batch,
                          const Tensor& xs, const Tensor& ys) {
  Graph g;
  graph_scope use(g);
  std::vector<Tower> towers;
  Operation train_op;
  if (num_towers == 0) {
    towers.push_back(BuildTower());
    train_op = ApplyAveraged(towers);
  } else {
    towers = BuildTowers(num_towers);
    train_op = ApplyAveraged(towers);
  }
  Session sess(
      ConfigProto{.gpu_options = {.virtual_gpus = std::max(num_towers, 1)}});
  sess.run(global_variables_initializer());
  const int64_t per_tower = batch / static_cast<int64_t>(towers.size());
  for (int s = 0; s < steps; ++s) {
    FeedDict feeds;
    for (size_t i = 0; i < towers.size(); ++i) {
      const int64_t begin = s * batch + static_cast<int64_t>(i) * per_tower;
      feeds.emplace_back(towers[i].x, Rows(xs, begin, begin + per_tower));
      feeds.emplace_back(towers[i].y, Rows(ys, begin, begin + per_tower));
    }
    sess.run(train_op, feeds);
  }
  std::vector<Tensor> values;
  for (const Variable& v : trainable_variables()) {
    values.push_back(sess.run(v.value()));
  }
  return values;
}

float MaxAbsDiff(const Tensor& a, const Tensor& b) {
  float worst = 0;
  for (int64_t i = 0; i < a.NumElements(); ++i) {
    worst = std::max(worst, std::abs(a.data<float>()[i] - b.data<float>()[i]));
  }
  return worst;
}

// One-hot labels for 8 steps of 16 examples.
Tensor Labels(int64_t rows) {
  std::vector<float> v(rows * kClasses, 0.f);
  std::mt19937 gen(5);
  for (int64_t r = 0; r < rows; ++r) v[r * kClasses + gen() % kClasses] = 1.f;
  return errors::ValueOrThrow(
      Tensor::FromVector(v, TensorShape({rows, kClasses})));
}

// --8<-- [start:same_update]
// The mean over N towers of each tower's mean gradient over b rows is the
// mean gradient over the N·b rows: the same update. Not to the bit: float
// addition is not associative, and the towers add their b rows, then the N
// means, where the single device adds N·b rows in one sum (and Eigen blocks
// a product of 16 rows differently from one of 4). After 8 steps of
// learning rate 0.5 the weights, of size about 0.5 to 1, differed by at most
// 6e-8 with 2 and 4 towers when this was written: one or two units in the
// last place of a float (2^-24 ≈ 6e-8 of the value). 1e-6 leaves room for
// other CPUs' kernels and stays far below the 1e-3 that the steps move
// every variable by. One tower is the single device to the bit (below).
TEST(TowersTest, NTowersOfBatchBTrainAsOneDeviceOfBatchNB) {
  constexpr int kSteps = 8;
  constexpr int64_t kBatch = 16;
  const Tensor xs = Random({kSteps * kBatch, kIn}, 6, 1.f);
  const Tensor ys = Labels(kSteps * kBatch);
  const std::vector<Tensor> one_device = Train(0, kSteps, kBatch, xs, ys);
  const std::vector<Tensor> untrained = Train(0, 0, kBatch, xs, ys);
  for (int n : {1, 2, 4}) {
    SCOPED_TRACE("towers: " + std::to_string(n));
    const std::vector<Tensor> towers = Train(n, kSteps, kBatch, xs, ys);
    for (size_t v = 0; v < towers.size(); ++v) {
      EXPECT_LE(MaxAbsDiff(towers[v], one_device[v]), 1e-6f)
          << "variable " << v;
      // The test could fail: the steps moved every variable.
      EXPECT_GT(MaxAbsDiff(towers[v], untrained[v]), 1e-3f) << "variable " << v;
    }
  }
}
// --8<-- [end:same_update]

// One tower on one GPU runs the same kernels on the same rows as the CPU:
// its mean over one tower (a concat of one, a Mean over an axis of 1)
// changes nothing, so it matches to the bit.
TEST(TowersTest, OneTowerIsTheOneDeviceToTheBit) {
  const Tensor xs = Random({4 * 10, kIn}, 7, 1.f);
  const Tensor ys = Labels(4 * 10);
  const std::vector<Tensor> one_device = Train(0, 4, 10, xs, ys);
  const std::vector<Tensor> one_tower = Train(1, 4, 10, xs, ys);
  for (size_t v = 0; v < one_tower.size(); ++v) {
    EXPECT_EQ(MaxAbsDiff(one_tower[v], one_device[v]), 0.f) << "variable " << v;
  }
}

// What the session placed each node on, from the partition graphs.
std::map<std::string, std::string> PlacedDevices(Session& sess, Output fetch,
                                                 const FeedDict& feeds) {
  RunMetadata metadata;
  sess.run({fetch}, feeds, RunOptions{.output_partition_graphs = true},
           &metadata);
  std::map<std::string, std::string> devices;
  for (const GraphDef& part : metadata.partition_graphs) {
    for (const NodeDef& n : part.node()) devices[n.name()] = n.device();
  }
  return devices;
}

FeedDict FeedAll(const std::vector<Tower>& towers) {
  FeedDict feeds;
  for (const Tower& t : towers) {
    feeds.emplace_back(t.x, Random({2, kIn}, 8, 1.f));
    feeds.emplace_back(t.y, Labels(2));
  }
  return feeds;
}

Output TotalLoss(const std::vector<Tower>& towers) {
  std::vector<Output> losses;
  for (const Tower& t : towers) losses.push_back(t.loss);
  device_scope on_cpu("/cpu:0");
  return add_n(losses);
}

// --8<-- [start:missing_device]
TEST(TowersTest, ATowerOnAMissingGpuIsTheSeedsError) {
  Graph g;
  graph_scope use(g);
  std::vector<Tower> towers = BuildTowers(4);
  TotalLoss(towers);
  Session sess(ConfigProto{.gpu_options = {.virtual_gpus = 2}});
  // The session places the whole graph at its first run, the initializer's.
  try {
    sess.run(global_variables_initializer());
    FAIL() << "four towers were placed on two GPUs";
  } catch (const errors::InvalidArgumentError& e) {
    // Chapter 4's check, in the seed's words, names the last node built
    // that asks for a missing device: tower 3's.
    EXPECT_THAT(e.what(), ::testing::StartsWith("Cannot assign a device to "
                                                "node 'tower_3/"));
    EXPECT_THAT(
        e.what(),
        ::testing::HasSubstr(
            "Could not satisfy explicit device specification '/gpu:3'"));
  }
}

// With allow_soft_placement, the towers asking for GPUs that do not exist
// go to the best device there is: GPU:0 beside two GPUs, the CPU where
// there is none.
TEST(TowersTest, SoftPlacementMovesTheMissingTowers) {
  for (int gpus : {2, 0}) {
    SCOPED_TRACE("virtual GPUs: " + std::to_string(gpus));
    Graph g;
    graph_scope use(g);
    std::vector<Tower> towers = BuildTowers(4);
    Output total = TotalLoss(towers);
    // device_count {"GPU": 0} hides the GPUs an environment may ask for.
    ConfigProto config{.allow_soft_placement = true,
                       .gpu_options = {.virtual_gpus = gpus}};
    if (gpus == 0) config.device_count = {{"GPU", 0}};
    // The user's nodes as placed: on the CPU the remapper would run each
    // tower's MatMul inside a _FusedMatMul of another name.
    config.graph_options.rewrite_options.remapping = RewriterConfig::OFF;
    Session sess(config);
    sess.run(global_variables_initializer());
    auto devices = PlacedDevices(sess, total, FeedAll(towers));
    const std::string prefix = "/job:localhost/replica:0/task:0/device:";
    EXPECT_EQ(devices["tower_0/MatMul"], prefix + (gpus ? "GPU:0" : "CPU:0"));
    EXPECT_EQ(devices["tower_1/MatMul"], prefix + (gpus ? "GPU:1" : "CPU:0"));
    EXPECT_EQ(devices["tower_2/MatMul"], prefix + (gpus ? "GPU:0" : "CPU:0"));
    EXPECT_EQ(devices["tower_3/MatMul"], prefix + (gpus ? "GPU:0" : "CPU:0"));
    EXPECT_EQ(devices["model/w1"], prefix + "CPU:0");
  }
}
// --8<-- [end:missing_device]

// --8<-- [start:missing_feed]
TEST(TowersTest, ATowerLeftUnfedIsTensorFlowsError) {
  Graph g;
  graph_scope use(g);
  std::vector<Tower> towers;
  for (int i = 0; i < 2; ++i) {
    device_scope on_gpu("/gpu:" + std::to_string(i));
    name_scope tower("tower_" + std::to_string(i));
    Output x = placeholder(DT_FLOAT, {None, 784}, "x");
    Tower t;
    t.x = x;
    t.loss = reduce_sum(x);
    towers.push_back(t);
  }
  Output total = TotalLoss(towers);
  Session sess(ConfigProto{.gpu_options = {.virtual_gpus = 2}});
  try {
    sess.run(total, {{towers[0].x, Random({1, 784}, 9, 1.f)}});
    FAIL() << "tower_1 ran without its x";
  } catch (const errors::InvalidArgumentError& e) {
    // TensorFlow 2.21 prints, after a header of Python lines, "You must feed
    // a value for placeholder tensor 'tower_1/x' with dtype float and shape
    // [?,784]\n\t [[{{node tower_1/x}}]]".
    EXPECT_THAT(e.what(), ::testing::StartsWith(
                              "You must feed a value for placeholder tensor "
                              "'tower_1/x' with dtype float and shape "
                              "[?,784]"));
  }
}
// --8<-- [end:missing_feed]

}  // namespace
}  // namespace minitf

namespace minitf {
namespace {

// Seed 004's graph with two towers, the names TensorFlow 2.21 gives it: the
// variables follow the variable scope alone ("model/W1"), every op the name
// scopes ("train/tower_1/MatMul"), and the gradients, built inside the
// tower's scopes, both ("train/tower_1/gradients/train/tower_1/...").
struct SeedModel {
  Output x, y, loss, predict, merge_summary;
  std::vector<Output> grad;
};

SeedModel BuildSeedModel(bool is_training) {
  SeedModel m;
  m.x = placeholder(DT_FLOAT, {None, 784}, "x");
  m.y = placeholder(DT_FLOAT, {None, 10}, "y");
  std::vector<Variable> vars;
  {
    device_scope on_cpu("/cpu:0");
    variable_scope model("model", AUTO_REUSE);
    vars = {get_variable("W1", {784, 256}), get_variable("b1", {256}),
            get_variable("W2", {256, 10}), get_variable("b2", {10})};
  }
  Output hidden = nn::relu(matmul(m.x, vars[0]) + vars[1]);
  Output logits = matmul(hidden, vars[2]) + vars[3];
  m.loss = reduce_mean(nn::softmax_cross_entropy_with_logits(m.y, logits));
  m.predict = argmax(logits, 1);
  if (is_training) {
    std::vector<Output> xs;
    for (const Variable& v : vars) xs.push_back(v.value());
    m.grad = gradients({m.loss}, xs);
  }
  m.merge_summary = summary::merge({summary::scalar("loss", m.loss)});
  return m;
}

TEST(TowersTest, SeedGraphHasTensorFlowsNames) {
  Graph g;
  graph_scope use(g);
  SeedModel last;
  std::string train_scope, test_scope;
  {
    name_scope train("train");
    train_scope = train.name();
    std::vector<std::vector<Output>> grads;
    for (int i = 0; i < 2; ++i) {
      device_scope on_gpu("/gpu:" + std::to_string(i));
      name_scope tower("tower_" + std::to_string(i));
      last = BuildSeedModel(true);
      grads.push_back(last.grad);
    }
    device_scope on_cpu("/cpu:0");
    std::vector<Output> averaged = average_gradients(grads);
    EXPECT_EQ(averaged[0].name(), "train/Mean:0");
    EXPECT_EQ(averaged[1].name(), "train/Mean_1:0");
  }
  SeedModel test;
  {
    name_scope scope("test");
    test_scope = scope.name();
    test = BuildSeedModel(false);
  }
  EXPECT_EQ(train_scope, "train/");
  EXPECT_EQ(test_scope, "test/");
  EXPECT_EQ(last.x.name(), "train/tower_1/x:0");
  EXPECT_EQ(last.loss.name(), "train/tower_1/Mean:0");
  EXPECT_EQ(last.predict.name(), "train/tower_1/ArgMax:0");
  EXPECT_EQ(last.grad[0].name(),
            "train/tower_1/gradients/train/tower_1/MatMul_grad/MatMul_1:0");
  EXPECT_EQ(last.grad[1].name(),
            "train/tower_1/gradients/train/tower_1/add_grad/Reshape:0");
  EXPECT_EQ(last.merge_summary.name(), "train/tower_1/Merge/MergeSummary:0");
  EXPECT_EQ(last.loss.node()->requested_device(), "/device:GPU:1");
  EXPECT_EQ(test.loss.name(), "test/Mean:0");
  EXPECT_EQ(test.x.name(), "test/x:0");
  std::vector<std::string> vars;
  for (const Variable& v : trainable_variables()) vars.push_back(v.name());
  EXPECT_EQ(vars, (std::vector<std::string>{"model/W1:0", "model/b1:0",
                                            "model/W2:0", "model/b2:0"}));
  std::vector<std::string> summaries;
  for (const Node* n : g.nodes()) {
    if (n->type_string() == "ScalarSummary") summaries.push_back(n->name());
  }
  EXPECT_EQ(summaries,
            (std::vector<std::string>{"train/tower_0/loss",
                                      "train/tower_1/loss", "test/loss"}));
}

}  // namespace
}  // namespace minitf
