#include "minitf/graph/dot.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "minitf/graph/node_builder.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"

namespace minitf {
namespace {

TEST(DotTest, SeedGraph) {
  Graph g;
  {
    graph_scope use(g);
    Output a = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3}, "a");
    Output b = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {3, 2}, "b");
    matmul(a, b, false, false, "c");
  }
  EXPECT_EQ(ToDot(g),
            "digraph \"minitf\" {\n"
            "  node [shape=ellipse, fontname=\"Helvetica\"];\n"
            "  edge [fontname=\"Helvetica\", fontsize=10];\n"
            "  \"a\" [label=\"a\\nConst\", shape=box];\n"
            "  \"b\" [label=\"b\\nConst\", shape=box];\n"
            "  \"c\" [label=\"c\\nMatMul\"];\n"
            "  \"a\" -> \"c\" [label=\"2×3\"];\n"
            "  \"b\" -> \"c\" [label=\"3×2\"];\n"
            "}\n");
}

// Two towers under name scopes, a placeholder with a None dimension, one of
// unknown rank, and a control edge.
void BuildTowers(Graph& g) {
  graph_scope use(g);
  Output x = placeholder(float32, {None, 2}, "x");
  Output any = placeholder(float32, TensorShape::UnknownRank(), "any");
  Operation init = no_op("init");
  for (const char* tower : {"tower_0", "tower_1"}) {
    name_scope scope(tower);
    device_scope on(std::string("/gpu:") + tower[6]);
    control_dependencies after({init});
    Output y = identity(x, "y");
    {
      name_scope inner("loss");
      add(y, any, "total");
    }
  }
}

// "total" reads y, made inside the same control_dependencies block, so it
// needs no control edge of its own from init (TensorFlow's rule too).
TEST(DotTest, ScopesBecomeNestedClustersAndControlEdgesAreDashed) {
  Graph g;
  BuildTowers(g);
  EXPECT_EQ(ToDot(g),
            "digraph \"minitf\" {\n"
            "  node [shape=ellipse, fontname=\"Helvetica\"];\n"
            "  edge [fontname=\"Helvetica\", fontsize=10];\n"
            "  \"x\" [label=\"x\\nPlaceholder\", shape=invhouse];\n"
            "  \"any\" [label=\"any\\nPlaceholder\", shape=invhouse];\n"
            "  \"init\" [label=\"init\\nNoOp\"];\n"
            "  subgraph cluster_0 {\n"
            "    label=\"tower_0\";\n"
            "    \"tower_0/y\" [label=\"y\\nIdentity\"];\n"
            "    subgraph cluster_1 {\n"
            "      label=\"loss\";\n"
            "      \"tower_0/loss/total\" [label=\"total\\nAddV2\"];\n"
            "    }\n"
            "  }\n"
            "  subgraph cluster_2 {\n"
            "    label=\"tower_1\";\n"
            "    \"tower_1/y\" [label=\"y\\nIdentity\"];\n"
            "    subgraph cluster_3 {\n"
            "      label=\"loss\";\n"
            "      \"tower_1/loss/total\" [label=\"total\\nAddV2\"];\n"
            "    }\n"
            "  }\n"
            "  \"x\" -> \"tower_0/y\" [label=\"?×2\"];\n"
            "  \"init\" -> \"tower_0/y\" [style=dashed];\n"
            "  \"tower_0/y\" -> \"tower_0/loss/total\" [label=\"?×2\"];\n"
            "  \"any\" -> \"tower_0/loss/total\" [label=\"float32\"];\n"
            "  \"x\" -> \"tower_1/y\" [label=\"?×2\"];\n"
            "  \"init\" -> \"tower_1/y\" [style=dashed];\n"
            "  \"tower_1/y\" -> \"tower_1/loss/total\" [label=\"?×2\"];\n"
            "  \"any\" -> \"tower_1/loss/total\" [label=\"float32\"];\n"
            "}\n");
}

