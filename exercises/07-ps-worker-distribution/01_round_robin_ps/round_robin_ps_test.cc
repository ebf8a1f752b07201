// Tests of exercise 01_round_robin_ps. The starter throws
// UnimplementedError, so every test fails on it; a correct
// RoundRobinReplicaSetter places every op as the library's
// replica_device_setter does, which TensorFlow 2.21 checked (chapter 7 §4).
#include "round_robin_ps.h"

#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "minitf/distributed/training/replica_device_setter.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/ops/nn_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/tensor/errors.h"
#include "minitf/train/optimizers/gradient_descent.h"
#include "minitf/train/variables.h"

namespace minitf::exercises {
namespace {

// Node name -> the device it requested, in the order the nodes were made.
using DeviceTable = std::vector<std::pair<std::string, std::string>>;

DeviceTable Devices(const Graph& g) {
  DeviceTable table;
  for (const Node* n : g.nodes()) {
    table.emplace_back(n->name(), n->requested_device());
  }
  return table;
}

// Builds `model` in a graph of its own inside device_scope(fn).
DeviceTable Build(const DeviceFunction& fn,
                  const std::function<void()>& model) {
  Graph g;
  graph_scope use(g);
  {
    device_scope replicas(fn);
    model();
  }
  return Devices(g);
}

template <typename F>
std::string ErrorOf(F f) {
  try {
    f();
  } catch (const errors::InvalidArgumentError& e) {
    return e.what();
  }
  return "";
}

// The table TensorFlow 2.21 gave for this graph under
// replica_device_setter(ps_tasks=3): global_step takes task 0; b's /gpu:0
// is merged in; c asks for the ps job and takes a turn, d asks for the
// worker job and does not.
TEST(RoundRobinPsExerciseTest, ThreePsTasksAsTensorFlowPlacesThem) {
  const DeviceTable mine = Build(RoundRobinReplicaSetter(3, "/job:worker"), [] {
    Variable(Tensor(int64_t{0}), "global_step", false);
    auto w = Variable(zeros({784, 10}), "w");
    Variable b;
    {
      device_scope on_gpu("/gpu:0");
      b = Variable(zeros({10}), "b");
    }
    {
      device_scope on_ps("/job:ps/task:0");
      Variable(1.0f, "c");
    }
    {
      device_scope on_worker("/job:worker");
      Variable(2.0f, "d");
    }
    Variable(3.0f, "e");
    auto x = placeholder(float32, {None, 784}, "x");
    auto y = matmul(x, w) + b;
    device_scope on_cpu("/cpu:0");
    nn::softmax(y);
  });
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
  EXPECT_EQ(mine, tensorflow);
}

// Seed 003's model, built by worker 1 over two ps tasks: W, b, and then the
// global step, which takes the next turn (task 0), as in the library.
TEST(RoundRobinPsExerciseTest, Seed003AgreesWithTheLibrary) {
  auto seed_003 = [] {
    auto x = placeholder(float32, {None, 784});
    auto W = Variable(zeros({784, 10}), "W");
    auto b = Variable(zeros({10}), "b");
    auto y = nn::softmax(matmul(x, W) + b);
    auto y_ = placeholder(float32, {None, 10});
    auto cross_entropy =
        reduce_mean(-reduce_sum(y_ * log(y), std::vector<int>{1}));
    auto global_step = Variable(Tensor(int64_t{0}), "global_step", false);
    train::GradientDescentOptimizer(0.1).minimize(cross_entropy, &global_step);
  };
  const DeviceTable mine =
      Build(RoundRobinReplicaSetter(2, "/job:worker/task:1"), seed_003);
  const DeviceTable library =
      Build(train::replica_device_setter(
                {.ps_tasks = 2, .worker_device = "/job:worker/task:1"}),
            seed_003);
  EXPECT_EQ(mine, library);
  auto device_of = [&](const std::string& name) {
    for (const auto& [n, d] : mine) {
      if (n == name) return d;
    }
    return std::string("(no such node)");
  };
  EXPECT_EQ(device_of("W"), "/job:ps/task:0");
  EXPECT_EQ(device_of("b"), "/job:ps/task:1");
  EXPECT_EQ(device_of("global_step"), "/job:ps/task:0");
}

// Random programs of variables in random scopes, placed by your function
// and by the library's, over 1 to 4 ps tasks.
TEST(RoundRobinPsExerciseTest, RandomProgramsAgreeWithTheLibrary) {
  const std::vector<std::string> scopes = {"",
                                           "/gpu:0",
                                           "/cpu:0",
                                           "/job:ps",
                                           "/job:ps/task:0",
                                           "/job:worker",
                                           "/job:ps/task:3/device:CPU:0",
                                           "/job:other/task:1"};
  const std::vector<std::string> workers = {"/job:worker", "/job:worker/task:2",
                                            "", "/job:worker/device:GPU:1"};
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const int ps_tasks = 1 + static_cast<int>(rng() % 4);
    const std::string worker = workers[rng() % workers.size()];
    std::vector<std::pair<std::string, bool>> ops;  // scope, variable?
    for (int i = 0, n = 1 + static_cast<int>(rng() % 8); i < n; ++i) {
      ops.emplace_back(scopes[rng() % scopes.size()], rng() % 3 != 0);
    }
    auto program = [&ops] {
      for (const auto& [scope, variable] : ops) {
        device_scope inner(scope);
        if (variable) {
          Variable(1.0f, "v");
        } else {
          constant(Tensor(2.0f), "c");
        }
      }
    };
    EXPECT_EQ(Build(RoundRobinReplicaSetter(ps_tasks, worker), program),
              Build(train::replica_device_setter(
                        {.ps_tasks = ps_tasks, .worker_device = worker}),
                    program))
        << "trial " << trial << ": ps_tasks=" << ps_tasks << ", worker_device='"
        << worker << "'";
  }
}

// One function in two scopes continues one round robin.
TEST(RoundRobinPsExerciseTest, CopiesShareOneRoundRobin) {
  Graph g;
  graph_scope use(g);
  DeviceFunction fn = RoundRobinReplicaSetter(2, "/job:worker");
  DeviceFunction copy = fn;
  {
    device_scope first(fn);
    Variable(1.0f, "a");
  }
  {
    device_scope second(copy);
    Variable(1.0f, "b");
  }
  {
    device_scope third(fn);
    Variable(1.0f, "c");
  }
  EXPECT_EQ(g.FindNode("a")->requested_device(), "/job:ps/task:0");
  EXPECT_EQ(g.FindNode("b")->requested_device(), "/job:ps/task:1");
  EXPECT_EQ(g.FindNode("c")->requested_device(), "/job:ps/task:0");
}

TEST(RoundRobinPsExerciseTest, NoPsTasksAndErrors) {
  EXPECT_FALSE(RoundRobinReplicaSetter(0, "/job:worker"));
  EXPECT_EQ(ErrorOf([] { RoundRobinReplicaSetter(-2, "/job:worker"); }),
            "ps_tasks must not be negative, got -2");
  EXPECT_EQ(ErrorOf([] { RoundRobinReplicaSetter(2, "/job:worker/x:1"); }),
            "Malformed device specification '/job:worker/x:1'");
}

}  // namespace
}  // namespace minitf::exercises
