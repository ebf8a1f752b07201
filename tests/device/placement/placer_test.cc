// Tests of the placer: seed 001's placements on virtual GPUs, colocation
// groups, TensorFlow 1.15's errors (and the seed's TensorFlow 0.x one, for a
// device that does not exist), and soft placement.
#include "minitf/device/placement/placer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "device_test_util.h"
#include "minitf/device/placement/colocation_graph.h"
#include "minitf/graph/kernel.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/shape_inference.h"
#include "minitf/train/ops/state_ops.h"
#include "minitf/train/optimizers/gradient_descent.h"
#include "minitf/train/summary/summary_ops.h"
#include "minitf/train/variables.h"

namespace minitf {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using testing::VirtualGpus;

// An op with a kernel on the GPU only, for colocation tests. (A summary is
// the op with a kernel on the CPU only.)
MINITF_REGISTER_OP("PlacerTestGpuOnly")
    .Output("y: float")
    .SetShapeFn(shape_fns::ScalarShape);
class NothingOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext*) override { return Status::OK(); }
};
MINITF_REGISTER_KERNEL("PlacerTestGpuOnly", DEVICE_GPU, NothingOp);

const std::string kCpu0 = "/job:localhost/replica:0/task:0/device:CPU:0";
const std::string kGpu0 = "/job:localhost/replica:0/task:0/device:GPU:0";
const std::string kGpu1 = "/job:localhost/replica:0/task:0/device:GPU:1";
const std::string kGpu2 = "/job:localhost/replica:0/task:0/device:GPU:2";
const std::string kGpu3 = "/job:localhost/replica:0/task:0/device:GPU:3";

// The placement log of these nodes: "<name>: (<op>): <device>" lines.
std::string Log(const std::vector<std::array<std::string, 3>>& lines) {
  std::string out;
  for (const auto& [name, op, device] : lines) {
    out += name + ": (" + op + "): " + device + "\n";
  }
  return out;
}

// Seed 001's log: MatMul first, then its two constants, as TensorFlow 1.15
// places them.
std::string SeedLog(const std::string& matmul, const std::string& constants) {
  return Log({{"MatMul", "MatMul", matmul},
              {"a", "Const", constants},
              {"b", "Const", constants}});
}

// A graph of its own, made the default, and the devices of a local session
// with `gpus` virtual GPUs.
class PlacerTest : public testing::CleanDeviceEnvironment {
 protected:
  void UseDevices(const ConfigProto& config) {
    mgr_ = testing::MakeDevices(config);
    ASSERT_NE(mgr_, nullptr);
    set_ = DeviceSet();
    for (Device* d : mgr_->ListDevices()) set_.AddDevice(d);
    set_.set_client_device(mgr_->ListDevices()[0]);
  }
  void UseGpus(int gpus) { UseDevices(VirtualGpus(gpus)); }

  // Places g_ and keeps the placement log and the notices.
  Status Place(bool allow_soft_placement = false) {
    log_.str("");
    info_.str("");
    PlacerOptions options{.allow_soft_placement = allow_soft_placement,
                          .log_device_placement = true,
                          .log_stream = &log_,
                          .info_stream = &info_};
    return minitf::Place(&g_, set_, options);
  }

  const std::string& DeviceOf(const Output& t) {
    return t.node()->assigned_device();
  }
  const std::string& DeviceOf(const std::string& name) {
    return g_.FindNode(name)->assigned_device();
  }

  // Seed 001's first snippet: a[2,3], b[3,2], c = matmul(a, b).
  Output SeedMatMul() {
    Output a = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3}, "a");
    Output b = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {3, 2}, "b");
    return matmul(a, b);
  }

  Graph g_;
  graph_scope use_{g_};
  std::unique_ptr<DeviceMgr> mgr_;
  DeviceSet set_;
  std::ostringstream log_;
  std::ostringstream info_;
};

