#include "minitf/train/saver/meta_graph.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "file_test_util.h"
#include "minitf/graph/graph_def.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/tensor/errors.h"
#include "minitf/train/optimizers/gradient_descent.h"
#include "minitf/train/saver/saver.h"
#include "minitf/train/summary/summary_ops.h"
#include "minitf/train/variables.h"

namespace minitf::train {
namespace {
namespace fs = std::filesystem;
using testing::ErrorOf;
using testing::WriteFile;

std::string TestDir() { return testing::TestDir("meta_graph_test"); }

const std::string kTfDir = MINITF_TF_CHECKPOINTS_DIR;

const NodeDef* FindNode(const GraphDef& gd, const std::string& name) {
  for (const NodeDef& n : gd.node()) {
    if (n.name() == name) return &n;
  }
  return nullptr;
}

// A linear model with a loss collection and a train op, trained one step
// and saved; returns the prefix and, in `*want`, y for x = [[1, 2]].
std::string SaveModel(const std::string& dir, std::vector<float>* want) {
  Graph g;
  graph_scope use(g);
  auto x = placeholder(float32, {None, 2}, "x");
  Variable w(Tensor({{1.f}, {2.f}}), "weight");
  Variable b(Tensor({0.5f}), "bias");
  auto y = matmul(x, w) + b;
  auto loss = reduce_mean(square(y), std::nullopt, false, "loss");
  Variable step(Tensor(int64_t{0}), "global_step", /*trainable=*/false);
  auto train = GradientDescentOptimizer(0.1f).minimize(loss, &step);
  add_to_collection("loss", loss);
  add_to_collection(GraphKeys::TRAIN_OP, train);
  summary::scalar("loss", loss);  // the summaries collection
  Saver saver;
  Session sess;
  sess.run(global_variables_initializer());
  const FeedDict feed = {{x, Tensor({{1.f, 2.f}})}};
  sess.run(train, feed);
  const Tensor out = sess.run(y, feed);
  want->assign(out.data<float>(), out.data<float>() + out.NumElements());
  return saver.save(sess, dir + "/model.ckpt", 1);
}

TEST(MetaGraphTest, MinitfReadsItsOwnMetaGraphWithCollections) {
  std::vector<float> want;
  const std::string prefix = SaveModel(TestDir(), &want);
  Graph g;
  graph_scope use(g);
  std::shared_ptr<Saver> saver = import_meta_graph(prefix + ".meta");
  ASSERT_NE(saver, nullptr);
  std::vector<std::string> names;
  for (const Variable& v : global_variables()) names.push_back(v.name());
  EXPECT_EQ(names,
            (std::vector<std::string>{"weight:0", "bias:0", "global_step:0"}));
  EXPECT_EQ(trainable_variables().size(), 2u);
  ASSERT_EQ(get_collection<Output>("loss").size(), 1u);
  EXPECT_EQ(get_collection<Output>("loss")[0].name(), "loss:0");
  ASSERT_EQ(get_collection<Operation>(GraphKeys::TRAIN_OP).size(), 1u);
  ASSERT_EQ(get_collection<Output>(GraphKeys::SUMMARIES).size(), 1u);
  EXPECT_EQ(get_collection<Output>(GraphKeys::SUMMARIES)[0].op().type(),
            "ScalarSummary");
  Session sess;
  saver->restore(sess, prefix);
  const Tensor y =
      sess.run(*g.GetTensorByName("add:0"),
               {{*g.GetTensorByName("x:0"), Tensor({{1.f, 2.f}})}});
  EXPECT_EQ(std::vector<float>(y.data<float>(), y.data<float>() + 1), want);
  EXPECT_EQ(sess.run(global_variables()[2]).scalar<int64_t>(), 1);
}

TEST(MetaGraphTest, TheMetaGraphCarriesTensorFlowsSaverOps) {
  std::vector<float> want;
  const std::string prefix = SaveModel(TestDir(), &want);
  const MetaGraphDef meta = *ReadMetaGraph(prefix + ".meta");
  EXPECT_EQ(meta.saver_def().restore_op_name(), "save/restore_all");
  EXPECT_EQ(meta.saver_def().filename_tensor_name(), "save/Const:0");
  EXPECT_EQ(meta.saver_def().version(), SaverDef::V2);
  const GraphDef& gd = meta.graph_def();
  ASSERT_NE(FindNode(gd, "save/RestoreV2"), nullptr);
  EXPECT_EQ(FindNode(gd, "save/RestoreV2")->op(), "RestoreV2");
  // Variables sorted by name, as TensorFlow's Saver sorts them.
  EXPECT_EQ(FindNode(gd, "save/Assign")->input(0), "bias");
  EXPECT_EQ(FindNode(gd, "save/Assign_2")->input(0), "weight");
  EXPECT_EQ(FindNode(gd, "save/Assign_2")->input(1), "save/RestoreV2:2");
  EXPECT_EQ(FindNode(gd, "save/restore_value"), nullptr);
  EXPECT_EQ(meta.collection_def().at("variables").bytes_list().value_size(), 3);
  EXPECT_EQ(meta.collection_def().at("loss").node_list().value(0), "loss:0");
}

TEST(MetaGraphTest, MinitfReadsTensorFlowsMetaGraphAndCheckpoint) {
  Graph g;
  graph_scope use(g);
  std::shared_ptr<Saver> saver = import_meta_graph(kTfDir + "/model.ckpt.meta");
  ASSERT_NE(saver, nullptr);
  ASSERT_EQ(global_variables().size(), 2u);
  EXPECT_EQ(global_variables()[0].name(), "weight:0");
  Session sess;
  saver->restore(sess, kTfDir + "/model.ckpt");
  const Tensor w = sess.run(global_variables()[0]);
  EXPECT_EQ(std::vector<float>(w.data<float>(), w.data<float>() + 6),
            (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(sess.run(global_variables()[1]).scalar<int64_t>(), 7);
}

TEST(MetaGraphTest, AnOpMinitfLacksIsNotFoundNamingTheFileAndOp) {
  const std::string dir = TestDir();
  MetaGraphDef meta = *ReadMetaGraph(kTfDir + "/model.ckpt.meta");
  NodeDef* n = meta.mutable_graph_def()->add_node();
  n->set_name("fancy");
  n->set_op("FancyOp");
  WriteFile(dir + "/m.meta", meta.SerializeAsString());
  Graph g;
  graph_scope use(g);
  const std::string msg = ErrorOf<errors::NotFoundError>(
      [&] { import_meta_graph(dir + "/m.meta"); });
  EXPECT_NE(msg.find(dir + "/m.meta"), std::string::npos) << msg;
  EXPECT_NE(msg.find("FancyOp"), std::string::npos) << msg;
  EXPECT_EQ(g.num_nodes(), 0);
}

TEST(MetaGraphTest, MissingAndForeignFiles) {
  const std::string dir = TestDir();
  Graph g;
  graph_scope use(g);
  EXPECT_NE(ErrorOf<errors::NotFoundError>([&] {
              import_meta_graph(dir + "/none.meta");
            }).find(dir + "/none.meta"),
            std::string::npos);
  WriteFile(dir + "/bad.meta", "\xff\xff\xff\xff");
  EXPECT_NE(ErrorOf<errors::DataLossError>([&] {
              import_meta_graph(dir + "/bad.meta");
            }).find(dir + "/bad.meta"),
            std::string::npos);
}

TEST(MetaGraphTest, AShapeThatDisagreesNamesTheVariableAndCheckpoint) {
  Graph g;
  graph_scope use(g);
  Variable w(Tensor({{1.f, 2.f}, {3.f, 4.f}}), "weight");
  Variable b(Tensor(int64_t{0}), "bias");
  Saver saver;
  Session sess;
  const std::string msg = ErrorOf<errors::InvalidArgumentError>(
      [&] { saver.restore(sess, kTfDir + "/model.ckpt"); });
  EXPECT_EQ(msg, "Restoring variable weight from checkpoint " + kTfDir +
                     "/model.ckpt: Assign requires shapes of both tensors to "
                     "match. lhs shape= [2,2] rhs shape= [2,3]");
}

}  // namespace
}  // namespace minitf::train
