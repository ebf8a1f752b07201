// Tests of exercise 02_split_by_task. The starter answers Unimplemented, so
// every test fails on it; a correct split puts each node where the
// library's cut by task does (chapter 4's Partition with node_to_loc, as the
// master calls it) and names one transfer per _Recv that cut makes.
#include "split_by_task.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "minitf/device/partition/graph_partition.h"
#include "minitf/device/placement/device_spec.h"
#include "minitf/distributed/runtime/worker_cache.h"
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

// Assigns every node the full name of the device it requested, as the
// placer would on a cluster with one CPU per task: "/job:ps/task:1" ->
// "/job:ps/replica:0/task:1/device:CPU:0".
void PlaceAsRequested(Graph* g) {
  for (Node* n : g->nodes()) {
    DeviceSpec spec = DeviceSpec::from_string(n->requested_device());
    if (!spec.replica) spec.replica = 0;
    if (!spec.device_type) spec.device_type = "CPU";
    if (!spec.device_index) spec.device_index = 0;
    n->set_assigned_device(spec.to_string());
  }
}

// Seed 003's model, built by worker `task` over two ps tasks, and placed.
void Seed003(Graph* g, int task) {
  graph_scope use(*g);
  device_scope replicas(train::replica_device_setter(
      {.ps_tasks = 2,
       .worker_device = "/job:worker/task:" + std::to_string(task)}));
  auto x = placeholder(float32, {None, 784}, "x");
  auto W = Variable(zeros({784, 10}), "W");
  auto b = Variable(zeros({10}), "b");
  auto y = nn::softmax(matmul(x, W) + b);
  auto y_ = placeholder(float32, {None, 10}, "y_");
  auto cross_entropy =
      reduce_mean(-reduce_sum(y_ * log(y), std::vector<int>{1}));
  auto global_step = Variable(Tensor(int64_t{0}), "global_step", false);
  train::GradientDescentOptimizer(0.1).minimize(cross_entropy, &global_step);
  PlaceAsRequested(g);
}

// The library's cut by task: the original nodes in each partition, and one
// "tensor -> task" per _Recv it made.
TaskSplit LibrarySplit(const Graph& g) {
  PartitionOptions options;
  options.incarnation = [](const std::string&) { return uint64_t{1}; };
  options.node_to_loc = [](const Node& n) {
    return TaskOfDevice(n.assigned_device()).value();
  };
  auto parts = Partition(g, options);
  EXPECT_TRUE(parts.ok()) << parts.status();
  TaskSplit split;
  std::set<std::string> transfers;
  for (const auto& [task, part] : *parts) {
    for (const Node* n : part->nodes()) {
      if (n->type_string() == "_Recv") {
        transfers.insert(n->attrs().at("tensor_name").get<std::string>() +
                         " -> " + task);
      } else if (g.FindNode(n->name()) != nullptr) {
        split.nodes[task].push_back(n->name());
      }
    }
  }
  split.transfers.assign(transfers.begin(), transfers.end());
  return split;
}

TEST(SplitByTaskExerciseTest, TaskOfAFullDeviceName) {
  for (const char* name :
       {"/job:ps/replica:0/task:0/device:CPU:0",
        "/job:worker/replica:0/task:12/device:GPU:3", "/job:ps/task:1/cpu:0",
        "/job:localhost/replica:2/task:0", "/job:chief/task:0"}) {
    StatusOr<std::string> mine = TaskOf(name);
    ASSERT_TRUE(mine.ok()) << name << ": " << mine.status();
    EXPECT_EQ(*mine, TaskOfDevice(name).value()) << name;
  }
  EXPECT_EQ(TaskOf("/job:ps/task:1/device:CPU:0").value(),
            "/job:ps/replica:0/task:1");
}

TEST(SplitByTaskExerciseTest, NamesWithoutATaskAreErrors) {
  for (const char* name :
       {"/device:CPU:0", "/job:ps/device:CPU:0", "/task:0/device:CPU:0", ""}) {
    StatusOr<std::string> mine = TaskOf(name);
    ASSERT_FALSE(mine.ok()) << name;
    EXPECT_EQ(mine.status().code(), error::INVALID_ARGUMENT);
    EXPECT_EQ(mine.status().message(),
              StrCat("Device name '", name, "' names no job and task"));
  }
  StatusOr<std::string> bad = TaskOf("/job:ps/x:1");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "Malformed device specification '/job:ps/x:1'");
}