// --- Seed 001, snippet by snippet --------------------------------------------

TEST_F(PlacerTest, Seed001ConstantsAndMatMulGoToGpu0ByDefault) {
  for (int gpus : {2, 4}) {
    Graph g;
    graph_scope use(g);
    UseGpus(gpus);
    Output a = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3}, "a");
    Output b = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {3, 2}, "b");
    matmul(a, b);
    std::ostringstream log;
    ASSERT_TRUE(
        minitf::Place(&g, set_,
                      {.log_device_placement = true, .log_stream = &log})
            .ok());
    EXPECT_EQ(log.str(), SeedLog(kGpu0, kGpu0)) << gpus << " GPUs";
  }
}

TEST_F(PlacerTest, Seed001ManualPlacementKeepsAAndBOnTheCpu) {
  UseGpus(2);
  Output a, b;
  {
    device_scope on_cpu("/cpu:0");
    a = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3}, "a");
    b = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {3, 2}, "b");
  }
  matmul(a, b);
  ASSERT_TRUE(Place().ok());
  EXPECT_EQ(log_.str(), SeedLog(kGpu0, kCpu0));
}

TEST_F(PlacerTest, Seed001EverythingOnGpu2WhenAskedWithFourGpus) {
  UseGpus(4);
  {
    device_scope on_gpu2("/gpu:2");
    SeedMatMul();
  }
  ASSERT_TRUE(Place().ok());
  EXPECT_EQ(log_.str(), SeedLog(kGpu2, kGpu2));
}

TEST_F(PlacerTest, Seed001Gpu2WithTwoGpusIsInvalidArgument) {
  UseGpus(2);
  {
    device_scope on_gpu2("/gpu:2");
    SeedMatMul();
  }
  Status s = Place();
  EXPECT_EQ(s.code(), error::INVALID_ARGUMENT);
  // The seed's text, TensorFlow 0.x's, naming b: the first node, in the
  // order of TensorFlow 0.x's graph (b, a, MatMul), whose device is missing.
  EXPECT_EQ(s.message(),
            "Cannot assign a device to node 'b': Could not satisfy explicit "
            "device specification '/gpu:2'\n\t [[Node: b = "
            "Const[dtype=DT_FLOAT, value=Tensor<type: float shape: [3,2] "
            "values: 1 2 3...>, _device=\"/gpu:2\"]()]]");
  EXPECT_EQ(log_.str(), "");
}

// Seed 001's towers with two GPUs: TensorFlow 0.x's graph takes the newest
// ready node first, so the last constant, under /gpu:3, is the one named.
TEST_F(PlacerTest, Seed001TowersNameTheLastConstantFirst) {
  UseGpus(2);
  std::vector<Output> c;
  for (const char* d : {"/gpu:2", "/gpu:3"}) {
    device_scope on(d);
    Output a = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3});
    Output b = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {3, 2});
    c.push_back(matmul(a, b));
  }
  {
    device_scope on_cpu("/cpu:0");
    add_n(c);
  }
  EXPECT_EQ(Place().message(),
            "Cannot assign a device to node 'Const_3': Could not satisfy "
            "explicit device specification '/gpu:3'\n\t [[Node: Const_3 = "
            "Const[dtype=DT_FLOAT, value=Tensor<type: float shape: [3,2] "
            "values: 1 2 3...>, _device=\"/gpu:3\"]()]]");
}

// A node with inputs shows them, and the spec keeps its job and task, in
// TensorFlow 0.x's spelling.
TEST_F(PlacerTest, AMissingDeviceShowsTheNodeAsTensorFlow0Did) {
  UseGpus(1);
  Output a = constant({1.f, 2.f}, {1, 2}, "a");
  Output b = constant({3.f}, {1, 1}, "b");
  {
    device_scope on("/job:localhost/task:0/device:GPU:*");
    device_scope on_gpu1("/device:GPU:1");
    matmul(b, a, false, false, "m");
  }
  EXPECT_EQ(Place().message(),
            "Cannot assign a device to node 'm': Could not satisfy explicit "
            "device specification '/job:localhost/task:0/gpu:1'\n\t [[Node: "
            "m = MatMul[T=DT_FLOAT, transpose_a=false, transpose_b=false, "
            "_device=\"/job:localhost/task:0/gpu:1\"](b, a)]]");
  EXPECT_EQ(log_.str(), "");
}

