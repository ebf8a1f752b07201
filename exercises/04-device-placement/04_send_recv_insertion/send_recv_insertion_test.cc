// Tests of exercise 04_send_recv_insertion. The starter returns
// Unimplemented, so every test fails on it. A correct CutInputs makes the
// partitions tf::Partition makes (node for node: names, attrs, inputs), with
// TensorFlow's rendezvous keys, and seed 001's programs run on them with one
// executor per device and give the seed's numbers.
#include "send_recv_insertion.h"

#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>
#include <unsupported/Eigen/CXX11/ThreadPool>
#include <vector>

#include "../placement_testing.h"
#include "minitf/device/executor/notification.h"
#include "minitf/device/executor/parallel_executor.h"
#include "minitf/device/partition/graph_partition.h"
#include "minitf/device/partition/intra_process_rendezvous.h"
#include "minitf/device/partition/sendrecv_ops.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"

namespace minitf::exercises {
namespace {

using Parts = std::map<std::string, std::unique_ptr<Graph>>;

// An op with two outputs, to cut edges from output 1.
MINITF_REGISTER_OP("SendRecvExerciseTwoOutputs")
    .Input("x: float")
    .Output("first: float")
    .Output("second: float")
    .SetShapeFn([](InferenceContext* c) {
      c->set_output(0, c->input(0));
      c->set_output(1, c->input(0));
      return Status::OK();
    });

// 123456789 and 987654321, as 16 hexadecimal digits in a key.
uint64_t Incarnation(const std::string& device) {
  return device == kCpu0 ? 123456789 : 987654321;
}

void On(const Output& t, const std::string& device) {
  t.node()->set_assigned_device(device);
}

std::vector<const Node*> OfType(const Graph& g, const std::string& op) {
  std::vector<const Node*> out;
  for (const Node* n : g.nodes()) {
    if (n->type_string() == op) out.push_back(n);
  }
  return out;
}

// The attr `name` of `n`; nullopt when it is missing or of another type.
template <typename T>
std::optional<T> AttrOf(const Node& n, const char* name) {
  StatusOr<T> value = GetAttr<T>(n.attrs(), name);
  if (!value.ok()) return std::nullopt;
  return *value;
}

// The rendezvous key `n` builds from its attrs, or what is wrong with them.
std::string KeyOf(const Node& n) {
  StatusOr<std::string> key = SendRecvKey(n);
  return key.ok() ? *key : key.status().ToString();
}

// A node as the comparison sees it: op, name, devices, attrs, inputs.
std::string Describe(const Node& n) {
  std::string s = n.type_string() + " " + n.name() + " on " +
                  n.assigned_device() + " (requested " + n.requested_device() +
                  ")";
  for (const auto& [name, value] : n.attrs()) {
    s += "\n  " + name + " = " + value.DebugString();
  }
  for (const Output& in : n.inputs()) s += "\n  input " + in.name();
  for (const Node* c : n.control_inputs()) s += "\n  input ^" + c->name();
  for (int i = 0; i < n.num_outputs(); ++i) {
    s += "\n  output " + n.output_shape(i).DebugString();
  }
  return s;
}

TEST(SendRecvInsertionTest, ACrossDeviceEdgeBecomesASendAndARecv) {
  Graph g;
  graph_scope use(g);
  Output a = constant({1.f, 2.f}, {2}, "a");
  Output b = constant({3.f, 4.f}, {2}, "b");
  Output c = add(a, b, "c");
  On(a, kCpu0);
  On(b, kGpu0);
  On(c, kGpu0);
  auto parts = CutGraph(g, Incarnation);
  ASSERT_TRUE(parts.ok()) << parts.status();
  ASSERT_EQ(parts->size(), 2u);
  const Graph& cpu = *parts->at(kCpu0);
  const Graph& gpu = *parts->at(kGpu0);

  // CPU:0: a, then a/_0, the _Send of a:0.
  ASSERT_EQ(cpu.num_nodes(), 2);
  const Node* send = cpu.FindNode("a/_0");
  ASSERT_NE(send, nullptr);
  EXPECT_EQ(send->type_string(), kSendOp);
  ASSERT_EQ(send->num_inputs(), 1);
  EXPECT_EQ(send->input(0).name(), "a:0");
  EXPECT_EQ(AttrOf<std::string>(*send, "tensor_name"), "a:0");
  EXPECT_EQ(AttrOf<std::string>(*send, "send_device"), kCpu0);
  EXPECT_EQ(AttrOf<std::string>(*send, "recv_device"), kGpu0);
  EXPECT_EQ(AttrOf<int64_t>(*send, "send_device_incarnation"), 123456789);
  EXPECT_EQ(AttrOf<bool>(*send, "client_terminated"), false);
  EXPECT_EQ(AttrOf<DType>(*send, "T"), DT_FLOAT);

  // GPU:0: b, a/_1, the _Recv of a:0, and c reading it.
  ASSERT_EQ(gpu.num_nodes(), 3);
  const Node* recv = gpu.FindNode("a/_1");
  ASSERT_NE(recv, nullptr);
  EXPECT_EQ(recv->type_string(), kRecvOp);
  EXPECT_EQ(AttrOf<DType>(*recv, "tensor_type"), DT_FLOAT);
  for (const char* attr : {"tensor_name", "send_device", "recv_device"}) {
    EXPECT_EQ(AttrOf<std::string>(*recv, attr),
              AttrOf<std::string>(*send, attr))
        << attr;
  }
  EXPECT_EQ(AttrOf<int64_t>(*recv, "send_device_incarnation"), 123456789);
  EXPECT_EQ(AttrOf<bool>(*recv, "client_terminated"), false);
  EXPECT_EQ(recv->output_type(0), DT_FLOAT);
  EXPECT_EQ(recv->output_shape(0), TensorShape({2}));
  const Node* c_copy = gpu.FindNode("c");
  ASSERT_NE(c_copy, nullptr);
  EXPECT_EQ(c_copy->input(0).node(), recv);
  EXPECT_EQ(c_copy->input(1).name(), "b:0");
  for (const auto& [device, part] : *parts) {
    for (const Node* n : part->nodes()) {
      EXPECT_EQ(n->assigned_device(), device) << n->name();
      EXPECT_EQ(n->requested_device(), device) << n->name();
    }
  }

  // TensorFlow's rendezvous key, which both halves build from their attrs:
  // <src_device>;<incarnation, 16 hex digits>;<dst_device>;<tensor>;0:0.
  const std::string key = kCpu0 + ";00000000075bcd15;" + kGpu0 + ";a:0;0:0";
  EXPECT_EQ(KeyOf(*send), key);
  EXPECT_EQ(KeyOf(*recv), key);
}

TEST(SendRecvInsertionTest, ATensorCrossesOncePerDestinationDevice) {
  Graph g;
  graph_scope use(g);
  Output a = constant({1.f, 2.f}, {2}, "a");
  Output x = multiply(a, a, "x");
  Output y = add(a, x, "y");
  Output z = negative(a, "z");
  Output w = negative(a, "w");
  On(a, kCpu0);
  On(x, kGpu0);
  On(y, kGpu0);
  On(z, kGpu1);
  On(w, kCpu0);
  auto parts = CutGraph(g, Incarnation);
  ASSERT_TRUE(parts.ok()) << parts.status();
  // One _Send per destination device, one _Recv on each.
  const auto sends = OfType(*parts->at(kCpu0), kSendOp);
  ASSERT_EQ(sends.size(), 2u);
  EXPECT_EQ(AttrOf<std::string>(*sends[0], "recv_device"), kGpu0);
  EXPECT_EQ(AttrOf<std::string>(*sends[1], "recv_device"), kGpu1);
  const Graph& gpu0 = *parts->at(kGpu0);
  ASSERT_EQ(OfType(gpu0, kRecvOp).size(), 1u);
  const Node* recv = OfType(gpu0, kRecvOp)[0];
  EXPECT_EQ(gpu0.FindNode("x")->input(0).node(), recv);
  EXPECT_EQ(gpu0.FindNode("x")->input(1).node(), recv);
  EXPECT_EQ(gpu0.FindNode("y")->input(0).node(), recv);
  EXPECT_EQ(gpu0.FindNode("y")->input(1).name(), "x:0");
  EXPECT_EQ(OfType(*parts->at(kGpu1), kRecvOp).size(), 1u);
  // w stays on the CPU and reads a directly.
  EXPECT_EQ(parts->at(kCpu0)->FindNode("w")->input(0).name(), "a:0");
}

TEST(SendRecvInsertionTest, EachOutputIsATensorOfItsOwn) {
  Graph g;
  graph_scope use(g);
  Output a = constant({1.f, 2.f}, {2}, "a");
  Node* two = ops::AddNode(
      NodeBuilder("SendRecvExerciseTwoOutputs", "two").Input(a), {a});
  Output first(two, 0);
  Output second(two, 1);
  Output s = add(second, second, "s");
  Output f = add(first, second, "f");
  On(a, kCpu0);
  On(first, kCpu0);
  On(s, kGpu0);
  On(f, kGpu0);
  auto parts = CutGraph(g, Incarnation);
  ASSERT_TRUE(parts.ok()) << parts.status();
  const Graph& gpu = *parts->at(kGpu0);
  const auto recvs = OfType(gpu, kRecvOp);
  ASSERT_EQ(recvs.size(), 2u);
  EXPECT_EQ(AttrOf<std::string>(*recvs[0], "tensor_name"), "two:1");
  EXPECT_EQ(AttrOf<std::string>(*recvs[1], "tensor_name"), "two:0");
  EXPECT_EQ(gpu.FindNode("s")->input(0).node(), recvs[0]);
  EXPECT_EQ(gpu.FindNode("f")->input(0).node(), recvs[1]);
  EXPECT_EQ(gpu.FindNode("f")->input(1).node(), recvs[0]);
  const auto sends = OfType(*parts->at(kCpu0), kSendOp);
  ASSERT_EQ(sends.size(), 2u);
  EXPECT_EQ(sends[0]->input(0).name(), "two:1");
  EXPECT_EQ(sends[1]->input(0).name(), "two:0");
}

TEST(SendRecvInsertionTest, MadeNamesStepAroundNamesInUse) {
  Graph g;
  graph_scope use(g);
  Output a = constant({1.f}, {1}, "a");
  Output taken = identity(a, "a/_0");
  Output c = negative(a, "c");
  On(a, kCpu0);
  On(taken, kCpu0);
  On(c, kGpu0);
  auto parts = CutGraph(g, Incarnation);
  ASSERT_TRUE(parts.ok()) << parts.status();
  EXPECT_EQ(OfType(*parts->at(kCpu0), kSendOp).at(0)->name(), "a/_1");
  EXPECT_EQ(OfType(*parts->at(kGpu0), kRecvOp).at(0)->name(), "a/_2");
}

TEST(SendRecvInsertionTest, AgreesWithTheLibrarysPartition) {
  const std::vector<std::string> devices = {kCpu0, kGpu0, kGpu1};
  std::mt19937 rng(4);
  for (int round = 0; round < 200; ++round) {
    Graph g;
    graph_scope use(g);
    std::uniform_int_distribution<int> device(0, 2);
    std::vector<Output> made;
    for (int i = 0; i < 12; ++i) {
      std::uniform_int_distribution<size_t> pick(0, made.size() - 1);
      Output t;
      if (made.empty() || i % 5 == 0) {
        t = constant({1.f, 2.f}, {2});
      } else if (i % 4 == 0) {
        Node* two = ops::AddNode(
            NodeBuilder("SendRecvExerciseTwoOutputs").Input(made[pick(rng)]),
            {made[pick(rng)]});
        made.emplace_back(two, 1);
        t = Output(two, 0);
      } else if (i % 3 == 0) {
        t = negative(made[pick(rng)]);
      } else {
        t = add(made[pick(rng)], made[pick(rng)]);
      }
      On(t, devices[device(rng)]);
      made.push_back(t);
    }
    PartitionOptions options;
    options.incarnation = Incarnation;
    auto want = Partition(g, options);
    ASSERT_TRUE(want.ok()) << want.status();
    auto got = CutGraph(g, Incarnation);
    ASSERT_TRUE(got.ok()) << got.status();
    ASSERT_EQ(got->size(), want->size()) << "round " << round;
    for (const auto& [name, part] : *want) {
      ASSERT_EQ(got->count(name), 1u) << "round " << round << ": " << name;
      const Graph& mine = *got->at(name);
      ASSERT_EQ(mine.num_nodes(), part->num_nodes())
          << "round " << round << ", nodes on " << name;
      for (int i = 0; i < part->num_nodes(); ++i) {
        ASSERT_EQ(Describe(*mine.node(i)), Describe(*part->node(i)))
            << "round " << round << ", node " << i << " on " << name;
      }
    }
  }
}

// Seed 001 run for real: the cut graph of a session's run, one executor per
// device, all at once, meeting in one rendezvous.
class SendRecvRunTest : public PlacementExerciseTest {
 protected:
  // Places `graph`, rewrites it to fetch `fetch`, cuts it with CutGraph,
  // runs every partition once and returns the fetched value.
  StatusOr<Tensor> Run(Graph* graph, const Output& fetch) {
    TF_RETURN_IF_ERROR(Place(graph, set_));
    Device* client = set_.client_device();
    TF_ASSIGN_OR_RETURN(
        std::unique_ptr<Graph> run,
        BuildClientGraph(*graph, {}, {fetch}, {}, client->attributes()));
    TF_ASSIGN_OR_RETURN(std::string key,
                        SendRecvKey(*run->FindNode(FetchNodeName(fetch))));
    TF_ASSIGN_OR_RETURN(
        Parts parts, CutGraph(*run, [&](const std::string& d) {
          return set_.FindDeviceByName(d)->attributes().incarnation;
        }));
    devices_ = parts.size();

    std::vector<std::unique_ptr<OpKernel>> kernels;
    std::vector<std::unique_ptr<ParallelExecutor>> executors;
    for (const auto& [name, part] : parts) {
      Device* device = set_.FindDeviceByName(name);
      TF_ASSIGN_OR_RETURN(
          auto exec,
          ParallelExecutor::Create(
              part.get(), device, [&](const Node& n) -> StatusOr<OpKernel*> {
                TF_ASSIGN_OR_RETURN(auto k,
                                    KernelRegistry::Global()->CreateKernel(
                                        n, device->device_type()));
                kernels.push_back(std::move(k));
                return kernels.back().get();
              }));
      executors.push_back(std::move(exec));
    }
    IntraProcessRendezvous rendezvous;
    ResourceMgr resources;
    Notification done;
    Status status;
    ExecutorBarrier barrier(static_cast<int>(executors.size()), &rendezvous,
                            [&](const Status& s) {
                              status = s;
                              done.Notify();
                            });
    Eigen::ThreadPool pool(2);
    ParallelExecutor::Args args;
    args.rendezvous = &rendezvous;
    args.resource_manager = &resources;
    args.barrier = &barrier;
    args.runner = [&pool](std::function<void()> fn) {
      pool.Schedule(std::move(fn));
    };
    for (const auto& exec : executors) {
      exec->RunAsync(args,
                     [&barrier](const Status& s) { barrier.ExecutorDone(s); });
    }
    done.WaitForNotification();
    TF_RETURN_IF_ERROR(status);
    TF_ASSIGN_OR_RETURN(Rendezvous::ParsedKey parsed,
                        Rendezvous::ParseKey(key));
    Tensor value;
    bool is_dead = false;
    TF_RETURN_IF_ERROR(rendezvous.Recv(parsed, {client}, &value, &is_dead));
    return value;
  }

