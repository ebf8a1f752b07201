#include "minitf/device/devices/device.h"

#include <gtest/gtest.h>

#include <atomic>
#include <unsupported/Eigen/CXX11/ThreadPool>

#include "device_test_util.h"
#include "minitf/device/devices/threadpool_device.h"
#include "minitf/device/devices/virtual_gpu_device.h"

namespace minitf {
namespace {

using testing::VirtualGpus;

class DeviceTest : public testing::CleanDeviceEnvironment {};

TEST_F(DeviceTest, TheCpuDescribesItselfAsTensorFlowsDoes) {
  ThreadPoolDevice cpu("/job:localhost/replica:0/task:0/device:CPU:0", 1);
  const DeviceAttributes& a = cpu.attributes();
  EXPECT_EQ(a.name, "/job:localhost/replica:0/task:0/device:CPU:0");
  EXPECT_EQ(a.device_type, "CPU");
  EXPECT_EQ(a.memory_limit, 268435456);
  EXPECT_EQ(a.locality.bus_id, 0);
  EXPECT_FALSE(a.locality.links.has_value());
  EXPECT_NE(a.incarnation, 0u);
  EXPECT_EQ(a.physical_device_desc, "");
  EXPECT_EQ(cpu.device_type(), "CPU");
  EXPECT_EQ(cpu.parsed_name().job, "localhost");
  EXPECT_EQ(cpu.parsed_name().device_index, 0);
  EXPECT_TRUE(cpu.UsesHostMemory());
  EXPECT_EQ(cpu.device_context(), nullptr);
  EXPECT_EQ(cpu.allocator()->Name(), "cpu");
}

TEST_F(DeviceTest, EveryDeviceGetsItsOwnIncarnation) {
  ThreadPoolDevice a("/device:CPU:0", 1);
  ThreadPoolDevice b("/device:CPU:0", 1);
  EXPECT_NE(a.attributes().incarnation, b.attributes().incarnation);
}

TEST_F(DeviceTest, AVirtualGpuSaysWhatItIs) {
  VirtualGpuDevice gpu("/job:localhost/replica:0/task:0/device:GPU:1", 1, 1,
                       kDefaultVirtualGpuMemoryLimit, /*intra_op_threads=*/2);
  const DeviceAttributes& a = gpu.attributes();
  EXPECT_EQ(a.device_type, "GPU");
  EXPECT_EQ(a.memory_limit, int64_t{1} << 30);
  EXPECT_EQ(a.locality.bus_id, 1);
  ASSERT_TRUE(a.locality.links.has_value());
  EXPECT_TRUE(a.locality.links->link.empty());
  EXPECT_EQ(a.physical_device_desc,
            "device: 1, name: minitf virtual GPU (CPU memory), pci bus id: "
            "virtual");
  EXPECT_FALSE(gpu.UsesHostMemory());
  EXPECT_NE(gpu.device_context(), nullptr);
  // Its kernels split their work over a pool of its own.
  ASSERT_NE(gpu.intra_op_thread_pool(), nullptr);
  EXPECT_EQ(gpu.intra_op_thread_pool()->NumThreads(), 2);
  EXPECT_EQ(gpu.allocator()->Name(), "GPU_1_virtual");
  EXPECT_EQ(gpu.GetAllocatorStats().bytes_limit, int64_t{1} << 30);
}

TEST_F(DeviceTest, TensorsAreCountedInTheirDevicesMemory) {
  auto mgr = testing::MakeDevices(VirtualGpus(1));
  ASSERT_NE(mgr, nullptr);
  Device* gpu = mgr->ListDevices()[1];
  {
    StatusOr<Tensor> t = gpu->AllocateTensor(DT_FLOAT, TensorShape({256, 256}));
    ASSERT_TRUE(t.ok()) << t.status();
    AllocatorStats s = gpu->GetAllocatorStats();
    EXPECT_EQ(s.num_allocs, 1);
    // The tensor's bytes, and the little header its buffer keeps.
    EXPECT_GE(s.bytes_in_use, 256 * 256 * 4);
    EXPECT_LT(s.bytes_in_use, 256 * 256 * 4 + 1024);
  }
  EXPECT_EQ(gpu->GetAllocatorStats().bytes_in_use, 0);
}

// TensorFlow's message from OpKernelContext::allocate_tensor, with the
// virtual GPU's allocator.
TEST_F(DeviceTest, AFullGpuRefusesWithTensorFlowsOomMessage) {
  auto mgr = testing::MakeDevices(VirtualGpus(2, /*limit_mb=*/1));
  ASSERT_NE(mgr, nullptr);
  Device* gpu1 = mgr->ListDevices()[2];
  EXPECT_EQ(gpu1->attributes().memory_limit, 1 << 20);
  StatusOr<Tensor> t =
      gpu1->AllocateTensor(DT_FLOAT, TensorShape({1024, 1024}));
  EXPECT_EQ(t.status().ToString(),
            "Resource exhausted: OOM when allocating tensor with "
            "shape[1024,1024] and type float on "
            "/job:localhost/replica:0/task:0/device:GPU:1 by allocator "
            "GPU_1_virtual");
  EXPECT_EQ(gpu1->GetAllocatorStats().num_refused, 1);
  // Something smaller still fits.
  EXPECT_TRUE(gpu1->AllocateTensor(DT_INT32, TensorShape({1000})).ok());
}

TEST_F(DeviceTest, OtherAllocationErrorsStayAsTheyAre) {
  ThreadPoolDevice cpu("/device:CPU:0", 1);
  StatusOr<Tensor> t = cpu.AllocateTensor(DT_FLOAT, TensorShape({-1, 2}));
  EXPECT_EQ(t.status().code(), error::INVALID_ARGUMENT);
}

TEST_F(DeviceTest, ATensorMayOutliveItsDevice) {
  Tensor kept;
  {
    VirtualGpuDevice gpu("/device:GPU:0", 0, 0, 1 << 20, 1);
    kept = gpu.AllocateTensor(DT_FLOAT, TensorShape({4})).value();
    kept.flat<float>().setConstant(2.f);
  }
  EXPECT_EQ(kept.ToVector<float>(), (std::vector<float>{2.f, 2.f, 2.f, 2.f}));
  kept = Tensor();  // the last block returns; its allocator goes with it
}

TEST_F(DeviceTest, TheCpuRunsWorkOnItsThreadPool) {
  ThreadPoolDevice cpu("/device:CPU:0", 2);
  Eigen::ThreadPoolInterface* pool = cpu.intra_op_thread_pool();
  ASSERT_NE(pool, nullptr);
  EXPECT_EQ(pool, cpu.intra_op_thread_pool());  // made once
  EXPECT_EQ(pool->NumThreads(), 2);
  std::atomic<int> sum{0};
  Eigen::Barrier done(100);
  for (int i = 1; i <= 100; ++i) {
    pool->Schedule([&sum, &done, i] {
      sum += i;
      done.Notify();
    });
  }
  done.Wait();
  EXPECT_EQ(sum.load(), 5050);
}

}  // namespace
}  // namespace minitf