TEST_F(PlacerTest, Seed001SoftPlacementPutsItOnAnExistingGpu) {
  UseGpus(2);
  {
    device_scope on_gpu2("/gpu:2");
    SeedMatMul();
  }
  ASSERT_TRUE(Place(/*allow_soft_placement=*/true).ok());
  EXPECT_EQ(log_.str(), SeedLog(kGpu0, kGpu0));
}

TEST_F(PlacerTest, Seed001TowersOnGpus2And3SumOnTheCpu) {
  UseGpus(4);
  std::vector<Output> c;
  for (const char* d : {"/gpu:2", "/gpu:3"}) {
    device_scope on(d);
    Output a = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3});
    Output b = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {3, 2});
    c.push_back(matmul(a, b));
  }
  {
    device_scope on_cpu("/cpu:0");
    add_n(c);
  }
  ASSERT_TRUE(Place().ok());
  EXPECT_EQ(log_.str(), Log({{"MatMul", "MatMul", kGpu2},
                             {"MatMul_1", "MatMul", kGpu3},
                             {"AddN", "AddN", kCpu0},
                             {"Const", "Const", kGpu2},
                             {"Const_1", "Const", kGpu2},
                             {"Const_2", "Const", kGpu3},
                             {"Const_3", "Const", kGpu3}}));
}

TEST_F(PlacerTest, Seed000ModelOnTheCpuAndItsLossOnTheGpu) {
  UseGpus(2);
  Output x, out, y;
  {
    device_scope on_cpu("/device:cpu:0");
    Variable w(0.0f, "weight");
    Variable b(0.0f, "bias");
    x = placeholder(DT_FLOAT, {None});
    out = placeholder(DT_FLOAT, {None});
    y = w.value() * x + b.value();
  }
  Output loss = reduce_mean(square(y - out));
  train::GradientDescentOptimizer(0.01f).minimize(loss);
  global_variables_initializer();
  ASSERT_TRUE(Place().ok());
  // The variables and everything colocated with them (their Assign, read
  // and update) follow the scope; the loss, outside it, goes to the GPU.
  for (const Node* n : g_.nodes()) {
    const std::string& name = n->name();
    if (name.starts_with("weight") || name.starts_with("bias") ||
        name.starts_with("GradientDescent/update_") ||
        name.starts_with("Placeholder") || name == "mul" || name == "add") {
      EXPECT_EQ(n->assigned_device(), kCpu0) << name;
    }
  }
  EXPECT_EQ(DeviceOf(loss), kGpu0);
  EXPECT_EQ(DeviceOf("sub"), kGpu0);
  EXPECT_THAT(log_.str(), HasSubstr("weight: (VariableV2): " + kCpu0 + "\n"));
  EXPECT_THAT(log_.str(),
              HasSubstr("GradientDescent/update_weight/ApplyGradientDescent: "
                        "(ApplyGradientDescent): " +
                        kCpu0 + "\n"));
}

TEST_F(PlacerTest, NoGpusMeansEverythingOnTheCpu) {
  ConfigProto config = VirtualGpus(2);
  config.device_count["GPU"] = 0;
  UseDevices(config);
  SeedMatMul();
  ASSERT_TRUE(Place().ok());
  EXPECT_EQ(log_.str(), SeedLog(kCpu0, kCpu0));
}

// --- Colocation groups -------------------------------------------------------

