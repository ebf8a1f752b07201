#include "minitf/device/session/subgraph.h"

#include <gtest/gtest.h>

#include <string>

#include "minitf/device/partition/sendrecv_ops.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"

namespace minitf {
namespace {

constexpr const char* kCpu = "/job:localhost/replica:0/task:0/device:CPU:0";
constexpr const char* kGpu = "/job:localhost/replica:0/task:0/device:GPU:0";

DeviceAttributes Client() {
  DeviceAttributes client;
  client.name = kCpu;
  client.device_type = "CPU";
  client.incarnation = 0x1234;
  return client;
}

void PlaceAll(Graph& g, const char* device) {
  for (Node* n : g.nodes()) n->set_assigned_device(device);
}

TEST(SubgraphTest, FeedsAndFetchesBecomeClientRecvsAndSends) {
  Graph g;
  graph_scope use(g);
  Output x = placeholder(DT_FLOAT, {2}, "x");
  Output c = multiply(x, constant({2.f, 3.f}, {2}, "k"), "c");
  negative(c, "unused");
  PlaceAll(g, kGpu);
  auto client = BuildClientGraph(g, {x}, {c}, {}, Client()).value();
  // _recv_x_0, k, c, _send_c_0: the placeholder is cut off by its feed and
  // "unused" is pruned.
  ASSERT_EQ(client->num_nodes(), 4);
  EXPECT_EQ(client->FindNode("x"), nullptr);
  EXPECT_EQ(client->FindNode("unused"), nullptr);
  const Node* recv = client->FindNode("_recv_x_0");
  ASSERT_NE(recv, nullptr);
  EXPECT_EQ(recv->type_string(), kRecvOp);
  EXPECT_EQ(GetAttr<std::string>(recv->attrs(), "tensor_name").value(), "x:0");
  EXPECT_TRUE(GetAttr<bool>(recv->attrs(), "client_terminated").value());
  EXPECT_EQ(GetAttr<std::string>(recv->attrs(), "send_device").value(), kCpu);
  EXPECT_EQ(GetAttr<std::string>(recv->attrs(), "recv_device").value(), kCpu);
  EXPECT_EQ(GetAttr<int64_t>(recv->attrs(), "send_device_incarnation").value(),
            0x1234);
  EXPECT_EQ(recv->assigned_device(), kCpu);
  EXPECT_EQ(recv->output_shape(0), TensorShape({2}));
  const Node* c_copy = client->FindNode("c");
  EXPECT_EQ(c_copy->input(0).node(), recv);
  EXPECT_EQ(c_copy->assigned_device(), kGpu);
  EXPECT_EQ(c_copy->requested_device(), kGpu);
  const Node* send = client->FindNode("_send_c_0");
  ASSERT_NE(send, nullptr);
  EXPECT_EQ(send->input(0).node(), c_copy);
  EXPECT_EQ(send->assigned_device(), kCpu);
  EXPECT_EQ(GetAttr<std::string>(send->attrs(), "tensor_name").value(), "c:0");
}

TEST(SubgraphTest, AFetchThatIsFedComesStraightFromItsFeed) {
  Graph g;
  graph_scope use(g);
  Output x = placeholder(DT_FLOAT, {}, "x");
  PlaceAll(g, kCpu);
  auto client = BuildClientGraph(g, {x}, {x}, {}, Client()).value();
  ASSERT_EQ(client->num_nodes(), 2);
  EXPECT_EQ(client->FindNode("_send_x_0")->input(0).node()->name(),
            "_recv_x_0");
}

TEST(SubgraphTest, TargetsAndControlInputsAreKept) {
  Graph g;
  graph_scope use(g);
  Operation first = no_op("first");
  Operation second;
  {
    control_dependencies after({first});
    second = no_op("second");
  }
  PlaceAll(g, kCpu);
  auto client = BuildClientGraph(g, {}, {}, {second.node()}, Client()).value();
  ASSERT_EQ(client->num_nodes(), 2);
  EXPECT_EQ(client->FindNode("second")->control_inputs().at(0)->name(),
            "first");
}

TEST(SubgraphTest, AnUnfedPlaceholderIsChapterTwosError) {
  Graph g;
  graph_scope use(g);
  Output x = placeholder(DT_FLOAT, {None}, "x");
  Output y = negative(x, "y");
  PlaceAll(g, kCpu);
  auto client = BuildClientGraph(g, {}, {y}, {}, Client());
  ASSERT_FALSE(client.ok());
  EXPECT_EQ(client.status().code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(client.status().message(),
            "You must feed a value for placeholder tensor 'x' with dtype "
            "float and shape [?]\n\t [[{{node x}}]]");
}

TEST(SubgraphTest, CopyNewNodesKeepsIdsAndDevices) {
  Graph g;
  graph_scope use(g);
  Output a = constant({1.f}, {1}, "a");
  a.node()->set_assigned_device(kGpu);
  Graph copy;
  ASSERT_TRUE(CopyNewNodes(g, &copy).ok());
  Output b = negative(a, "b");
  ASSERT_TRUE(CopyNewNodes(g, &copy).ok());
  ASSERT_EQ(copy.num_nodes(), 2);
  EXPECT_EQ(copy.node(0)->name(), "a");
  EXPECT_EQ(copy.node(0)->assigned_device(), kGpu);
  EXPECT_EQ(copy.node(1)->name(), "b");
  EXPECT_EQ(copy.node(1)->input(0).node(), copy.node(0));
  EXPECT_EQ(copy.node(1)->output_shape(0), b.shape());
}

}  // namespace
}  // namespace minitf