TEST(DotTest, DeviceColoursDTypeLabelsAndNoClusters) {
  Graph g;
  BuildTowers(g);
  DotOptions options;
  options.cluster_scopes = false;
  options.color_by_device = true;
  options.edge_label = DotOptions::EdgeLabel::kDType;
  options.graph_name = "towers";
  g.FindNode("tower_1/y")->set_assigned_device("/job:localhost/device:GPU:1");
  const std::string dot = ToDot(g, options);
  EXPECT_TRUE(dot.starts_with("digraph \"towers\" {\n")) << dot;
  EXPECT_NE(dot.find("  \"x\" [label=\"x\\nPlaceholder\", shape=invhouse];\n"),
            std::string::npos)
      << dot;
  EXPECT_NE(
      dot.find("  \"tower_0/y\" [label=\"tower_0/y\\nIdentity\\n/gpu:0\", "
               "style=filled, fillcolor=\"#a6cee3\"];\n"),
      std::string::npos)
      << dot;
  // The placer's choice wins over the request.
  EXPECT_NE(dot.find("  \"tower_1/y\" [label=\"tower_1/y\\nIdentity\\n"
                     "/job:localhost/device:GPU:1\", style=filled, "
                     "fillcolor=\"#b2df8a\"];\n"),
            std::string::npos)
      << dot;
  EXPECT_NE(
      dot.find("  \"tower_1/loss/total\" [label=\"tower_1/loss/total\\n"
               "AddV2\\n/gpu:1\", style=filled, fillcolor=\"#fb9a99\"];\n"),
      std::string::npos)
      << dot;
  EXPECT_EQ(dot.find("subgraph cluster_0"), std::string::npos) << dot;
  EXPECT_NE(dot.find("  \"x\" -> \"tower_0/y\" [label=\"float32\"];\n"),
            std::string::npos)
      << dot;
  EXPECT_TRUE(dot.ends_with(
      "  subgraph cluster_devices {\n"
      "    label=\"devices\";\n"
      "    \"_device_0\" [label=\"/gpu:0\", shape=box, style=filled, "
      "fillcolor=\"#a6cee3\"];\n"
      "    \"_device_1\" [label=\"/job:localhost/device:GPU:1\", shape=box, "
      "style=filled, fillcolor=\"#b2df8a\"];\n"
      "    \"_device_2\" [label=\"/gpu:1\", shape=box, style=filled, "
      "fillcolor=\"#fb9a99\"];\n"
      "    \"_device_0\" -> \"_device_1\" [style=invis];\n"
      "    \"_device_1\" -> \"_device_2\" [style=invis];\n"
      "  }\n"
      "}\n"))
      << dot;
  EXPECT_EQ(ToDot(g, options), dot);  // Deterministic.
}

// Without label_devices a node keeps its colour but not the device's name,
// which only the legend then shows.
TEST(DotTest, DevicesOnlyInTheLegendWithoutLabelDevices) {
  Graph g;
  graph_scope use(g);
  {
    device_scope on("/gpu:1");
    constant(1.f, "a");
  }
  DotOptions options;
  options.color_by_device = true;
  options.label_devices = false;
  const std::string dot = ToDot(g, options);
  EXPECT_NE(dot.find("\"a\" [label=\"a\\nConst\", shape=box, style=filled, "
                     "fillcolor=\"#a6cee3\"];\n"),
            std::string::npos)
      << dot;
  EXPECT_NE(dot.find("\"_device_0\" [label=\"/gpu:1\""), std::string::npos)
      << dot;
}

// The colours other pictures take from DotDeviceColor are ToDot's, in
// order, and they repeat after the tenth.
TEST(DotTest, DeviceColorsAreToDotsInOrderAndRepeat) {
  EXPECT_EQ(DotDeviceColor(0), "#a6cee3");
  EXPECT_EQ(DotDeviceColor(1), "#b2df8a");
  EXPECT_EQ(DotDeviceColor(2), "#fb9a99");
  EXPECT_NE(DotDeviceColor(9), DotDeviceColor(0));
  EXPECT_EQ(DotDeviceColor(10), DotDeviceColor(0));
  EXPECT_EQ(DotDeviceColor(13), DotDeviceColor(3));
}

TEST(DotTest, ScalarsSecondOutputsAndNoLabels) {
  Graph g;
  {
    graph_scope use(g);
    Output s = constant(Tensor(2.f), "s");
    identity(s, "t");
  }
  EXPECT_NE(ToDot(g).find("\"s\" -> \"t\" [label=\"scalar\"];"),
            std::string::npos);
  DotOptions none;
  none.edge_label = DotOptions::EdgeLabel::kNone;
  EXPECT_NE(ToDot(g, none).find("\"s\" -> \"t\";"), std::string::npos);
}

TEST(DotTest, GraphvizAcceptsTheOutput) {
  if (!std::filesystem::exists("/usr/bin/dot")) {
    GTEST_SKIP() << "Graphviz's dot not found (install graphviz)";
  }
  Graph g;
  BuildTowers(g);
  const std::string path = ::testing::TempDir() + "/towers.dot";
  DotOptions options;
  options.color_by_device = true;
  ASSERT_TRUE(WriteDot(g, path, options).ok());
  const std::string command =
      "/usr/bin/dot -Tsvg " + path + " -o " + path + ".svg";
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
}

}  // namespace
}  // namespace minitf
