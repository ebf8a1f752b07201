#include "minitf/device/devices/device_set.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "device_test_util.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"

namespace minitf {
namespace {

using testing::VirtualGpus;
using Strings = std::vector<std::string>;

// A local session's devices with two virtual GPUs: CPU:0, GPU:0, GPU:1.
class DeviceSetTest : public testing::CleanDeviceEnvironment {
 protected:
  void SetUp() override {
    mgr_ = testing::MakeDevices(VirtualGpus(2));
    ASSERT_NE(mgr_, nullptr);
    for (Device* d : mgr_->ListDevices()) set_.AddDevice(d);
    set_.set_client_device(mgr_->ListDevices()[0]);
  }

  Strings Matching(const char* spec) const {
    Strings names;
    for (Device* d : set_.FindMatchingDevices(DeviceSpec::from_string(spec))) {
      names.push_back(d->name());
    }
    return names;
  }

  std::unique_ptr<DeviceMgr> mgr_;
  DeviceSet set_;
};

const std::string kCpu0 = "/job:localhost/replica:0/task:0/device:CPU:0";
const std::string kGpu0 = "/job:localhost/replica:0/task:0/device:GPU:0";
const std::string kGpu1 = "/job:localhost/replica:0/task:0/device:GPU:1";

TEST_F(DeviceSetTest, ListsNamesAndFindsByFullName) {
  EXPECT_EQ(set_.DeviceNames(), (Strings{kCpu0, kGpu0, kGpu1}));
  EXPECT_EQ(set_.FindDeviceByName(kGpu1), mgr_->ListDevices()[2]);
  EXPECT_EQ(set_.FindDeviceByName("/gpu:1"), nullptr);
  EXPECT_EQ(set_.client_device()->name(), kCpu0);
  set_.AddDevice(mgr_->ListDevices()[0]);  // again: no change
  EXPECT_EQ(set_.devices().size(), 3u);
}

TEST_F(DeviceSetTest, FindsTheDevicesThatSatisfyASpec) {
  EXPECT_EQ(Matching("/gpu:1"), (Strings{kGpu1}));
  EXPECT_EQ(Matching("/device:GPU:*"), (Strings{kGpu0, kGpu1}));
  EXPECT_EQ(Matching("/cpu:0"), (Strings{kCpu0}));
  EXPECT_EQ(Matching("/job:localhost/task:0"), (Strings{kCpu0, kGpu0, kGpu1}));
  EXPECT_EQ(Matching(""), (Strings{kCpu0, kGpu0, kGpu1}));
  EXPECT_EQ(Matching("/gpu:2"), Strings{});
  EXPECT_EQ(Matching("/job:worker"), Strings{});
}

TEST_F(DeviceSetTest, RanksGpusBeforeTheCpu) {
  EXPECT_EQ(DeviceSet::DeviceTypePriority("GPU"), 210);
  EXPECT_EQ(DeviceSet::DeviceTypePriority("CPU"), 60);
  EXPECT_EQ(set_.PrioritizedDeviceTypeList(), (Strings{"GPU", "CPU"}));
  Strings order;
  for (Device* d : set_.PrioritizedDevices()) order.push_back(d->name());
  EXPECT_EQ(order, (Strings{kGpu0, kGpu1, kCpu0}));
}

TEST_F(DeviceSetTest, KnowsWhichTypesHaveAKernelForANode) {
  Graph g;
  graph_scope use(g);
  Output f = constant({1.f}, {1, 1});
  Output i = constant({1}, {1, 1});
  EXPECT_EQ(set_.SupportedDeviceTypesForNode(*matmul(f, f).node()),
            (Strings{"GPU", "CPU"}));
  // TensorFlow has no GPU MatMul for int32.
  EXPECT_EQ(set_.SupportedDeviceTypesForNode(*matmul(i, i).node()),
            (Strings{"CPU"}));
  EXPECT_EQ(set_.SupportedDeviceTypesForNode(*add(i, i).node()),
            (Strings{"GPU", "CPU"}));
}

TEST_F(DeviceSetTest, ACpuOnlySetOffersOnlyTheCpu) {
  auto mgr = testing::MakeDevices({});
  ASSERT_NE(mgr, nullptr);
  DeviceSet cpu_only;
  for (Device* d : mgr->ListDevices()) cpu_only.AddDevice(d);
  Graph g;
  graph_scope use(g);
  Output f = constant({1.f}, {1, 1});
  EXPECT_EQ(cpu_only.PrioritizedDeviceTypeList(), Strings{"CPU"});
  EXPECT_EQ(cpu_only.SupportedDeviceTypesForNode(*matmul(f, f).node()),
            Strings{"CPU"});
}

TEST_F(DeviceSetTest, TheManagerLooksUpEverySpellingOfOneDevice) {
  for (const char* name : {"/gpu:1", "/GPU:1", "/device:GPU:1", kGpu1.c_str(),
                           "/job:localhost/gpu:1"}) {
    StatusOr<Device*> d = mgr_->LookupDevice(name);
    ASSERT_TRUE(d.ok()) << name << ": " << d.status();
    EXPECT_EQ(d.value()->name(), kGpu1);
  }
  for (const char* name :
       {"/gpu:3", "/gpu:*", "/job:worker/gpu:0", "/gpu:x", "/job:localhost"}) {
    StatusOr<Device*> d = mgr_->LookupDevice(name);
    EXPECT_EQ(d.status().ToString(),
              std::string("Invalid argument: ") + name + " unknown device.");
  }
  EXPECT_EQ(mgr_->NumDeviceType("GPU"), 2);
  EXPECT_EQ(mgr_->NumDeviceType("CPU"), 1);
}

// What log_device_placement prints under "Device mapping:".
TEST_F(DeviceSetTest, TheDeviceMappingListsDevicesWithADescription) {
  EXPECT_EQ(mgr_->DeviceMappingString(),
            kGpu0 +
                " -> device: 0, name: minitf virtual GPU (CPU memory), pci "
                "bus id: virtual\n" +
                kGpu1 +
                " -> device: 1, name: minitf virtual GPU (CPU memory), pci "
                "bus id: virtual\n");
  auto cpu_only = testing::MakeDevices({});
  ASSERT_NE(cpu_only, nullptr);
  EXPECT_EQ(cpu_only->DeviceMappingString(), "");
}

}  // namespace
}  // namespace minitf