TEST_F(PlacerTest, AVariableItsAssignReadAndUpdateShareOneDevice) {
  UseGpus(2);
  Output x = placeholder(DT_FLOAT, {2}, "x");
  Variable w;
  {
    device_scope on_cpu("/cpu:0");
    w = Variable(constant({1.f, 2.f}, {2}), "w");
  }
  Output loss = reduce_sum(square(w.value() * x));
  train::GradientDescentOptimizer(0.1).minimize(loss);
  ASSERT_TRUE(Place().ok());

  ColocationGraph groups(g_, set_, {});
  ASSERT_TRUE(groups.Initialize().ok());
  const Node* var = g_.FindNode("w");
  for (const char* name : {"w/Assign", "w/read",
                           "GradientDescent/update_w/ApplyGradientDescent"}) {
    const Node* member = g_.FindNode(name);
    ASSERT_NE(member, nullptr) << name;
    EXPECT_TRUE(groups.SameGroup(*var, *member)) << name;
    EXPECT_EQ(member->assigned_device(), kCpu0) << name;
  }
  EXPECT_EQ(DeviceOf("w"), kCpu0);
  // The math around it asks for nothing, so it goes to the GPU.
  EXPECT_EQ(DeviceOf(loss), kGpu0);
  EXPECT_FALSE(groups.SameGroup(*var, *loss.node()));
}

TEST_F(PlacerTest, AReferenceEdgeColocatesWithoutAClassAttr) {
  UseGpus(2);
  Output v = variable_v2(TensorShape({2}), DT_FLOAT, "v");
  Output init = assign(v, constant({1.f, 2.f}, {2}));
  // Forget the colocate_with of assign(): the reference edge alone must
  // still tie the Assign to its variable.
  init.node()->SetAttr("_class", AttrValue(std::vector<std::string>{}));
  v.node()->set_requested_device("/device:CPU:0");
  init.node()->set_requested_device("/device:GPU:1");
  ASSERT_TRUE(Place().ok());
  EXPECT_EQ(DeviceOf(v), kCpu0);
  EXPECT_EQ(DeviceOf(init), kCpu0);
  EXPECT_EQ(info_.str(),
            "Ignoring device specification /device:GPU:1 for node 'Assign' "
            "because the input edge from 'v' is a reference connection and "
            "already has a device field set to /device:CPU:0\n");
}

