#include "minitf/device/devices/device_lib.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "device_test_util.h"
#include "minitf/tensor/errors.h"

namespace minitf {
namespace {

using testing::ScopedEnv;
using testing::VirtualGpus;

class DeviceLibTest : public testing::CleanDeviceEnvironment {};

template <typename T>
std::string Printed(const T& value) {
  std::ostringstream os;
  os << value;
  return os.str();
}

// The text of TensorFlow 1.x's print(device_lib.list_local_devices()) on a
// machine with one GPU, with that machine's numbers.
TEST_F(DeviceLibTest, AttributesPrintAsTensorFlowPrintsThem) {
  // Field by field: GCC 12 mistakes a designated initializer of this
  // struct for a read of the optional it has not yet built.
  DeviceAttributes cpu;
  cpu.name = "/device:CPU:0";
  cpu.device_type = "CPU";
  cpu.memory_limit = 268435456;
  cpu.incarnation = 11996855961648024970u;
  DeviceAttributes gpu;
  gpu.name = "/device:GPU:0";
  gpu.device_type = "GPU";
  gpu.memory_limit = 5893849088;
  gpu.incarnation = 4248541454924357196u;
  gpu.physical_device_desc =
      "device: 0, name: GeForce GTX 1060 6GB, pci bus id: 0000:01:00.0, "
      "compute capability: 6.1";
  gpu.locality.bus_id = 1;
  gpu.locality.links.emplace();  // present, with no links
  EXPECT_EQ(Printed(std::vector<DeviceAttributes>{cpu, gpu}),
            "[name: \"/device:CPU:0\"\n"
            "device_type: \"CPU\"\n"
            "memory_limit: 268435456\n"
            "locality {\n"
            "}\n"
            "incarnation: 11996855961648024970\n"
            ", name: \"/device:GPU:0\"\n"
            "device_type: \"GPU\"\n"
            "memory_limit: 5893849088\n"
            "locality {\n"
            "  bus_id: 1\n"
            "  links {\n"
            "  }\n"
            "}\n"
            "incarnation: 4248541454924357196\n"
            "physical_device_desc: \"device: 0, name: GeForce GTX 1060 6GB, "
            "pci bus id: 0000:01:00.0, compute capability: 6.1\"\n"
            "]");
}

TEST_F(DeviceLibTest, LinksAndEscapesPrintAsProtobufTextFormat) {
  DeviceAttributes a{
      .name = "say \"hi\"\\",
      .locality = {
          .bus_id = 2,
          .numa_node = 1,
          .links = LocalLinks{
              {{.device_id = 1, .type = "StreamExecutor", .strength = 1}}}}};
  EXPECT_EQ(a.DebugString(),
            "name: \"say \\\"hi\\\"\\\\\"\n"
            "locality {\n"
            "  bus_id: 2\n"
            "  numa_node: 1\n"
            "  links {\n"
            "    link {\n"
            "      device_id: 1\n"
            "      type: \"StreamExecutor\"\n"
            "      strength: 1\n"
            "    }\n"
            "  }\n"
            "}\n");
  EXPECT_EQ(Printed(std::vector<DeviceAttributes>{}), "[]");
}

TEST_F(DeviceLibTest, WithoutGpusTheCpuAloneIsListed) {
  std::vector<DeviceAttributes> devices = device_lib::list_local_devices();
  ASSERT_EQ(devices.size(), 1u);
  EXPECT_EQ(devices[0].name, "/device:CPU:0");
  EXPECT_EQ(devices[0].device_type, "CPU");
  EXPECT_EQ(devices[0].memory_limit, 268435456);
  const std::string text = Printed(devices);
  const std::string head =
      "[name: \"/device:CPU:0\"\ndevice_type: \"CPU\"\nmemory_limit: "
      "268435456\nlocality {\n}\nincarnation: ";
  EXPECT_EQ(text.substr(0, head.size()), head);
  EXPECT_EQ(text.back(), ']');
}

TEST_F(DeviceLibTest, VirtualGpusAreListedAndSayTheyAreVirtual) {
  std::vector<DeviceAttributes> devices =
      device_lib::list_local_devices(VirtualGpus(2, /*limit_mb=*/512));
  ASSERT_EQ(devices.size(), 3u);
  EXPECT_EQ(devices[1].name, "/device:GPU:0");
  EXPECT_EQ(devices[2].name, "/device:GPU:1");
  const std::string text = Printed(devices[2]);
  EXPECT_EQ(text.substr(0, text.find("incarnation")),
            "name: \"/device:GPU:1\"\n"
            "device_type: \"GPU\"\n"
            "memory_limit: 536870912\n"
            "locality {\n"
            "  bus_id: 1\n"
            "  links {\n"
            "  }\n"
            "}\n");
  EXPECT_EQ(text.substr(text.find("physical")),
            "physical_device_desc: \"device: 1, name: minitf virtual GPU (CPU "
            "memory), pci bus id: virtual\"\n");
}

TEST_F(DeviceLibTest, TheEnvironmentVariableShowsInTheList) {
  ScopedEnv env("MINITF_VIRTUAL_GPUS", "1");
  EXPECT_EQ(device_lib::list_local_devices().size(), 2u);
}

TEST_F(DeviceLibTest, BadOptionsThrowTypedErrors) {
  ConfigProto bad_list = VirtualGpus(1);
  bad_list.gpu_options.visible_device_list = "0,x";
  EXPECT_THROW(device_lib::list_local_devices(bad_list),
               errors::InvalidArgumentError);
  ConfigProto no_cpu;
  no_cpu.device_count["CPU"] = 0;
  EXPECT_THROW(device_lib::list_local_devices(no_cpu), errors::NotFoundError);
  EXPECT_EQ(device_lib::ListLocalDevices(no_cpu).status().code(),
            error::NOT_FOUND);
}

// Emulated GPUs are chapter 5's: a program without its layer says so.
TEST_F(DeviceLibTest, EmulatedGpusWithoutChapterFiveAreAFailedPrecondition) {
  ConfigProto config = VirtualGpus(1);
  config.gpu_options.emulate_gpu_kernels = true;
  EXPECT_EQ(device_lib::ListLocalDevices(config).status().ToString(),
            "Failed precondition: Emulated GPU kernels were asked for "
            "(gpu_options.emulate_gpu_kernels or MINITF_EMULATE_GPU_KERNELS), "
            "but this program has no GPU kernels: link chapter 5's layer "
            "(minitf_gpu)");
  ScopedEnv env("MINITF_EMULATE_GPU_KERNELS", "1");
  EXPECT_THROW(device_lib::list_local_devices(VirtualGpus(1)),
               errors::FailedPreconditionError);
}

}  // namespace
}  // namespace minitf