// Seed 003 on two ps tasks, built by worker 1: W and global_step on ps 0,
// b on ps 1, the rest on the worker; the cut is the library's.
TEST(SplitByTaskExerciseTest, Seed003AsTheMasterCutsIt) {
  Graph g;
  Seed003(&g, 1);
  StatusOr<TaskSplit> mine = SplitByTask(g);
  ASSERT_TRUE(mine.ok()) << mine.status();
  const TaskSplit library = LibrarySplit(g);
  EXPECT_EQ(mine->nodes, library.nodes);
  EXPECT_EQ(mine->transfers, library.transfers);
  // The variables' reads go to the worker once each, however many ops read
  // them there; each gradient goes to its variable's task.
  const std::vector<std::string>& t = mine->transfers;
  EXPECT_EQ(std::count(t.begin(), t.end(),
                       "W/read:0 -> /job:worker/replica:0/task:1"),
            1);
  EXPECT_EQ(std::count(t.begin(), t.end(),
                       "b/read:0 -> /job:worker/replica:0/task:1"),
            1);
  ASSERT_EQ(mine->nodes.size(), 3u);
  const std::vector<std::string>& ps0 =
      mine->nodes.at("/job:ps/replica:0/task:0");
  EXPECT_NE(std::find(ps0.begin(), ps0.end(), "global_step"), ps0.end());
  EXPECT_NE(std::find(ps0.begin(), ps0.end(), "W"), ps0.end());
}

// Edges inside a task need no transfer, even between two of its devices
// (a on CPU:0 to b on GPU:0); a tensor read twice on another task crosses
// once (a), and a control edge across tasks is a "^name" transfer (b).
TEST(SplitByTaskExerciseTest, DevicesOfOneTaskShareItsPart) {
  Graph g;
  {
    graph_scope use(g);
    Output a, b, c;
    {
      device_scope on("/job:worker/task:0/device:CPU:0");
      a = constant(Tensor(1.0f), "a");
    }
    {
      device_scope on("/job:worker/task:0/device:GPU:0");
      b = add(a, a, "b");
      control_dependencies after({b.op()});
      c = constant(Tensor(2.0f), "c");
    }
    {
      device_scope on("/job:ps/task:0");
      control_dependencies after({b.op()});
      auto d = add(a, c, "d");
      add(d, a, "e");
    }
  }
  PlaceAsRequested(&g);
  StatusOr<TaskSplit> mine = SplitByTask(g);
  ASSERT_TRUE(mine.ok()) << mine.status();
  EXPECT_EQ(mine->nodes,
            (std::map<std::string, std::vector<std::string>>{
                {"/job:ps/replica:0/task:0", {"d", "e"}},
                {"/job:worker/replica:0/task:0", {"a", "b", "c"}}}));
  EXPECT_EQ(mine->transfers,
            (std::vector<std::string>{"^b -> /job:ps/replica:0/task:0",
                                      "a:0 -> /job:ps/replica:0/task:0",
                                      "c:0 -> /job:ps/replica:0/task:0"}));
  const TaskSplit library = LibrarySplit(g);
  EXPECT_EQ(mine->nodes, library.nodes);
  EXPECT_EQ(mine->transfers, library.transfers);
}

// Random graphs of up to 12 nodes over four tasks of two devices each.
TEST(SplitByTaskExerciseTest, RandomGraphsAgreeWithTheLibrary) {
  const std::vector<std::string> devices = {
      "/job:ps/task:0/device:CPU:0",     "/job:ps/task:1/device:CPU:0",
      "/job:worker/task:0/device:CPU:0", "/job:worker/task:0/device:GPU:0",
      "/job:worker/task:1/device:CPU:0", "/job:worker/task:1/device:GPU:1",
      "/job:ps/task:1/device:GPU:0"};
  uint32_t seed = 11;
  auto next = [&seed](uint32_t n) {
    seed = seed * 1664525u + 1013904223u;
    return (seed >> 8) % n;
  };
  for (int trial = 0; trial < 100; ++trial) {
    Graph g;
    {
      graph_scope use(g);
      std::vector<Output> made;
      for (int i = 0, n = 1 + static_cast<int>(next(12)); i < n; ++i) {
        device_scope on(devices[next(devices.size())]);
        if (made.empty() || next(3) == 0) {
          made.push_back(constant(Tensor(1.0f * i), "n"));
          continue;
        }
        Output x = made[next(made.size())];
        Output y = made[next(made.size())];
        if (next(2) == 0) {
          control_dependencies after({made[next(made.size())].op()});
          made.push_back(add(x, y, "n"));
        } else {
          made.push_back(add(x, y, "n"));
        }
      }
    }
    PlaceAsRequested(&g);
    StatusOr<TaskSplit> mine = SplitByTask(g);
    ASSERT_TRUE(mine.ok()) << mine.status();
    const TaskSplit library = LibrarySplit(g);
    EXPECT_EQ(mine->nodes, library.nodes) << "trial " << trial;
    EXPECT_EQ(mine->transfers, library.transfers) << "trial " << trial;
  }
}

TEST(SplitByTaskExerciseTest, AnUnplacedNodeIsAnError) {
  Graph g;
  {
    graph_scope use(g);
    constant(Tensor(1.0f), "placed");
    constant(Tensor(2.0f), "unplaced");
  }
  g.FindNode("placed")->set_assigned_device(
      "/job:ps/replica:0/task:0/device:CPU:0");
  StatusOr<TaskSplit> mine = SplitByTask(g);
  ASSERT_FALSE(mine.ok());
  EXPECT_EQ(mine.status().message(), "Device name '' names no job and task");
}

}  // namespace
}  // namespace minitf::exercises
