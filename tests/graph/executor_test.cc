#include "minitf/graph/executor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/ops/random_ops.h"
#include "minitf/graph/scope.h"

namespace minitf {
namespace {

std::string Letter(int i) { return std::string(1, static_cast<char>('a' + i)); }

TEST(TopologicalSortTest, OrdersByEdgesThenByIndex) {
  // 0 <- 2, 1 <- 2 ... written as predecessor lists: node 2 waits for 3.
  const std::vector<std::vector<int>> preds = {{}, {0}, {3}, {}, {1, 2}};
  auto order = TopologicalSort(preds, Letter);
  ASSERT_TRUE(order.ok()) << order.status();
  EXPECT_EQ(*order, (std::vector<int>{0, 1, 3, 2, 4}));
}

// A graph built through the API cannot hold a cycle: a node's inputs and
// control inputs must exist before it does, and NodeSpec takes them as
// pointers to existing nodes. So the sorter is tested on its own here; a
// graph read from a GraphDef is where a cycle can really appear.
TEST(TopologicalSortTest, ReportsACycleInTensorFlowsWords) {
  // a -> b -> c -> b, and d after c: three nodes cannot run.
  const std::vector<std::vector<int>> preds = {{}, {0, 2}, {1}, {2}};
  auto order = TopologicalSort(preds, Letter);
  ASSERT_FALSE(order.ok());
  EXPECT_EQ(order.status(),
            errors::InvalidArgument(
                "Graph is invalid, contains a cycle with 3 nodes, including: "
                "b, c, d"));
  auto self = TopologicalSort({{0}}, Letter);
  EXPECT_EQ(self.status().message(),
            "Graph is invalid, contains a cycle with 1 nodes, including: a");
}

class ExecutorTest : public ::testing::Test {
 protected:
  // Kernels for the plan, owned here as a session would own them.
  KernelProvider Kernels() {
    return [this](const Node& node) -> StatusOr<OpKernel*> {
      auto& k = kernels_[node.id()];
      if (k == nullptr) {
        TF_ASSIGN_OR_RETURN(
            k, KernelRegistry::Global()->CreateKernel(node, "CPU"));
      }
      return k.get();
    };
  }
  std::vector<std::string> StepNames(const ExecutionPlan& plan) {
    std::vector<std::string> names;
    for (const PlanStep& s : plan.steps) names.push_back(s.node->name());
    return names;
  }

