// tf::train::replica_device_setter against TensorFlow 2.21's
// tf.compat.v1.train.replica_device_setter: each table below is the device
// every op of the same graph requested in TensorFlow (op.device), in the
// order the ops were made. The greedy strategy's tables are from
// TensorFlow 1.15's tf.contrib.training.GreedyLoadBalancingStrategy and
// byte_size_load_fn, which TensorFlow 2 no longer ships, run on TensorFlow
// 2.21's graphs. Seed 003's graph is compared whole, node for node, with
// TensorFlow's (tests/train/testdata/tf_graphs/seed_003_ps.txt, written by
// tools/dump_tf_graphs.py).
#include "minitf/distributed/training/replica_device_setter.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "../train/tf_graph_text.h"
#include "distributed_testing.h"
#include "minitf/device/placement/device_spec.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/ops/nn_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/tensor/errors.h"
#include "minitf/train/optimizers/gradient_descent.h"
#include "minitf/train/variables.h"

namespace tf = minitf;

namespace {

using minitf::testing::InvalidArgumentText;
using tf::train::replica_device_setter;

// Node name -> the device it requested, for every node in the order made.
using DeviceTable = std::vector<std::pair<std::string, std::string>>;

DeviceTable Devices(const tf::Graph& g) {
  DeviceTable table;
  for (const tf::Node* n : g.nodes()) {
    table.emplace_back(n->name(), n->requested_device());
  }
  return table;
}

// The rows of Devices(g) for the variables themselves.
DeviceTable VariableDevices(const tf::Graph& g) {
  DeviceTable table;
  for (const tf::Node* n : g.nodes()) {
    if (n->type_string() == "VariableV2") {
      table.emplace_back(n->name(), n->requested_device());
    }
  }
  return table;
}

TEST(ReplicaDeviceSetterTest, StandardPsOpsAreTensorFlows) {
  // device_setter.STANDARD_PS_OPS.
  const std::vector<std::string_view> tensorflow = {
      "Variable",
      "VariableV2",
      "AutoReloadVariable",
      "MutableHashTable",
      "MutableHashTableV2",
      "MutableHashTableOfTensors",
      "MutableHashTableOfTensorsV2",
      "MutableDenseHashTable",
      "MutableDenseHashTableV2",
      "VarHandleOp",
      "BoostedTreesEnsembleResourceHandleOp",
      "BoostedTreesQuantileStreamResourceHandleOp",
      "ResourceConditionalAccumulator",
      "DecisionTreeResource"};
  EXPECT_EQ(std::vector<std::string_view>(tf::train::STANDARD_PS_OPS.begin(),
                                          tf::train::STANDARD_PS_OPS.end()),
            tensorflow);
}

// --8<-- [start:seed_003_ps]
// Seed 003's program on a cluster, as worker 1 builds it.
TEST(ReplicaDeviceSetterTest, Seed003OnTwoPsTasks) {
  tf::Graph g;
  tf::graph_scope use(g);
  tf::train::ClusterSpec cluster(
      {{"ps", {"localhost:2222", "localhost:2223"}},
       {"worker", {"localhost:2224", "localhost:2225"}}});
  {
    tf::device_scope replicas(replica_device_setter(
        {.worker_device = "/job:worker/task:1", .cluster = cluster}));
    auto x = tf::placeholder(tf::float32, {tf::None, 784});
    auto W = tf::Variable(tf::zeros({784, 10}));
    auto b = tf::Variable(tf::zeros({10}));
    auto y = tf::nn::softmax(tf::matmul(x, W) + b);
    auto y_ = tf::placeholder(tf::float32, {tf::None, 10});
    auto cross_entropy =
        tf::reduce_mean(-tf::reduce_sum(y_ * tf::log(y), std::vector<int>{1}));
    auto global_step = tf::Variable(tf::Tensor(int64_t{0}), "global_step",
                                    /*trainable=*/false);
    tf::train::GradientDescentOptimizer(0.1).minimize(cross_entropy,
                                                      &global_step);
  }
  // Every node not listed asks for "/job:worker/task:1".
  const DeviceTable on_ps = {
      {"Variable", "/job:ps/task:0"},
      {"Variable/Assign", "/job:ps/task:0"},
      {"Variable/read", "/job:ps/task:0"},
      {"Variable_1", "/job:ps/task:1"},
      {"Variable_1/Assign", "/job:ps/task:1"},
      {"Variable_1/read", "/job:ps/task:1"},
      {"global_step", "/job:ps/task:0"},
      {"global_step/Assign", "/job:ps/task:0"},
      {"global_step/read", "/job:ps/task:0"},
      {"GradientDescent/update_Variable/ApplyGradientDescent",
       "/job:ps/task:0"},
      {"GradientDescent/update_Variable_1/ApplyGradientDescent",
       "/job:ps/task:1"},
      {"GradientDescent/update/NoOp", "/job:ps/task:0"},
      {"GradientDescent/update/NoOp_1", "/job:ps/task:1"},
      {"GradientDescent/value", "/job:ps/task:0"},
      {"GradientDescent", "/job:ps/task:0"},
  };
  // --8<-- [end:seed_003_ps]
  DeviceTable got_on_ps;
  for (const auto& [name, device] : Devices(g)) {
    if (device != "/job:worker/task:1") got_on_ps.emplace_back(name, device);
  }
  EXPECT_EQ(got_on_ps, on_ps);
  // Names, ops, inputs, attrs and devices, as TensorFlow made them.
  tf::tf_graphs::ExpectSameNodes(g, "seed_003_ps");
}

// Every ps op advances the round robin, global_step included; an op's own
// device is merged over the chosen one; an op that asks for another job
// keeps it and calls no strategy, while one that asks for the ps job does.
TEST(ReplicaDeviceSetterTest, RoundRobinOverThreePsTasks) {
  tf::Graph g;
  tf::graph_scope use(g);
  {
    tf::device_scope replicas(replica_device_setter({.ps_tasks = 3}));
    tf::Variable(tf::Tensor(int64_t{0}), "global_step", false);
    auto w = tf::Variable(tf::zeros({784, 10}), "w");
    tf::Variable b;
    {
      tf::device_scope on_gpu("/gpu:0");
      b = tf::Variable(tf::zeros({10}), "b");
    }
    {
      tf::device_scope on_ps("/job:ps/task:0");
      tf::Variable(1.0f, "c");
    }
    {
      tf::device_scope on_worker("/job:worker");
      tf::Variable(2.0f, "d");
    }
    tf::Variable(3.0f, "e");
    auto x = tf::placeholder(tf::float32, {tf::None, 784}, "x");
    auto y = tf::matmul(x, w) + b;
    tf::device_scope on_cpu("/cpu:0");
    tf::nn::softmax(y);
  }
  const DeviceTable tensorflow = {
      {"global_step/initial_value", "/job:worker"},
      {"global_step", "/job:ps/task:0"},
      {"global_step/Assign", "/job:ps/task:0"},
      {"global_step/read", "/job:ps/task:0"},
      {"zeros/shape_as_tensor", "/job:worker"},
      {"zeros/Const", "/job:worker"},
      {"zeros", "/job:worker"},
      {"w", "/job:ps/task:1"},
      {"w/Assign", "/job:ps/task:1"},
      {"w/read", "/job:ps/task:1"},
      {"zeros_1", "/job:worker/device:GPU:0"},
      {"b", "/job:ps/task:2/device:GPU:0"},
      {"b/Assign", "/job:ps/task:2/device:GPU:0"},
      {"b/read", "/job:ps/task:2/device:GPU:0"},
      {"c/initial_value", "/job:ps/task:0"},
      {"c", "/job:ps/task:0"},
      {"c/Assign", "/job:ps/task:0"},
      {"c/read", "/job:ps/task:0"},
      {"d/initial_value", "/job:worker"},
      {"d", "/job:worker"},
      {"d/Assign", "/job:worker"},
      {"d/read", "/job:worker"},
      {"e/initial_value", "/job:worker"},
      {"e", "/job:ps/task:1"},
      {"e/Assign", "/job:ps/task:1"},
      {"e/read", "/job:ps/task:1"},
      {"x", "/job:worker"},
      {"MatMul", "/job:worker"},
      {"add", "/job:worker"},
      {"Softmax", "/job:worker/device:CPU:0"},
  };
  EXPECT_EQ(Devices(g), tensorflow);
}

// merge_devices=false: an op that asks for a device keeps it whole, and a
// ps op that does calls no strategy (u leaves task 1 to v). ps_device's CPU
// and worker_device's task reach the ops that ask for nothing.
TEST(ReplicaDeviceSetterTest, WithoutMergingOwnDevicesStand) {
  tf::Graph g;
  tf::graph_scope use(g);
  {
    tf::device_scope replicas(
        replica_device_setter({.ps_tasks = 2,
                               .ps_device = "/job:ps/device:CPU:0",
                               .worker_device = "/job:worker/task:1",
                               .merge_devices = false}));
    auto w = tf::Variable(1.0f, "w");
    {
      tf::device_scope on_ps1("/job:ps/task:1");
      tf::Variable(2.0f, "u");
    }
    auto v = tf::Variable(3.0f, "v");
    {
      tf::device_scope on_gpu("/gpu:0");
      tf::constant(tf::Tensor(4.0f), "k");
    }
    tf::Output(w) + tf::Output(v);
  }
  const DeviceTable tensorflow = {
      {"w/initial_value", "/job:worker/task:1"},
      {"w", "/job:ps/task:0/device:CPU:0"},
      {"w/Assign", "/job:ps/task:0/device:CPU:0"},
      {"w/read", "/job:ps/task:0/device:CPU:0"},
      {"u/initial_value", "/job:ps/task:1"},
      {"u", "/job:ps/task:1"},
      {"u/Assign", "/job:ps/task:1"},
      {"u/read", "/job:ps/task:1"},
      {"v/initial_value", "/job:worker/task:1"},
      {"v", "/job:ps/task:1/device:CPU:0"},
      {"v/Assign", "/job:ps/task:1/device:CPU:0"},
      {"v/read", "/job:ps/task:1/device:CPU:0"},
      {"k", "/device:GPU:0"},
      {"add", "/job:worker/task:1"},
  };
  EXPECT_EQ(Devices(g), tensorflow);
}

// With a cluster, the number of ps tasks is the ps job's; worker_device may
// name a task and a device, and an inner scope's device still wins.
TEST(ReplicaDeviceSetterTest, ClusterGivesTheNumberOfPsTasks) {
  tf::Graph g;
  tf::graph_scope use(g);
  tf::train::ClusterSpec cluster({{"ps", {"ps0:2222", "ps1:2222", "ps2:2222"}},
                                  {"worker", {"w0:2222", "w1:2222"}}});
  {
    tf::device_scope replicas(replica_device_setter(
        {.worker_device = "/job:worker/task:1/gpu:0", .cluster = cluster}));
    auto a = tf::Variable(1.0f, "a");
    auto b = tf::Variable(2.0f, "b");
    {
      tf::device_scope on_cpu("/cpu:0");
      tf::Output(a) + tf::Output(b);
    }
    tf::Output(a) * tf::Output(b);
  }
  const DeviceTable tensorflow = {
      {"a/initial_value", "/job:worker/task:1/device:GPU:0"},
      {"a", "/job:ps/task:0"},
      {"a/Assign", "/job:ps/task:0"},
      {"a/read", "/job:ps/task:0"},
      {"b/initial_value", "/job:worker/task:1/device:GPU:0"},
      {"b", "/job:ps/task:1"},
      {"b/Assign", "/job:ps/task:1"},
      {"b/read", "/job:ps/task:1"},
      {"add", "/job:worker/task:1/device:CPU:0"},
      {"mul", "/job:worker/task:1/device:GPU:0"},
  };
  EXPECT_EQ(Devices(g), tensorflow);
}

// ps_device names the ps job: here "param", counted in the cluster.
TEST(ReplicaDeviceSetterTest, PsJobOfAnotherName) {
  tf::Graph g;
  tf::graph_scope use(g);
  tf::train::ClusterSpec cluster(
      {{"param", {"p0:1", "p1:1"}}, {"worker", {"w0:2222"}}});
  {
    tf::device_scope replicas(
        replica_device_setter({.ps_device = "/job:param",
                               .worker_device = "/job:worker/task:0",
                               .cluster = cluster}));
    tf::Variable(1.0f, "a");
    tf::Variable(1.0f, "b");
  }
  const DeviceTable tensorflow = {
      {"a/initial_value", "/job:worker/task:0"},
      {"a", "/job:param/task:0"},
      {"a/Assign", "/job:param/task:0"},
      {"a/read", "/job:param/task:0"},
      {"b/initial_value", "/job:worker/task:0"},
      {"b", "/job:param/task:1"},
      {"b/Assign", "/job:param/task:1"},
      {"b/read", "/job:param/task:1"},
  };
  EXPECT_EQ(Devices(g), tensorflow);
}

// A ps_device without a job gets no task (TensorFlow picks one only for a
// job), and an empty worker_device leaves the other ops as they are.
TEST(ReplicaDeviceSetterTest, PsDeviceWithoutAJob) {
  tf::Graph g;
  tf::graph_scope use(g);
  {
    tf::device_scope replicas(replica_device_setter(
        {.ps_tasks = 2, .ps_device = "/device:CPU:0", .worker_device = ""}));
    auto a = tf::Variable(1.0f, "a");
    tf::Variable b;
    {
      tf::device_scope on_ps1("/job:ps/task:1");
      b = tf::Variable(1.0f, "b");
    }
    tf::Output(a) + tf::Output(b);
  }
  const DeviceTable tensorflow = {
      {"a/initial_value", ""},
      {"a", "/device:CPU:0"},
      {"a/Assign", "/device:CPU:0"},
      {"a/read", "/device:CPU:0"},
      {"b/initial_value", "/job:ps/task:1"},
      {"b", "/job:ps/task:1/device:CPU:0"},
      {"b/Assign", "/job:ps/task:1/device:CPU:0"},
      {"b/read", "/job:ps/task:1/device:CPU:0"},
      {"add", ""},
  };
  EXPECT_EQ(Devices(g), tensorflow);
}

// ps_ops replaces the standard list: here placeholders go to the ps tasks
// and the variable stays on the worker.
TEST(ReplicaDeviceSetterTest, PsOpsReplaceTheStandardList) {
  tf::Graph g;
  tf::graph_scope use(g);
  {
    tf::device_scope replicas(replica_device_setter(
        {.ps_tasks = 2, .ps_ops = std::vector<std::string>{"Placeholder"}}));
    tf::Variable(1.0f, "a");
    tf::placeholder(tf::float32, tf::TensorShape::UnknownRank(), "x");
    tf::placeholder(tf::float32, tf::TensorShape::UnknownRank(), "y");
    tf::placeholder(tf::float32, tf::TensorShape::UnknownRank(), "z");
  }
  const DeviceTable tensorflow = {
      {"a/initial_value", "/job:worker"},
      {"a", "/job:worker"},
      {"a/Assign", "/job:worker"},
      {"a/read", "/job:worker"},
      {"x", "/job:ps/task:0"},
      {"y", "/job:ps/task:1"},
      {"z", "/job:ps/task:0"},
  };
  EXPECT_EQ(Devices(g), tensorflow);
}

// --8<-- [start:greedy]
// A global step and three layers' weights and biases, of very different
// sizes, under `strategy` over three ps tasks.
void BuildSevenVariables(tf::train::PsStrategy strategy) {
  tf::device_scope replicas(replica_device_setter(
      {.ps_tasks = 3, .ps_strategy = std::move(strategy)}));
  tf::Variable(tf::Tensor(int64_t{0}), "global_step", false);  //  8 bytes
  tf::Variable(tf::zeros({784, 256}), "w1");                   // 802816
  tf::Variable(tf::zeros({256}), "b1");                        //   1024
  tf::Variable(tf::zeros({256, 10}), "w2");                    //  10240
  tf::Variable(tf::zeros({10}), "b2");                         //     40
  tf::Variable(tf::zeros({784, 10}, tf::float64), "w3");       //  62720
  tf::Variable(tf::zeros({10}, tf::float64), "b3");            //     80
}

// The greedy balancer puts each variable on the ps task with the fewest
// bytes so far.
TEST(ReplicaDeviceSetterTest, GreedyLoadBalancingByByteSize) {
  tf::Graph g;
  tf::graph_scope use(g);
  tf::train::GreedyLoadBalancingStrategy greedy(3,
                                                tf::train::byte_size_load_fn);
  BuildSevenVariables(greedy);
  const DeviceTable tensorflow = {
      {"global_step", "/job:ps/task:0"}, {"w1", "/job:ps/task:1"},
      {"b1", "/job:ps/task:2"},          {"w2", "/job:ps/task:0"},
      {"b2", "/job:ps/task:2"},          {"w3", "/job:ps/task:2"},
      {"b3", "/job:ps/task:0"},
  };
  EXPECT_EQ(VariableDevices(g), tensorflow);
  EXPECT_EQ(greedy.loads(), (std::vector<double>{10328, 802816, 63784}));
}
// --8<-- [end:greedy]

// The same variables in turn, whatever their size: task 1 gets b2's 40
// bytes on top of w1, as TensorFlow's round robin places them.
TEST(ReplicaDeviceSetterTest, RoundRobinIgnoresSize) {
  tf::Graph g;
  tf::graph_scope use(g);
  BuildSevenVariables(tf::train::RoundRobinStrategy(3));
  const DeviceTable tensorflow = {
      {"global_step", "/job:ps/task:0"}, {"w1", "/job:ps/task:1"},
      {"b1", "/job:ps/task:2"},          {"w2", "/job:ps/task:0"},
      {"b2", "/job:ps/task:1"},          {"w3", "/job:ps/task:2"},
      {"b3", "/job:ps/task:0"},
  };
  EXPECT_EQ(VariableDevices(g), tensorflow);
  std::vector<int64_t> bytes(3, 0);
  for (const tf::Node* n : g.nodes()) {
    if (n->type_string() != "VariableV2") continue;
    const int task = *tf::DeviceSpec::from_string(n->requested_device()).task;
    bytes[task] += tf::train::byte_size_load_fn(*n);
  }
  EXPECT_EQ(bytes, (std::vector<int64_t>{10328, 802856, 63744}));
}

TEST(ReplicaDeviceSetterTest, ByteSizeLoadFnErrors) {
  auto greedy_on = [](const std::string& ps_op) {
    return replica_device_setter(
        {.ps_tasks = 2,
         .ps_ops = std::vector<std::string>{ps_op},
         .ps_strategy = tf::train::GreedyLoadBalancingStrategy(
             2, tf::train::byte_size_load_fn)});
  };
  tf::Graph g;
  tf::graph_scope use(g);
  {
    tf::device_scope replicas(greedy_on("Placeholder"));
    EXPECT_EQ(InvalidArgumentText([] {
                tf::placeholder(tf::float32, {tf::None, 784}, "x");
              }),
              "Shape (?, 784) is not fully defined");
    EXPECT_EQ(InvalidArgumentText([] {
                tf::placeholder(tf::float32, tf::TensorShape::UnknownRank(),
                                "u");
              }),
              "Shape <unknown> is not fully defined");
  }
  {
    tf::device_scope replicas(greedy_on("NoOp"));
    // TensorFlow prints the NodeDef over lines, minitf on one.
    EXPECT_EQ(InvalidArgumentText([] { tf::no_op("n"); }),
              "Op name: \"n\" op: \"NoOp\" must have a single output");
  }
  // As in TensorFlow, the op stays in the graph, asking for no device.
  EXPECT_EQ(Devices(g), (DeviceTable{{"x", ""}, {"u", ""}, {"n", ""}}));
}

// Where TensorFlow returns None: no ps tasks, a cluster without the ps job,
// a ps_device without a job. tf.device(None) then resets the device.
TEST(ReplicaDeviceSetterTest, NoPsTasksGiveAnEmptyFunction) {
  EXPECT_FALSE(replica_device_setter());
  EXPECT_FALSE(replica_device_setter(
      {.cluster = tf::train::ClusterSpec({{"worker", {"w0:2222"}}})}));
  tf::train::ClusterSpec param({{"param", {"p0:1"}}, {"worker", {"w0:1"}}});
  EXPECT_FALSE(
      replica_device_setter({.ps_device = "/cpu:0", .cluster = param}));
  EXPECT_FALSE(replica_device_setter({.ps_device = "", .cluster = param}));
  EXPECT_TRUE(
      replica_device_setter({.ps_device = "/job:param", .cluster = param}));

  tf::Graph g;
  tf::graph_scope use(g);
  {
    tf::device_scope on_gpu("/gpu:1");
    tf::device_scope none(replica_device_setter());
    tf::constant(tf::Tensor(1.0f), "t");
  }
  EXPECT_EQ(Devices(g), (DeviceTable{{"t", ""}}));
}

// One function in two scopes continues one round robin, as one Python
// function object would.
TEST(ReplicaDeviceSetterTest, CopiesShareTheStrategy) {
  tf::Graph g;
  tf::graph_scope use(g);
  tf::DeviceFunction fn = replica_device_setter({.ps_tasks = 2});
  {
    tf::device_scope first(fn);
    tf::Variable(1.0f, "a");
  }
  {
    tf::device_scope second(fn);
    tf::Variable(1.0f, "b");
  }
  EXPECT_EQ(g.FindNode("a")->requested_device(), "/job:ps/task:0");
  EXPECT_EQ(g.FindNode("b")->requested_device(), "/job:ps/task:1");
}

TEST(ReplicaDeviceSetterTest, Errors) {
  EXPECT_EQ(
      InvalidArgumentText([] { replica_device_setter({.ps_tasks = -2}); }),
      "ps_tasks must not be negative, got -2");
  EXPECT_EQ(
      InvalidArgumentText([] {
        replica_device_setter({.ps_tasks = 1, .ps_device = "/job:ps/x:1"});
      }),
      "Malformed device specification '/job:ps/x:1'");
  EXPECT_EQ(InvalidArgumentText([] { tf::train::RoundRobinStrategy(0); }),
            "RoundRobinStrategy needs at least one task, got num_tasks=0");
  EXPECT_EQ(InvalidArgumentText([] {
              tf::train::GreedyLoadBalancingStrategy(
                  0, tf::train::byte_size_load_fn);
            }),
            "GreedyLoadBalancingStrategy needs at least one task, got "
            "num_tasks=0");
  EXPECT_EQ(InvalidArgumentText(
                [] { tf::train::GreedyLoadBalancingStrategy(2, nullptr); }),
            "GreedyLoadBalancingStrategy needs a load_fn");

  tf::Graph g;
  tf::graph_scope use(g);
  tf::device_scope replicas(replica_device_setter(
      {.ps_tasks = 2, .ps_strategy = [](const tf::Node&) { return -1; }}));
  EXPECT_EQ(InvalidArgumentText([] { tf::Variable(1.0f, "v"); }),
            "ps_strategy chose task -1 for op 'v'; a task index is not "
            "negative");
}

}  // namespace
