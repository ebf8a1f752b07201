#include "minitf/device/partition/graph_partition.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "minitf/device/partition/sendrecv_ops.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"

namespace minitf {
namespace {

constexpr const char* kCpu = "/job:localhost/replica:0/task:0/device:CPU:0";
constexpr const char* kGpu = "/job:localhost/replica:0/task:0/device:GPU:0";

PartitionOptions Options() {
  PartitionOptions options;
  options.incarnation = [](const std::string& device) -> uint64_t {
    return device == kCpu ? 11 : 22;
  };
  return options;
}

void On(const Output& t, const char* device) {
  t.node()->set_assigned_device(device);
}
void On(const Operation& op, const char* device) {
  op.node()->set_assigned_device(device);
}

std::vector<const Node*> OfType(const Graph& g, const std::string& op) {
  std::vector<const Node*> out;
  for (const Node* n : g.nodes()) {
    if (n->type_string() == op) out.push_back(n);
  }
  return out;
}

std::string StringAttr(const Node& n, const char* attr) {
  return GetAttr<std::string>(n.attrs(), attr).value();
}

TEST(PartitionTest, OneGraphPerDeviceWithTheEdgeCut) {
  Graph g;
  graph_scope use(g);
  Output a = constant({1.f, 2.f}, {2}, "a");
  Output b = constant({3.f, 4.f}, {2}, "b");
  Output c = add(a, b, "c");
  On(a, kCpu);
  On(b, kGpu);
  On(c, kGpu);
  auto parts = Partition(g, Options()).value();
  ASSERT_EQ(parts.size(), 2u);
  const Graph& cpu = *parts.at(kCpu);
  const Graph& gpu = *parts.at(kGpu);

  // CPU: a, and the _Send of a:0.
  ASSERT_EQ(cpu.num_nodes(), 2);
  const Node* send = OfType(cpu, kSendOp).at(0);
  EXPECT_EQ(send->name(), "a/_0");
  EXPECT_EQ(send->input(0).node()->name(), "a");
  EXPECT_EQ(StringAttr(*send, "tensor_name"), "a:0");
  EXPECT_EQ(StringAttr(*send, "send_device"), kCpu);
  EXPECT_EQ(StringAttr(*send, "recv_device"), kGpu);
  EXPECT_EQ(GetAttr<int64_t>(send->attrs(), "send_device_incarnation").value(),
            11);
  EXPECT_FALSE(GetAttr<bool>(send->attrs(), "client_terminated").value());
  EXPECT_EQ(GetAttr<DType>(send->attrs(), "T").value(), DT_FLOAT);

  // GPU: b, the _Recv of a:0, and c reading it.
  ASSERT_EQ(gpu.num_nodes(), 3);
  const Node* recv = OfType(gpu, kRecvOp).at(0);
  EXPECT_EQ(recv->name(), "a/_1");
  EXPECT_EQ(StringAttr(*recv, "tensor_name"), "a:0");
  EXPECT_EQ(recv->output_shape(0), TensorShape({2}));
  const Node* c_copy = gpu.FindNode("c");
  ASSERT_NE(c_copy, nullptr);
  EXPECT_EQ(c_copy->input(0).node(), recv);
  EXPECT_EQ(c_copy->input(1).node()->name(), "b");
  for (const Node* n : gpu.nodes()) {
    EXPECT_EQ(n->assigned_device(), kGpu) << n->name();
    EXPECT_EQ(n->requested_device(), kGpu) << n->name();
  }
  EXPECT_EQ(SendRecvKey(*send).value(), SendRecvKey(*recv).value());
}

TEST(PartitionTest, ATensorCrossesOncePerDestinationDevice) {
  Graph g;
  graph_scope use(g);
  Output a = constant({1.f, 2.f}, {2}, "a");
  Output x = multiply(a, a, "x");
  Output y = add(a, x, "y");
  Output z = negative(a, "z");
  On(a, kCpu);
  On(x, kGpu);
  On(y, kGpu);
  On(z, kCpu);
  auto parts = Partition(g, Options()).value();
  EXPECT_EQ(OfType(*parts.at(kCpu), kSendOp).size(), 1u);
  ASSERT_EQ(OfType(*parts.at(kGpu), kRecvOp).size(), 1u);
  const Node* recv = OfType(*parts.at(kGpu), kRecvOp)[0];
  const Graph& gpu = *parts.at(kGpu);
  EXPECT_EQ(gpu.FindNode("x")->input(0).node(), recv);
  EXPECT_EQ(gpu.FindNode("x")->input(1).node(), recv);
  EXPECT_EQ(gpu.FindNode("y")->input(0).node(), recv);
  // z stays on the CPU and reads a directly.
  EXPECT_EQ(parts.at(kCpu)->FindNode("z")->input(0).node()->name(), "a");
}

TEST(PartitionTest, AControlEdgeBecomesAnEmptyTensorTransfer) {
  Graph g;
  graph_scope use(g);
  Operation first = no_op("first");
  Output b;
  {
    control_dependencies after({first});
    b = constant({1.f}, {1}, "b");
  }
  On(first, kCpu);
  On(b, kGpu);
  auto parts = Partition(g, Options()).value();
  const Graph& cpu = *parts.at(kCpu);
  const Graph& gpu = *parts.at(kGpu);
  // CPU: first, a Const that runs after it, and the Const's _Send.
  ASSERT_EQ(cpu.num_nodes(), 3);
  const Node* dummy = OfType(cpu, "Const").at(0);
  ASSERT_EQ(dummy->control_inputs().size(), 1u);
  EXPECT_EQ(dummy->control_inputs()[0]->name(), "first");
  EXPECT_EQ(GetAttr<Tensor>(dummy->attrs(), "value").value().NumElements(), 0);
  const Node* send = OfType(cpu, kSendOp).at(0);
  EXPECT_EQ(send->input(0).node(), dummy);
  EXPECT_EQ(StringAttr(*send, "tensor_name"), "^first");
  // GPU: b waits on the _Recv.
  const Node* recv = OfType(gpu, kRecvOp).at(0);
  const Node* b_copy = gpu.FindNode("b");
  ASSERT_EQ(b_copy->control_inputs().size(), 1u);
  EXPECT_EQ(b_copy->control_inputs()[0], recv);
}

TEST(PartitionTest, MadeNamesStepAroundNamesInUse) {
  Graph g;
  graph_scope use(g);
  Output a = constant({1.f}, {1}, "a");
  Output taken = identity(a, "a/_0");
  Output c = negative(a, "c");
  On(a, kCpu);
  On(taken, kCpu);
  On(c, kGpu);
  auto parts = Partition(g, Options()).value();
  EXPECT_EQ(OfType(*parts.at(kCpu), kSendOp).at(0)->name(), "a/_1");
  EXPECT_EQ(OfType(*parts.at(kGpu), kRecvOp).at(0)->name(), "a/_2");
}

TEST(PartitionTest, ANodeWithoutADeviceIsAnInternalError) {
  Graph g;
  graph_scope use(g);
  constant({1.f}, {1}, "a");
  auto parts = Partition(g, Options());
  ASSERT_FALSE(parts.ok());
  EXPECT_EQ(parts.status().code(), error::INTERNAL);
  EXPECT_EQ(parts.status().message(),
            "Node 'a' has not been assigned a device");
}

}  // namespace
}  // namespace minitf