  Graph g_;
  graph_scope use_{g_};
  std::map<int, std::unique_ptr<OpKernel>> kernels_;
};

TEST_F(ExecutorTest, PruneStopsAtFeedsButFollowsControlEdges) {
  Output a = constant(1.f, "a");
  Output b = identity(a, "b");
  Output c = identity(b, "c");
  Operation d = no_op("d");
  std::vector<bool> needed = PruneForFetches(g_, {}, {c}, {});
  EXPECT_EQ(needed, (std::vector<bool>{true, true, true, false}));
  needed = PruneForFetches(g_, {b}, {c}, {});
  EXPECT_EQ(needed, (std::vector<bool>{false, false, true, false}));
  needed = PruneForFetches(g_, {b}, {b}, {d.node()});
  EXPECT_EQ(needed, (std::vector<bool>{false, false, false, true}));
  Operation e;
  {
    control_dependencies after({b.op()});
    e = no_op("e");
  }
  needed = PruneForFetches(g_, {b}, {}, {e.node()});
  EXPECT_EQ(needed, (std::vector<bool>{true, true, false, false, true}));
}

// The gradient graph's gate: dx is computed, but only a control edge leads
// to it, so its kernel never runs, nor that of w, which only dx reads; its
// inputs order the gated node instead.
TEST_F(ExecutorTest, ANodeOnlyAControlEdgeReachesDoesNotRun) {
  Output w = constant(2.f, "w");
  Output dy = constant(3.f, "dy");
  Output dx = multiply(dy, w, "dx");  // read by no one
  Output dw = multiply(dy, dy, "dw");
  Output gated;
  {
    control_dependencies after({dx.op(), dw.op()});
    gated = identity(dw, "gated");
  }
  std::vector<bool> run = NodesToRun(g_, {}, {gated}, {});
  EXPECT_EQ(run, (std::vector<bool>{false, true, false, true, true}));
  auto plan = BuildPlan(g_, {}, {gated}, {}, Kernels());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(StepNames(**plan), (std::vector<std::string>{"dy", "dw", "gated"}));
  // Fetched, it runs; so does a stateful node behind a control edge.
  run = NodesToRun(g_, {}, {gated, dx}, {});
  EXPECT_EQ(run, (std::vector<bool>{true, true, true, true, true}));
  Output r = random_uniform({2}, 0.0, 1.0, float32, 0, "r");
  Output after_r;
  {
    control_dependencies after({identity(r, "read_r").op()});
    after_r = identity(w, "after_r");
  }
  run = NodesToRun(g_, {}, {after_r}, {});
  int random_ops = 0;
  for (int id = 0; id < g_.num_nodes(); ++id) {
    if (g_.node(id)->type_string() != "RandomUniform") continue;
    EXPECT_TRUE(run[id]);
    ++random_ops;
  }
  EXPECT_EQ(random_ops, 1);
  EXPECT_TRUE(run[after_r.node()->id()]);
  EXPECT_FALSE(run[dx.node()->id()]);
}

TEST_F(ExecutorTest, PlanReleasesEachValueAfterItsLastReader) {
  // a -> b -> c -> d, with a also read by d: a lives until d, b and c die
  // as soon as the next node has read them, d is fetched and kept.
  Output a = constant(1.f, "a");
  Output b = identity(a, "b");
  Output c = identity(b, "c");
  Output d = add(c, a, "d");
  Output unused = identity(a, "unused");
  auto plan = BuildPlan(g_, {}, {d}, {unused.node()}, Kernels());
  ASSERT_TRUE(plan.ok()) << plan.status();
  const ExecutionPlan& p = **plan;
  EXPECT_EQ(StepNames(p),
            (std::vector<std::string>{"a", "b", "c", "d", "unused"}));
  auto released_after = [&](int step) {
    std::vector<std::string> names;
    for (int r = p.steps[step].release_begin; r < p.steps[step].release_end;
         ++r) {
      for (const PlanStep& s : p.steps) {
        if (p.releases[r] == s.output_slot) names.push_back(s.node->name());
      }
    }
    std::sort(names.begin(), names.end());
    return names;
  };
  EXPECT_EQ(released_after(0), std::vector<std::string>{});
  EXPECT_EQ(released_after(1), std::vector<std::string>{});
  EXPECT_EQ(released_after(2), std::vector<std::string>{"b"});
  EXPECT_EQ(released_after(3), std::vector<std::string>{"c"});
  // The last reader of a is "unused", which runs after d; unread outputs die
  // at once.
  EXPECT_EQ(released_after(4), (std::vector<std::string>{"a", "unused"}));
  EXPECT_EQ(p.fetch_slots, std::vector<int32_t>{p.steps[3].output_slot});
}

TEST_F(ExecutorTest, RunPlanFeedsFetchesAndNamesFailingNodes) {
  Output x = placeholder(DT_FLOAT, {2}, "x");
  Output y = add(x, constant({1.f, 1.f}, {2}, "one"), "y");
  auto plan = BuildPlan(g_, {x}, {y, x}, {}, Kernels());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(StepNames(**plan), (std::vector<std::string>{"one", "y"}));
  std::vector<Tensor> out;
  RunEnv env;
  env.allocator = cpu_allocator();
  ASSERT_TRUE(RunPlan(**plan, {Tensor({1.f, 2.f})}, env, &out).ok());
  EXPECT_EQ(out[0].ToVector<float>(), (std::vector<float>{2.f, 3.f}));
  EXPECT_EQ(out[1].ToVector<float>(), (std::vector<float>{1.f, 2.f}));
  // Shapes that do not broadcast fail in the kernel, which names the node.
  Status s = RunPlan(**plan, {Tensor({1.f, 2.f, 3.f})}, env, &out);
  EXPECT_EQ(s.code(), error::INVALID_ARGUMENT);
  EXPECT_NE(s.message().find("\n\t [[{{node y}}]]"), std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace minitf
