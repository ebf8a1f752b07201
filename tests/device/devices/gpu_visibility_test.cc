#include "minitf/device/devices/gpu_visibility.h"

#include <gtest/gtest.h>

#include <vector>

namespace minitf {
namespace {

using V = std::vector<int>;

TEST(GpuVisibilityTest, CudaVisibleDevicesFiltersAndRenumbers) {
  EXPECT_EQ(VisibleByEnvironment(nullptr, 3), (V{0, 1, 2}));
  EXPECT_EQ(VisibleByEnvironment("2,0", 4), (V{2, 0}));
  EXPECT_EQ(VisibleByEnvironment("1", 2), (V{1}));
  EXPECT_EQ(VisibleByEnvironment(" 1 , 0 ", 2), (V{1, 0}));
}

TEST(GpuVisibilityTest, CudaStopsReadingAtTheFirstInvalidEntry) {
  EXPECT_EQ(VisibleByEnvironment("", 2), V{});
  EXPECT_EQ(VisibleByEnvironment("-1", 2), V{});
  EXPECT_EQ(VisibleByEnvironment("0,7,1", 2), (V{0}));
  EXPECT_EQ(VisibleByEnvironment("1,x,0", 2), (V{1}));
  EXPECT_EQ(VisibleByEnvironment("0,0,1", 2), (V{0}));
  EXPECT_EQ(VisibleByEnvironment("0", 0), V{});
}

TEST(GpuVisibilityTest, VisibleDeviceListPicksAndOrders) {
  EXPECT_EQ(ParseVisibleDeviceList("", 3).value(), (V{0, 1, 2}));
  EXPECT_EQ(ParseVisibleDeviceList("", 0).value(), V{});
  EXPECT_EQ(ParseVisibleDeviceList("1", 2).value(), (V{1}));
  EXPECT_EQ(ParseVisibleDeviceList("2,0", 3).value(), (V{2, 0}));
}

// The messages of TensorFlow's ParseVisibleDeviceList (gpu_device.cc).
TEST(GpuVisibilityTest, BadVisibleDeviceListsFailInTensorFlowsWords) {
  struct Case {
    const char* list;
    int visible_count;
    const char* message;
  };
  const Case cases[] = {
      {"0,x", 2,
       "Could not parse entry in 'visible_device_list': 'x'. "
       "visible_device_list = 0,x"},
      {"0,,1", 2,
       "Could not parse entry in 'visible_device_list': ''. "
       "visible_device_list = 0,,1"},
      {"99999999999", 2,
       "Could not parse entry in 'visible_device_list': '99999999999'. "
       "visible_device_list = 99999999999"},
      {"2", 2,
       "'visible_device_list' listed an invalid GPU id '2' but visible device "
       "count is 2"},
      {"-1", 2,
       "'visible_device_list' listed an invalid GPU id '-1' but visible "
       "device count is 2"},
      {"0", 0,
       "'visible_device_list' listed an invalid GPU id '0' but visible device "
       "count is 0"},
      {"1,0,1", 2, "visible_device_list contained a duplicate entry: 1,0,1"},
  };
  for (const Case& c : cases) {
    StatusOr<V> r = ParseVisibleDeviceList(c.list, c.visible_count);
    EXPECT_EQ(r.status().ToString(),
              std::string("Invalid argument: ") + c.message);
  }
}

}  // namespace
}  // namespace minitf
