// How much of a GPU TensorFlow takes (per_process_gpu_memory_fraction, the
// default reserve), the allocator GPU_<n>_bfc that manages it, and virtual
// GPUs, which use it once this layer is linked.
#include "minitf/gpu/gpu_allocator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "device_test_util.h"
#include "minitf/device/session/direct_session.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/run_metadata.h"
#include "minitf/graph/scope.h"

namespace minitf {
namespace {

constexpr int64_t kMiB = int64_t{1} << 20;
constexpr int64_t kGiB = int64_t{1} << 30;

GPUOptions WithFraction(double fraction) {
  GPUOptions options;
  options.per_process_gpu_memory_fraction = fraction;
  return options;
}

TEST(GpuMemoryLimitTest, TheReserveIsTensorFlows) {
  EXPECT_EQ(MinSystemMemory(kGiB), 225 * kMiB);      // below 2 GiB
  EXPECT_EQ(MinSystemMemory(2 * kGiB), 300 * kMiB);  // 5% is only 102 MiB
  EXPECT_EQ(MinSystemMemory(16 * kGiB), 858993459);  // 5%: 819.2 MiB
}

TEST(GpuMemoryLimitTest, ByDefaultTheFreeMemoryLessTheReserve) {
  // A 16 GiB card with 15 GiB free: 15 GiB less 5% of it.
  EXPECT_EQ(GpuMemoryLimit(GPUOptions{}, 16 * kGiB, 15 * kGiB, true).value(),
            15 * kGiB - 805306368);
  // A card with less free than the reserve keeps all of it.
  EXPECT_EQ(GpuMemoryLimit(GPUOptions{}, kGiB, 200 * kMiB, true).value(),
            200 * kMiB);
}

TEST(GpuMemoryLimitTest, AFractionIsOfTheTotalNotOfTheFree) {
  EXPECT_EQ(GpuMemoryLimit(WithFraction(0.5), 16 * kGiB, kGiB, true).value(),
            8 * kGiB);
  EXPECT_EQ(GpuMemoryLimit(WithFraction(1.0), 16 * kGiB, kGiB, true).value(),
            16 * kGiB);
  // More than the card holds: unified memory only.
  EXPECT_EQ(GpuMemoryLimit(WithFraction(1.5), 16 * kGiB, kGiB, true).value(),
            24 * kGiB);
}

TEST(GpuMemoryLimitTest, AFractionAboveOneWithoutUnifiedMemoryIsTensorFlows) {
  const Status s =
      GpuMemoryLimit(WithFraction(1.5), 16 * kGiB, kGiB, false).status();
  EXPECT_EQ(s.ToString(),
            "Internal: Unified memory on GPUs with compute capability lower "
            "than 6.0 (pre-Pascal class GPUs) does not support "
            "oversubscription.");
}

TEST(GpuMemoryLimitTest, ANegativeOrNanFractionIsInvalid) {
  for (double f : {-0.5, std::numeric_limits<double>::quiet_NaN()}) {
    const Status s = GpuMemoryLimit(WithFraction(f), kGiB, kGiB, true).status();
    EXPECT_EQ(s.code(), error::INVALID_ARGUMENT) << s;
    EXPECT_NE(s.message().find("gpu_options.per_process_gpu_memory_fraction "
                               "must be in (0, 1], or 0 for the default"),
              std::string::npos)
        << s;
  }
}

TEST(GpuBfcAllocatorTest, IsNamedAsTensorFlowNamesIt) {
  GPUOptions options = WithFraction(0.25);
  options.allow_growth = true;
  auto bfc = NewGpuBfcAllocator(3, std::make_unique<HostSubAllocator>(),
                                options, 64 * kMiB, 64 * kMiB, false);
  ASSERT_TRUE(bfc.ok()) << bfc.status();
  EXPECT_EQ(bfc.value()->Name(), "GPU_3_bfc");
  EXPECT_EQ(bfc.value()->GetStats().bytes_limit, 16 * kMiB);
  void* p = bfc.value()->AllocateRaw(64, 100);
  EXPECT_EQ(bfc.value()->RegionSizes(), std::vector<size_t>{1 << 20});
  bfc.value()->DeallocateRaw(p);
}

// With this layer linked, a virtual GPU is a card of
// virtual_gpu_memory_limit_mb, and its allocator is GPU_<n>_bfc.
class VirtualGpuBfcTest : public testing::CleanDeviceEnvironment {};

TEST_F(VirtualGpuBfcTest, VirtualGpusAllocateThroughGpuNBfc) {
  auto mgr = testing::MakeDevices(testing::VirtualGpus(2, /*limit_mb=*/4));
  ASSERT_NE(mgr, nullptr);
  for (int i = 0; i < 2; ++i) {
    Device* gpu = mgr->ListDevices()[1 + i];
    EXPECT_EQ(gpu->allocator()->Name(), "GPU_" + std::to_string(i) + "_bfc");
    EXPECT_NE(dynamic_cast<BFCAllocator*>(gpu->allocator()), nullptr);
    // 4 MiB is less than the reserve, so the default limit is all of it.
    EXPECT_EQ(gpu->attributes().memory_limit, 4 * kMiB);
    EXPECT_TRUE(gpu->allocator()->HostAccessible());
  }
}

TEST_F(VirtualGpuBfcTest, TheDefaultVirtualGpuKeepsTensorFlowsReserve) {
  auto mgr = testing::MakeDevices(testing::VirtualGpus(1));
  ASSERT_NE(mgr, nullptr);
  // A card of 1 GiB, all of it free: 1024 - 225 MiB.
  EXPECT_EQ(mgr->ListDevices()[1]->attributes().memory_limit, 799 * kMiB);
}

TEST_F(VirtualGpuBfcTest, TheFractionAndAllowGrowthApplyToVirtualGpus) {
  ConfigProto config = testing::VirtualGpus(1, /*limit_mb=*/64);
  config.gpu_options.per_process_gpu_memory_fraction = 0.5;
  config.gpu_options.allow_growth = true;
  auto mgr = testing::MakeDevices(config);
  ASSERT_NE(mgr, nullptr);
  Device* gpu = mgr->ListDevices()[1];
  EXPECT_EQ(gpu->attributes().memory_limit, 32 * kMiB);
  const Tensor t = gpu->AllocateTensor(DT_FLOAT, TensorShape({16})).value();
  auto* bfc = dynamic_cast<BFCAllocator*>(gpu->allocator());
  ASSERT_NE(bfc, nullptr);
  EXPECT_EQ(bfc->RegionSizes(), std::vector<size_t>{1 << 20});
}

TEST_F(VirtualGpuBfcTest, ABadFractionFailsTheDevicesWithTensorFlowsWords) {
  ConfigProto config = testing::VirtualGpus(1);
  config.gpu_options.per_process_gpu_memory_fraction = 1.5;
  SessionOptions options;
  options.config = config;
  EXPECT_EQ(DeviceMgr::Create(options).status().ToString(),
            "Internal: Unified memory on GPUs with compute capability lower "
            "than 6.0 (pre-Pascal class GPUs) does not support "
            "oversubscription.");
  options.config.gpu_options.per_process_gpu_memory_fraction = -1;
  EXPECT_EQ(DeviceMgr::Create(options).status().code(),
            error::INVALID_ARGUMENT);
}

TEST_F(VirtualGpuBfcTest, AFullVirtualGpuIsTensorFlowsOomByGpuNBfc) {
  auto mgr = testing::MakeDevices(testing::VirtualGpus(2, /*limit_mb=*/1));
  ASSERT_NE(mgr, nullptr);
  Device* gpu1 = mgr->ListDevices()[2];
  StatusOr<Tensor> t =
      gpu1->AllocateTensor(DT_FLOAT, TensorShape({1024, 1024}));
  EXPECT_EQ(t.status().ToString(),
            "Resource exhausted: OOM when allocating tensor with "
            "shape[1024,1024] and type float on "
            "/job:localhost/replica:0/task:0/device:GPU:1 by allocator "
            "GPU_1_bfc");
  EXPECT_EQ(gpu1->GetAllocatorStats().num_refused, 1);
}

TEST_F(VirtualGpuBfcTest, StepStatsNameTheBfcAllocator) {
  auto graph = std::make_shared<Graph>();
  graph_scope use(*graph);
  Output y;
  {
    device_scope on("/gpu:0");
    Output x = constant(Tensor(2.f), "x");
    y = add(x, x, "y");
  }
  SessionOptions options;
  options.config = testing::VirtualGpus(1, /*limit_mb=*/16);
  auto session = DirectSession::Create(options, graph);
  ASSERT_TRUE(session.ok()) << session.status();
  RunMetadata metadata;
  std::vector<Tensor> out;
  ASSERT_TRUE(session.value()
                  ->Run(RunOptions{.trace_level = RunOptions::FULL_TRACE}, {},
                        {y.name()}, {}, &out, &metadata)
                  .ok());
  EXPECT_EQ(out[0].flat<float>()(0), 4.f);
  std::string allocator;
  for (const DeviceStepStats& d : metadata.step_stats.dev_stats) {
    for (const NodeExecStats& n : d.node_stats) {
      if (n.node_name == "y") {
        allocator =
            n.output.at(0)
                .tensor_description.allocation_description.allocator_name;
      }
    }
  }
  EXPECT_EQ(allocator, "GPU_0_bfc");
}

}  // namespace
}  // namespace minitf
