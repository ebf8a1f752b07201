#include "minitf/device/devices/device_context.h"

#include <gtest/gtest.h>

#include <vector>

#include "device_test_util.h"
#include "minitf/device/devices/device.h"

namespace minitf {
namespace {

using testing::VirtualGpus;

class DeviceContextTest : public testing::CleanDeviceEnvironment {
 protected:
  void SetUp() override {
    mgr_ = testing::MakeDevices(VirtualGpus(2, /*limit_mb=*/1));
    ASSERT_NE(mgr_, nullptr);
    cpu_ = mgr_->ListDevices()[0];
    gpu0_ = mgr_->ListDevices()[1];
    gpu1_ = mgr_->ListDevices()[2];
  }

  std::unique_ptr<DeviceMgr> mgr_;
  Device* cpu_ = nullptr;
  Device* gpu0_ = nullptr;
  Device* gpu1_ = nullptr;
};

TEST_F(DeviceContextTest, HostToDeviceToDeviceToHost) {
  const Tensor x({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
  Tensor on_gpu0 = CopyTensorBetweenDevicesSync("x:0", cpu_, gpu0_, x).value();
  Tensor on_gpu1 =
      CopyTensorBetweenDevicesSync("x:0", gpu0_, gpu1_, on_gpu0).value();
  Tensor back =
      CopyTensorBetweenDevicesSync("x:0", gpu1_, cpu_, on_gpu1).value();
  EXPECT_EQ(back.shape(), TensorShape({2, 3}));
  EXPECT_EQ(back.ToVector<float>(),
            (std::vector<float>{1.f, 2.f, 3.f, 4.f, 5.f, 6.f}));
  // Each copy is a tensor of its own, in its device's memory.
  EXPECT_FALSE(on_gpu0.SharesBufferWith(x));
  EXPECT_EQ(on_gpu0.allocator(), gpu0_->allocator());
  EXPECT_EQ(on_gpu1.allocator(), gpu1_->allocator());
  EXPECT_EQ(back.allocator(), cpu_->allocator());
}

TEST_F(DeviceContextTest, CopiesAreCountedOnBothDevices) {
  const Tensor x({1.f, 2.f, 3.f, 4.f});  // 16 bytes
  Tensor y = CopyTensorBetweenDevicesSync("x:0", cpu_, gpu0_, x).value();
  Tensor z = CopyTensorBetweenDevicesSync("y:0", gpu0_, gpu1_, y).value();
  TransferStats g0 = gpu0_->GetTransferStats();
  EXPECT_EQ(g0.copies_in, 1);
  EXPECT_EQ(g0.bytes_in, 16);
  EXPECT_EQ(g0.copies_out, 1);
  EXPECT_EQ(g0.bytes_out, 16);
  EXPECT_EQ(gpu1_->GetTransferStats().bytes_in, 16);
  EXPECT_EQ(cpu_->GetTransferStats().bytes_out, 16);
  EXPECT_GE(gpu0_->GetAllocatorStats().bytes_in_use, 16);
}

TEST_F(DeviceContextTest, HostToHostSharesTheTensor) {
  auto mgr = testing::MakeDevices([] {
    ConfigProto c;
    c.device_count["CPU"] = 2;
    return c;
  }());
  ASSERT_NE(mgr, nullptr);
  Device* cpu0 = mgr->ListDevices()[0];
  Device* cpu1 = mgr->ListDevices()[1];
  const Tensor x({1.f, 2.f});
  Tensor y = CopyTensorBetweenDevicesSync("x:0", cpu0, cpu1, x).value();
  EXPECT_TRUE(y.SharesBufferWith(x));
  EXPECT_EQ(cpu1->GetTransferStats().copies_in, 0);
}

TEST_F(DeviceContextTest, CopyingIntoAFullGpuIsItsOom) {
  const Tensor big =
      Tensor::Allocate(DT_FLOAT, TensorShape({512, 1024})).value();
  StatusOr<Tensor> r = CopyTensorBetweenDevicesSync("big:0", cpu_, gpu1_, big);
  EXPECT_EQ(r.status().ToString(),
            "Resource exhausted: OOM when allocating tensor with "
            "shape[512,1024] and type float on "
            "/job:localhost/replica:0/task:0/device:GPU:1 by allocator "
            "GPU_1_virtual");
  EXPECT_EQ(gpu1_->GetTransferStats().copies_in, 0);
}

TEST_F(DeviceContextTest, TheCallbackRunsOnceAndTheOutputOnlyOnSuccess) {
  const Tensor x({7, 8});
  Tensor out;
  int calls = 0;
  CopyTensorBetweenDevices("x:0", cpu_, gpu0_, x, &out, [&](const Status& s) {
    EXPECT_TRUE(s.ok());
    ++calls;
  });
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(out.ToVector<int32_t>(), (std::vector<int32_t>{7, 8}));
}

TEST_F(DeviceContextTest, MismatchedTensorsAreAnInternalError) {
  Tensor a({1.f, 2.f});
  Tensor b({1.f, 2.f, 3.f});
  Status s = CopyHostAddressableBytes(a, &b);
  EXPECT_EQ(s.code(), error::INTERNAL);
  EXPECT_EQ(s.message(),
            "Cannot copy a tensor of type float and shape [2] into one of "
            "type float and shape [3]");
  Tensor c({1, 2});
  EXPECT_EQ(CopyHostAddressableBytes(a, &c).code(), error::INTERNAL);
}

// An accelerator of another kind, to take the route between two kinds of
// device memory: through the host.
class OtherAcceleratorContext : public DeviceContext {
 public:
  void CopyCPUTensorToDevice(const Tensor* cpu_tensor, Device*,
                             Tensor* device_tensor,
                             StatusCallback done) const override {
    done(CopyHostAddressableBytes(*cpu_tensor, device_tensor));
  }
  void CopyDeviceTensorToCPU(const Tensor* device_tensor, std::string_view,
                             Device*, Tensor* cpu_tensor,
                             StatusCallback done) const override {
    done(CopyHostAddressableBytes(*device_tensor, cpu_tensor));
  }
  void CopyDeviceTensorToDevice(const Tensor*, Device*, Device*, Tensor*,
                                StatusCallback done) const override {
    done(errors::Unimplemented("no peer copies"));
  }
};

class OtherAccelerator : public Device {
 public:
  OtherAccelerator()
      : Device(BuildDeviceAttributes("/device:OTHER:0", "OTHER", 1 << 20, {},
                                     "test accelerator"),
               cpu_allocator(), "OTHER_0", 1 << 20) {}
  bool UsesHostMemory() const override { return false; }
  DeviceContext* device_context() override { return &context_; }

 private:
  OtherAcceleratorContext context_;
};

TEST_F(DeviceContextTest, DifferentKindsOfDeviceCopyThroughTheHost) {
  OtherAccelerator other;
  const Tensor x({1.f, 2.f, 3.f});
  Tensor on_gpu = CopyTensorBetweenDevicesSync("x:0", cpu_, gpu0_, x).value();
  Tensor on_other =
      CopyTensorBetweenDevicesSync("x:0", gpu0_, &other, on_gpu).value();
  EXPECT_EQ(on_other.ToVector<float>(), (std::vector<float>{1.f, 2.f, 3.f}));
  EXPECT_EQ(on_other.allocator(), other.allocator());
  EXPECT_EQ(other.GetTransferStats().bytes_in, 12);
}

}  // namespace
}  // namespace minitf
