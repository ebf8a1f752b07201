#include "minitf/graph/graph.h"

#include <gtest/gtest.h>

#include "minitf/graph/node_builder.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"

namespace minitf {
namespace {

TEST(GraphTest, UniqueNamesFollowTensorFlow) {
  Graph g;
  EXPECT_EQ(g.UniqueName("a"), "a");
  EXPECT_EQ(g.UniqueName("a"), "a_1");
  EXPECT_EQ(g.UniqueName("a_1"), "a_1_1");
  EXPECT_EQ(g.UniqueName("a"), "a_2");
  EXPECT_EQ(g.UniqueName("A"), "A_3");
}

TEST(GraphTest, ASavepointNotCommittedTakesBackNodesEdgesAndNames) {
  Graph g;
  graph_scope use(g);
  Output x = constant(1.f, "x");
  g.UniqueName("scope");
  {
    GraphSavepoint outer(&g);
    add(x, x);  // "AddV2", a reader of x.
    {
      control_dependencies after({x});
      constant(2.f, "x");  // "x_1", a control waiter on x.
    }
    {
      GraphSavepoint inner(&g);
      g.UniqueName("scope");   // "scope_1"
      constant(3.f, "AddV2");  // "AddV2_1"
      inner.Commit();
    }
    EXPECT_EQ(g.num_nodes(), 4);
    EXPECT_EQ(x.node()->consumers().size(), 1u);
    EXPECT_EQ(x.node()->control_outputs().size(), 1u);
  }  // Not committed: the inner commit is undone too.
  EXPECT_EQ(g.num_nodes(), 1);
  EXPECT_EQ(g.FindNode("AddV2"), nullptr);
  EXPECT_TRUE(x.node()->consumers().empty());
  EXPECT_TRUE(x.node()->control_outputs().empty());
  // The next names are those the graph would have given without the tries.
  EXPECT_EQ(add(x, x).name(), "AddV2:0");
  EXPECT_EQ(constant(2.f, "x").name(), "x_1:0");
  EXPECT_EQ(g.UniqueName("scope"), "scope_1");
}

TEST(GraphTest, ASavepointCommittedKeepsEverything) {
  Graph g;
  graph_scope use(g);
  {
    GraphSavepoint savepoint(&g);
    constant(1.f, "x");
    savepoint.Commit();
  }
  EXPECT_NE(g.FindNode("x"), nullptr);
  EXPECT_EQ(constant(1.f, "x").name(), "x_1:0");
}

}  // namespace
}  // namespace minitf
