#include "minitf/device/devices/device_factory.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "device_test_util.h"
#include "minitf/device/devices/threadpool_device.h"
#include "minitf/device/devices/virtual_gpu_device.h"

namespace minitf {
namespace {

using testing::ScopedEnv;
using testing::VirtualGpus;

class DeviceFactoryTest : public testing::CleanDeviceEnvironment {};

// The outcome of creating the devices `config` allows, and their names.
Status AddDevices(const ConfigProto& config, std::vector<std::string>* names) {
  SessionOptions options;
  options.config = config;
  std::vector<std::unique_ptr<Device>> devices;
  Status s = DeviceFactory::AddDevices(options, kLocalDevicePrefix, &devices);
  for (const auto& d : devices) names->push_back(d->name());
  return s;
}

// The full names of the devices `config` allows; fails the test on an error.
std::vector<std::string> Names(const ConfigProto& config) {
  std::vector<std::string> names;
  Status s = AddDevices(config, &names);
  EXPECT_TRUE(s.ok()) << s;
  return names;
}

// "OK", or the error creating the devices `config` allows, with its code.
std::string Outcome(const ConfigProto& config) {
  std::vector<std::string> names;
  return AddDevices(config, &names).ToString();
}

const std::string kCpu0 = "/job:localhost/replica:0/task:0/device:CPU:0";
const std::string kCpu1 = "/job:localhost/replica:0/task:0/device:CPU:1";
const std::string kGpu0 = "/job:localhost/replica:0/task:0/device:GPU:0";
const std::string kGpu1 = "/job:localhost/replica:0/task:0/device:GPU:1";
const std::string kGpu2 = "/job:localhost/replica:0/task:0/device:GPU:2";

using Strings = std::vector<std::string>;

TEST_F(DeviceFactoryTest, TensorFlowsPriorities) {
  EXPECT_EQ(DeviceFactory::DevicePriority("GPU"), 210);
  EXPECT_EQ(DeviceFactory::DevicePriority("CPU"), 60);
  EXPECT_EQ(DeviceFactory::DevicePriority("TPU"), -1);
  EXPECT_EQ(DeviceFactory::GetDeviceTypes(), (Strings{"CPU", "GPU"}));
}

TEST_F(DeviceFactoryTest, WithoutGpusThereIsOneCpu) {
  EXPECT_EQ(Names({}), (Strings{kCpu0}));
}

TEST_F(DeviceFactoryTest, VirtualGpusComeAfterTheCpu) {
  EXPECT_EQ(Names(VirtualGpus(2)), (Strings{kCpu0, kGpu0, kGpu1}));
}

TEST_F(DeviceFactoryTest, TheEnvironmentVariableAsksForVirtualGpus) {
  ScopedEnv env("MINITF_VIRTUAL_GPUS", "3");
  EXPECT_EQ(Names({}), (Strings{kCpu0, kGpu0, kGpu1, kGpu2}));
  // The option, when given, wins over the variable.
  EXPECT_EQ(Names(VirtualGpus(1)), (Strings{kCpu0, kGpu0}));
}

TEST_F(DeviceFactoryTest, ABadEnvironmentVariableIsATypedError) {
  for (const char* bad : {"abc", "-1", "65", "1.5", "2 ", "100"}) {
    ScopedEnv env("MINITF_VIRTUAL_GPUS", bad);
    EXPECT_EQ(Outcome({}),
              "Invalid argument: MINITF_VIRTUAL_GPUS must be a whole number "
              "from 0 to 64, got '" +
                  std::string(bad) + "'");
  }
  ScopedEnv empty("MINITF_VIRTUAL_GPUS", "");
  EXPECT_EQ(Names({}), (Strings{kCpu0}));
}

TEST_F(DeviceFactoryTest, BadVirtualGpuOptionsAreTypedErrors) {
  EXPECT_EQ(Outcome(VirtualGpus(-1)),
            "Invalid argument: gpu_options.virtual_gpus must "
            "be from 0 to 64, got -1");
  EXPECT_EQ(Outcome(VirtualGpus(65)),
            "Invalid argument: gpu_options.virtual_gpus must "
            "be from 0 to 64, got 65");
  EXPECT_EQ(Outcome(VirtualGpus(1, -5)),
            "Invalid argument: "
            "gpu_options.virtual_gpu_memory_limit_mb must be from 0 "
            "to 8796093022207, got -5");
}

TEST_F(DeviceFactoryTest, DeviceCountHidesGpusAndMultipliesCpus) {
  ConfigProto config = VirtualGpus(4);
  config.device_count["GPU"] = 0;
  EXPECT_EQ(Names(config), (Strings{kCpu0}));
  config.device_count["GPU"] = 1;
  EXPECT_EQ(Names(config), (Strings{kCpu0, kGpu0}));
  config.device_count["GPU"] = 9;  // more than there are: all of them
  EXPECT_EQ(Names(config).size(), 5u);
  config.device_count["CPU"] = 2;
  config.device_count["GPU"] = 0;
  EXPECT_EQ(Names(config), (Strings{kCpu0, kCpu1}));
}

TEST_F(DeviceFactoryTest, HidingTheGpusSkipsTheirOtherOptions) {
  // TensorFlow reads visible_device_list only when it will create GPUs.
  ConfigProto config = VirtualGpus(2);
  config.gpu_options.visible_device_list = "7";
  config.device_count["GPU"] = 0;
  EXPECT_EQ(Names(config), (Strings{kCpu0}));
}

TEST_F(DeviceFactoryTest, DeviceCountKeysAreCaseSensitive) {
  // As in TensorFlow: {"gpu": 0} is some other type, and hides nothing.
  ConfigProto config = VirtualGpus(1);
  config.device_count["gpu"] = 0;
  EXPECT_EQ(Names(config), (Strings{kCpu0, kGpu0}));
}

TEST_F(DeviceFactoryTest, NoCpuIsTensorFlowsNotFound) {
  ConfigProto config;
  config.device_count["CPU"] = 0;
  EXPECT_EQ(Outcome(config),
            "Not found: No CPU devices are available in this "
            "process");
}

TEST_F(DeviceFactoryTest, NegativeDeviceCountsAreTypedErrors) {
  ConfigProto config = VirtualGpus(1);
  config.device_count["CPU"] = -1;
  EXPECT_EQ(Outcome(config),
            "Invalid argument: device_count[\"CPU\"] must not "
            "be negative, got -1");
  config.device_count["CPU"] = 1;
  config.device_count["GPU"] = -2;
  EXPECT_EQ(Outcome(config),
            "Invalid argument: device_count[\"GPU\"] must not "
            "be negative, got -2");
}

TEST_F(DeviceFactoryTest, VisibleDeviceListRenumbersFromZero) {
  ConfigProto config = VirtualGpus(3);
  config.gpu_options.visible_device_list = "2,0";
  auto mgr = testing::MakeDevices(config);
  ASSERT_NE(mgr, nullptr);
  std::vector<Device*> d = mgr->ListDevices();
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[1]->name(), kGpu0);
  EXPECT_EQ(d[1]->attributes().physical_device_desc,
            "device: 2, name: minitf virtual GPU (CPU memory), pci bus id: "
            "virtual");
  EXPECT_EQ(d[2]->name(), kGpu1);
  EXPECT_EQ(d[2]->attributes().physical_device_desc,
            "device: 0, name: minitf virtual GPU (CPU memory), pci bus id: "
            "virtual");
}

TEST_F(DeviceFactoryTest, BadVisibleDeviceListsAreTensorFlowsErrors) {
  ConfigProto config = VirtualGpus(2);
  config.gpu_options.visible_device_list = "2";
  EXPECT_EQ(Outcome(config),
            "Invalid argument: 'visible_device_list' listed "
            "an invalid GPU id '2' but visible device count is 2");
  config.gpu_options.visible_device_list = "0,0";
  EXPECT_EQ(Outcome(config),
            "Invalid argument: visible_device_list contained "
            "a duplicate entry: 0,0");
}

TEST_F(DeviceFactoryTest, CudaVisibleDevicesHidesBeforeVisibleDeviceList) {
  ScopedEnv env("CUDA_VISIBLE_DEVICES", "1");
  ConfigProto config = VirtualGpus(2);
  EXPECT_EQ(Names(config), (Strings{kCpu0, kGpu0}));
  // One GPU is visible now, so "1" is out of range.
  config.gpu_options.visible_device_list = "1";
  EXPECT_EQ(Outcome(config),
            "Invalid argument: 'visible_device_list' listed "
            "an invalid GPU id '1' but visible device count is 1");
}

TEST_F(DeviceFactoryTest, WithNoGpuInSightTheGpuOptionsAreNotRead) {
  // A program written for a GPU machine still runs where there is none.
  ScopedEnv env("CUDA_VISIBLE_DEVICES", "");
  ConfigProto config = VirtualGpus(2);
  config.gpu_options.visible_device_list = "1";
  EXPECT_EQ(Names(config), (Strings{kCpu0}));
  ConfigProto no_gpus;
  no_gpus.gpu_options.visible_device_list = "0";
  EXPECT_EQ(Names(no_gpus), (Strings{kCpu0}));
}

TEST_F(DeviceFactoryTest, IntraOpThreadsSizeTheCpuPool) {
  ConfigProto config;
  config.intra_op_parallelism_threads = 3;
  auto mgr = testing::MakeDevices(config);
  ASSERT_NE(mgr, nullptr);
  auto* cpu = dynamic_cast<ThreadPoolDevice*>(mgr->ListDevices()[0]);
  ASSERT_NE(cpu, nullptr);
  EXPECT_EQ(cpu->intra_op_threads(), 3);
  EXPECT_EQ(cpu->intra_op_thread_pool()->NumThreads(), 3);
  config.intra_op_parallelism_threads = -1;
  EXPECT_EQ(Outcome(config),
            "Invalid argument: intra_op_parallelism_threads "
            "must not be negative, got -1");
  config.intra_op_parallelism_threads = 0;  // one per hardware thread
  EXPECT_GE(IntraOpThreads(config).value(), 1);
}

// A session that asks for one thread per op gets one on every device: a
// virtual GPU's kernels split their work over a pool of its own, sized as the
// CPU's, not over the process's (which would give two towers on two virtual
// GPUs a third thread to share).
TEST_F(DeviceFactoryTest, IntraOpThreadsSizeEachVirtualGpusPool) {
  ConfigProto config = VirtualGpus(2);
  config.intra_op_parallelism_threads = 1;
  auto mgr = testing::MakeDevices(config);
  ASSERT_NE(mgr, nullptr);
  const std::vector<Device*> devices = mgr->ListDevices();
  ASSERT_EQ(devices.size(), 3u);
  Eigen::ThreadPoolInterface* gpu0 = devices[1]->intra_op_thread_pool();
  Eigen::ThreadPoolInterface* gpu1 = devices[2]->intra_op_thread_pool();
  ASSERT_NE(gpu0, nullptr);
  ASSERT_NE(gpu1, nullptr);
  EXPECT_NE(gpu0, gpu1);
  EXPECT_EQ(gpu0->NumThreads(), 1);
  EXPECT_EQ(gpu1->NumThreads(), 1);
  config.intra_op_parallelism_threads = 3;
  mgr = testing::MakeDevices(config);
  ASSERT_NE(mgr, nullptr);
  EXPECT_EQ(mgr->ListDevices()[2]->intra_op_thread_pool()->NumThreads(), 3);
  config.intra_op_parallelism_threads = -1;
  EXPECT_EQ(Outcome(config),
            "Invalid argument: intra_op_parallelism_threads "
            "must not be negative, got -1");
}

class TestFactory : public DeviceFactory {
 public:
  Status CreateDevices(const SessionOptions&, const std::string&,
                       std::vector<std::unique_ptr<Device>>*) override {
    return Status::OK();
  }
};

TEST_F(DeviceFactoryTest, RegistrationKeepsTheHighestPriority) {
  auto* low = new TestFactory;
  auto* high = new TestFactory;
  ASSERT_TRUE(
      DeviceFactory::Register("TEST_TYPE", std::unique_ptr<TestFactory>(low), 5)
          .ok());
  ASSERT_TRUE(DeviceFactory::Register("TEST_TYPE",
                                      std::unique_ptr<TestFactory>(high), 7)
                  .ok());
  EXPECT_EQ(DeviceFactory::GetFactory("TEST_TYPE"), high);
  EXPECT_EQ(DeviceFactory::DevicePriority("TEST_TYPE"), 7);
  // A lower one is ignored; an equal one is an error, as in TensorFlow.
  ASSERT_TRUE(
      DeviceFactory::Register("TEST_TYPE", std::make_unique<TestFactory>(), 6)
          .ok());
  EXPECT_EQ(DeviceFactory::GetFactory("TEST_TYPE"), high);
  Status s =
      DeviceFactory::Register("TEST_TYPE", std::make_unique<TestFactory>(), 7);
  EXPECT_EQ(s.code(), error::ALREADY_EXISTS);
  EXPECT_EQ(s.message(),
            "Duplicate registration of device factory for type TEST_TYPE with "
            "the same priority 7");
}

}  // namespace
}  // namespace minitf