TEST_F(PlacerTest, ConflictingColocationIsInvalidArgument) {
  UseGpus(2);
  Output a, b;
  {
    device_scope on_gpu("/gpu:0");
    a = constant({1.f}, {1}, "a");
  }
  {
    colocate_with with_a(a);
    b = identity(a, "b");
  }
  b.node()->set_requested_device("/device:CPU:0");
  Status s = Place();
  EXPECT_EQ(s.code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(s.message(),
            "Cannot colocate nodes {{colocation_node b}} and "
            "{{colocation_node a}}: Cannot merge devices with incompatible "
            "types: '/device:CPU:0' and '/device:GPU:0'\n\t [[{{node b}}]]");

  // Soft placement lets the two requests cancel out: the group asks for
  // nothing and goes to the best device.
  ASSERT_TRUE(Place(/*allow_soft_placement=*/true).ok());
  EXPECT_EQ(DeviceOf(a), kGpu0);
  EXPECT_EQ(DeviceOf(b), kGpu0);
}

TEST_F(PlacerTest, ColocatingOpsWithoutACommonDeviceTypeIsInvalidArgument) {
  UseGpus(1);
  Output gpu_only = ops::AddOp(NodeBuilder("PlacerTestGpuOnly", "g"), {});
  Output cpu_only;
  {
    colocate_with with_g(gpu_only);
    cpu_only = summary::scalar("c", gpu_only);
  }
  Status s = Place();
  EXPECT_EQ(s.code(), error::INVALID_ARGUMENT);
  EXPECT_THAT(s.message(),
              StartsWith("Cannot colocate nodes {{colocation_node c}} and "
                         "{{colocation_node g}} because no device type "
                         "supports both of those nodes and the other nodes "
                         "colocated with them.\nColocation Debug Info:\n"));
  EXPECT_THAT(s.message(), HasSubstr("\nScalarSummary: CPU \n"));
  EXPECT_THAT(s.message(), HasSubstr("\nPlacerTestGpuOnly: GPU \n"));
  EXPECT_THAT(s.message(), HasSubstr("\n  c (ScalarSummary) \n"));

  // Soft placement drops the colocation and places each on its own type.
  ASSERT_TRUE(Place(/*allow_soft_placement=*/true).ok());
  EXPECT_EQ(DeviceOf(gpu_only), kGpu0);
  EXPECT_EQ(DeviceOf(cpu_only), kCpu0);
}

// --- Kernels and dtypes ------------------------------------------------------

TEST_F(PlacerTest, Int32MatMulHasNoGpuKernelSoItRunsOnTheCpu) {
  UseGpus(2);
  Output a = constant({1, 2, 3, 4}, {2, 2}, "a");
  Output p = matmul(a, a);
  // An int32 Add has a GPU kernel (its tensors in host memory), as in
  // TensorFlow, so it goes to the GPU.
  Output s = add(a, a);
  ASSERT_TRUE(Place().ok());
  EXPECT_EQ(DeviceOf(p), kCpu0);
  EXPECT_EQ(DeviceOf(s), kGpu0);
  // Its consumers disagree, so the constant takes its own best device.
  EXPECT_EQ(DeviceOf(a), kGpu0);
}

TEST_F(PlacerTest, ARequestForATypeWithoutKernelsIsInvalidArgument) {
  UseGpus(2);
  {
    device_scope on_gpu("/gpu:0");
    Output a = constant({1, 2, 3, 4}, {2, 2}, "a");
    matmul(a, a);
  }
  Status s = Place();
  EXPECT_EQ(s.code(), error::INVALID_ARGUMENT);
  EXPECT_THAT(s.message(),
              StartsWith("Cannot assign a device for operation MatMul: Could "
                         "not satisfy explicit device specification "
                         "'/device:GPU:0' because no supported kernel for GPU "
                         "devices is available.\nColocation Debug Info:\n"));
  EXPECT_THAT(s.message(),
              HasSubstr("\nOp: MatMul\nNode attrs: T=DT_INT32, "
                        "transpose_a=false, transpose_b=false\nRegistered "
                        "kernels:\n  device='CPU'\n"));
  EXPECT_THAT(s.message(), ::testing::EndsWith("\n\t [[{{node MatMul}}]]"));

  // Soft placement moves MatMul to the CPU; the constant, which has a GPU
  // kernel, keeps its request.
  ASSERT_TRUE(Place(/*allow_soft_placement=*/true).ok());
  EXPECT_EQ(DeviceOf("MatMul"), kCpu0);
  EXPECT_EQ(DeviceOf("a"), kGpu0);
}

TEST_F(PlacerTest, AnOpWithoutAnyKernelIsInvalidArgument) {
  UseGpus(0);
  ops::AddOp(NodeBuilder("PlacerTestGpuOnly", "g"), {});
  Status s = Place();
  EXPECT_EQ(s.code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(s.message(),
            "No OpKernel was registered to support Op 'PlacerTestGpuOnly' "
            "used by {{node g}}with these attrs: []\nRegistered devices: "
            "[CPU]\nRegistered kernels:\n  device='GPU'\n\n\t [[g]]");
}

// --- Heuristics --------------------------------------------------------------

TEST_F(PlacerTest, AMetadataOpStaysWithItsInput) {
  UseGpus(2);
  Output x;
  {
    // Not a constant, which would be placed after its consumers; of
    // unknown length, or tf::shape would fold into a constant.
    device_scope on_cpu("/cpu:0");
    x = negative(placeholder(DT_FLOAT, {None}), "x");
  }
  Output shape_of = shape(x);
  Output square_of = square(x);
  ASSERT_TRUE(Place().ok());
  ASSERT_EQ(shape_of.node()->type_string(), "Shape");
  EXPECT_EQ(DeviceOf(shape_of), kCpu0);
  EXPECT_EQ(DeviceOf(square_of), kGpu0);
}

TEST_F(PlacerTest, AGeneratorFollowsItsConsumersOnlyWhenTheyAgree) {
  UseGpus(2);
  Output shared = constant({1.f}, {1}, "shared");
  {
    device_scope on_gpu1("/gpu:1");
    square(shared);
    negative(shared);
  }
  Output split = constant({1.f}, {1}, "split");
  {
    device_scope on_gpu1("/gpu:1");
    square(split);
  }
  negative(split);
  ASSERT_TRUE(Place().ok());
  EXPECT_EQ(DeviceOf(shared), kGpu1);
  EXPECT_EQ(DeviceOf(split), kGpu0);
}

TEST_F(PlacerTest, AssignedNodesKeepTheirDevice) {
  UseGpus(2);
  Output c = SeedMatMul();
  c.node()->set_assigned_device(kGpu1);
  ASSERT_TRUE(Place().ok());
  EXPECT_EQ(log_.str(), SeedLog(kGpu1, kGpu1));
}

TEST_F(PlacerTest, TheDefaultDeviceComesFirst) {
  UseGpus(2);
  Output c = SeedMatMul();
  Status s = minitf::Place(&g_, set_, {.default_device = set_.devices()[0]});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(DeviceOf(c), kCpu0);
}

// --- Requests ----------------------------------------------------------------

TEST_F(PlacerTest, APartialRequestTakesTheBestMatchingDevice) {
  UseGpus(2);
  Output c;
  {
    device_scope on_localhost("/job:localhost");
    c = SeedMatMul();
  }
  Output d;
  {
    device_scope any_cpu("/device:CPU:*");
    d = negative(c);
  }
  ASSERT_TRUE(Place().ok());
  EXPECT_EQ(DeviceOf(c), kGpu0);
  EXPECT_EQ(DeviceOf(d), kCpu0);
}

TEST_F(PlacerTest, AMalformedRequestIsInvalidArgument) {
  UseGpus(0);
  Output a = constant({1.f}, {1}, "a");
  // device_scope refuses "/gpu:x" when it is entered; a request can still
  // arrive malformed when set on the node itself.
  a.node()->set_requested_device("/gpu:x");
  Status s = Place();
  EXPECT_EQ(s.code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(s.message(),
            "Malformed device specification '/gpu:x' in node: {name:'a' "
            "id:0 op device:{} def:{{{node a}} = Const[dtype=DT_FLOAT, "
            "value=Tensor<type: float shape: [1]>, _device=\"/gpu:x\"]()}}"
            "\n\t [[a]]");
}

TEST_F(PlacerTest, AnotherJobIsNotThisProcess) {
  UseGpus(1);
  {
    device_scope on_ps("/job:ps/task:0");
    constant({1.f}, {1}, "a");
  }
  Status s = Place(/*allow_soft_placement=*/true);
  EXPECT_EQ(s.code(), error::INVALID_ARGUMENT);
  EXPECT_THAT(s.message(),
              StartsWith("Cannot assign a device for operation a: {{node a}} "
                         "was explicitly assigned to /job:ps/task:0 but "
                         "available devices are [ "));
}

TEST_F(PlacerTest, NoDevicesIsFailedPrecondition) {
  SeedMatMul();
  Status s = minitf::Place(&g_, DeviceSet());
  EXPECT_EQ(s.code(), error::FAILED_PRECONDITION);
  EXPECT_EQ(s.message(), "No devices are registered");
}

}  // namespace
}  // namespace minitf