  size_t devices_ = 0;
};

// a and b on the CPU, the MatMul on the GPU: two tensors go to the GPU, the
// product comes back to the client.
TEST_F(SendRecvRunTest, SeedOnesMatMulOnTheGpu) {
  UseGpus(1);
  Graph g;
  graph_scope use(g);
  Output a, b;
  {
    device_scope on("/cpu:0");
    a = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3}, "a");
    b = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {3, 2}, "b");
  }
  Output c = matmul(a, b);
  auto value = Run(&g, c);
  ASSERT_TRUE(value.ok()) << value.status();
  EXPECT_EQ(devices_, 2u);
  EXPECT_EQ(value->ToVector<float>(), (std::vector<float>{22, 28, 49, 64}));
}

// Seed 001's towers, on GPU:0 and GPU:1, summed on the CPU.
TEST_F(SendRecvRunTest, SeedOnesTowers) {
  UseGpus(2);
  Graph g;
  graph_scope use(g);
  std::vector<Output> c;
  for (const char* d : {"/gpu:0", "/gpu:1"}) {
    device_scope on(d);
    Output a = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3});
    Output b = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {3, 2});
    c.push_back(matmul(a, b));
  }
  Output sum;
  {
    device_scope on("/cpu:0");
    sum = add_n(c);
  }
  auto value = Run(&g, sum);
  ASSERT_TRUE(value.ok()) << value.status();
  EXPECT_EQ(devices_, 3u);
  EXPECT_EQ(value->ToVector<float>(), (std::vector<float>{44, 56, 98, 128}));
}

}  // namespace
}  // namespace minitf::exercises
