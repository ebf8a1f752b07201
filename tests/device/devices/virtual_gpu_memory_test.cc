// A virtual GPU's memory holds what its kernels make: the executor makes the
// device's allocator the default around each kernel (allocator.h,
// Device::kernel_allocator), so the limit refuses a kernel's output with
// TensorFlow's OOM error and the statistics count it, while a CPU-only
// session keeps its tensors in the CPU's allocator as before.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "device_test_util.h"
#include "minitf/device/session/direct_session.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/run_metadata.h"
#include "minitf/graph/scope.h"
#include "minitf/train/ops/grad_ops.h"
#include "minitf/train/variables.h"

namespace minitf {
namespace {

constexpr const char* kGpu0 = "/job:localhost/replica:0/task:0/device:GPU:0";

class VirtualGpuMemoryTest : public testing::CleanDeviceEnvironment {
 protected:
  // A session on graph_ with `config`; fails the test on an error.
  std::unique_ptr<DirectSession> MakeSession(const ConfigProto& config) {
    SessionOptions options;
    options.config = config;
    auto session = DirectSession::Create(options, graph_);
    EXPECT_TRUE(session.ok()) << session.status();
    return session.ok() ? std::move(session).value() : nullptr;
  }

  std::shared_ptr<Graph> graph_ = std::make_shared<Graph>();
  graph_scope use_{*graph_};
};

// y:[m,m] = x x^T on `device`, for x:[m,k] of ones: every value of y is k.
Output ProductOfOnes(const char* device, int64_t m, int64_t k) {
  Tensor ones(DT_FLOAT, TensorShape({m, k}));
  ones.flat<float>().setConstant(1.f);
  device_scope on(device);
  Output x = constant(ones, "x");
  return matmul(x, x, false, /*transpose_b=*/true, "y");
}

// The output descriptions of node `name` in a traced step.
const NodeExecStats* FindNode(const RunMetadata& metadata,
                              const std::string& name) {
  for (const DeviceStepStats& d : metadata.step_stats.dev_stats) {
    for (const NodeExecStats& n : d.node_stats) {
      if (n.node_name == name) return &n;
    }
  }
  return nullptr;
}

// TensorFlow's words for a [512,512] float32 refused by GPU:0's allocator,
// then the node that asked.
void ExpectOomOnGpu0For512By512(const Status& s, const std::string& node) {
  EXPECT_EQ(s.code(), error::RESOURCE_EXHAUSTED);
  EXPECT_EQ(s.message().find(
                "OOM when allocating tensor with shape[512,512] and type "
                "float on /job:localhost/replica:0/task:0/device:GPU:0 by "
                "allocator GPU_0_virtual"),
            0u)
      << s;
  EXPECT_NE(s.message().find("{{node " + node + "}}"), std::string::npos) << s;
}

// --8<-- [start:oom_test]
TEST_F(VirtualGpuMemoryTest, AMatMulPastTheGpusLimitFailsWithTensorFlowsOom) {
  // y:[512,512] is 1 MiB of floats, and its buffer keeps a little header:
  // more than a GPU of 1 MiB holds, whatever else it holds.
  Output y = ProductOfOnes("/gpu:0", 512, 256);
  auto small = MakeSession(testing::VirtualGpus(1, /*limit_mb=*/1));
  std::vector<Tensor> out;
  const Status s = small->Run({}, {y.name()}, {}, &out);
  ExpectOomOnGpu0For512By512(s, "y");
  Device* gpu = small->device_mgr().LookupDevice("/gpu:0").value();
  EXPECT_EQ(gpu->GetAllocatorStats().num_refused, 1);
  // What is left is the constant x, which its kernel keeps on the GPU.
  EXPECT_GE(gpu->GetAllocatorStats().bytes_in_use, 512 * 256 * 4);
  EXPECT_LT(gpu->GetAllocatorStats().bytes_in_use, 512 * 256 * 4 + 1024);

  // The same graph on a GPU of 2 MiB runs.
  auto large = MakeSession(testing::VirtualGpus(1, /*limit_mb=*/2));
  ASSERT_TRUE(large->Run({}, {y.name()}, {}, &out).ok());
  EXPECT_EQ(out[0].shape(), TensorShape({512, 512}));
  EXPECT_EQ(out[0].flat<float>()(0), 256.f);
}
// --8<-- [end:oom_test]

// A kernel that makes several tensors fails on the first that does not fit,
// with the OOM error, not a crash: the fused sparse softmax cross-entropy
// gets its 1 MiB of logits onto a GPU of 2 MiB, then cannot add its 1 MiB
// backprop.
TEST_F(VirtualGpuMemoryTest, ASoftmaxCrossEntropyPastTheLimitIsAnOom) {
  Output labels = placeholder(DT_INT32, {512}, "labels");
  Output logits = placeholder(DT_FLOAT, {512, 512}, "logits");
  Output loss;
  {
    device_scope on("/gpu:0");
    loss = nn::sparse_softmax_cross_entropy_with_logits(labels, logits, "xent");
  }
  Tensor labels_value(DT_INT32, TensorShape({512}));
  labels_value.flat<int32_t>().setZero();
  Tensor logits_value(DT_FLOAT, TensorShape({512, 512}));
  logits_value.flat<float>().setZero();
  const std::vector<std::pair<std::string, Tensor>> feeds = {
      {"labels:0", labels_value}, {"logits:0", logits_value}};
  auto small = MakeSession(testing::VirtualGpus(1, /*limit_mb=*/2));
  std::vector<Tensor> out;
  const Status s = small->Run(feeds, {loss.name()}, {}, &out);
  EXPECT_EQ(s.code(), error::RESOURCE_EXHAUSTED) << s;
  EXPECT_EQ(s.message().find("OOM when allocating tensor with shape["), 0u)
      << s;
  EXPECT_NE(s.message().find("on /job:localhost/replica:0/task:0/device:GPU:0 "
                             "by allocator GPU_0_virtual"),
            std::string::npos)
      << s;
  EXPECT_NE(s.message().find("{{node xent}}"), std::string::npos) << s;

  // With room for both, it runs: log(512) per example for zero logits.
  auto large = MakeSession(testing::VirtualGpus(1, /*limit_mb=*/4));
  ASSERT_TRUE(large->Run(feeds, {loss.name()}, {}, &out).ok());
  EXPECT_NEAR(out[0].flat<float>()(0), std::log(512.f), 1e-5);
}

// A constant on a GPU is kept in its memory, as TensorFlow's is: one too
// large for it fails the same way, naming the constant.
TEST_F(VirtualGpuMemoryTest, AConstantTooLargeForTheGpuIsAnOom) {
  Tensor big(DT_FLOAT, TensorShape({512, 512}));
  big.flat<float>().setZero();
  Output x;
  {
    device_scope on("/gpu:0");
    x = constant(big, "x");
  }
  auto session = MakeSession(testing::VirtualGpus(1, /*limit_mb=*/1));
  std::vector<Tensor> out;
  const Status s = session->Run({}, {x.name()}, {}, &out);
  ExpectOomOnGpu0For512By512(s, "x");
}

// --8<-- [start:stats_test]
TEST_F(VirtualGpuMemoryTest, KernelOutputsAreCountedWhileTheStepRuns) {
  constexpr int64_t kBytes = 64 * 64 * 4;  // of each [64,64] float product
  Output y = ProductOfOnes("/gpu:0", 64, 64);
  Output z;
  {
    device_scope on("/gpu:0");
    z = matmul(y, y, false, false, "z");
  }
  auto session = MakeSession(testing::VirtualGpus(1));
  Device* gpu = session->device_mgr().LookupDevice("/gpu:0").value();
  // A first step makes the kernels, and the constant x on the GPU.
  std::vector<Tensor> out;
  ASSERT_TRUE(session->Run({}, {z.name()}, {}, &out).ok());
  // Something the program holds in the GPU's memory across the step.
  const Tensor held = gpu->AllocateTensor(DT_FLOAT, TensorShape({100})).value();
  const AllocatorStats before = gpu->GetAllocatorStats();

  RunMetadata metadata;
  ASSERT_TRUE(session
                  ->Run(RunOptions{.trace_level = RunOptions::FULL_TRACE}, {},
                        {z.name()}, {}, &out, &metadata)
                  .ok());
  EXPECT_EQ(out[0].flat<float>()(0), 64.f * 64.f * 64.f);
  const AllocatorStats after = gpu->GetAllocatorStats();
  // y and z, and y was still alive while z was being computed.
  EXPECT_EQ(after.num_allocs - before.num_allocs, 2);
  EXPECT_GE(after.max_bytes_in_use, before.bytes_in_use + 2 * kBytes);
  EXPECT_GE(after.max_alloc_size, kBytes);
  // Freed with the step: what is left is what was there before.
  EXPECT_EQ(after.bytes_in_use, before.bytes_in_use);
  // The step stats name the GPU's allocator for the GPU's outputs.
  const NodeExecStats* traced = FindNode(metadata, "z");
  ASSERT_NE(traced, nullptr);
  ASSERT_EQ(traced->output.size(), 1u);
  EXPECT_EQ(traced->output[0]
                .tensor_description.allocation_description.allocator_name,
            "GPU_0_virtual");
}
// --8<-- [end:stats_test]

TEST_F(VirtualGpuMemoryTest, ACpuOnlySessionKeepsItsTensorsInTheCpuAllocator) {
  Output y = ProductOfOnes("/cpu:0", 64, 64);
  auto session = MakeSession(ConfigProto{});
  Device* cpu = session->device_mgr().ListDevices()[0];
  RunMetadata metadata;
  std::vector<Tensor> out;
  ASSERT_TRUE(session
                  ->Run(RunOptions{.trace_level = RunOptions::FULL_TRACE}, {},
                        {y.name()}, {}, &out, &metadata)
                  .ok());
  EXPECT_EQ(out[0].allocator(), cpu_allocator());
  EXPECT_EQ(cpu->GetAllocatorStats().num_allocs, 0);
  EXPECT_EQ(cpu->GetAllocatorStats().bytes_in_use, 0);
  const NodeExecStats* traced = FindNode(metadata, "y");
  ASSERT_NE(traced, nullptr);
  EXPECT_EQ(traced->output[0]
                .tensor_description.allocation_description.allocator_name,
            "cpu");
  // The thread that ran the step has its default back.
  EXPECT_EQ(DefaultAllocator(), cpu_allocator());
}

TEST_F(VirtualGpuMemoryTest, AGpuVariableStaysInTheGpusMemoryUntilClosed) {
  Variable w;
  {
    device_scope on("/gpu:0");
    w = Variable(zeros({256, 256}), "w");
  }
  auto session = MakeSession(testing::VirtualGpus(1));
  Device* gpu = session->device_mgr().LookupDevice("/gpu:0").value();
  std::vector<Tensor> out;
  ASSERT_TRUE(
      session->Run({}, {}, {global_variables_initializer().name()}, &out).ok());
  // The value the initializer made on the GPU is the variable's now.
  EXPECT_GE(gpu->GetAllocatorStats().bytes_in_use, 256 * 256 * 4);
  ASSERT_TRUE(session->Close().ok());
  // Only the small constants of zeros() remain, kept by their kernels.
  EXPECT_LT(gpu->GetAllocatorStats().bytes_in_use, 1024);
}

// TensorFlow copies a fetched value into the client's memory; so does minitf,
// and that memory outlives the session.
TEST_F(VirtualGpuMemoryTest, AFetchedValueOutlivesTheSession) {
  Output y = ProductOfOnes("/gpu:0", 8, 8);
  std::vector<Tensor> out;
  {
    auto session = MakeSession(testing::VirtualGpus(1));
    ASSERT_TRUE(session->Run({}, {y.name()}, {}, &out).ok());
    EXPECT_EQ(out[0].allocator()->Name(), "cpu");
  }
  EXPECT_EQ(out[0].ToVector<float>(), std::vector<float>(64, 8.f));
}

}  // namespace
}  // namespace minitf
