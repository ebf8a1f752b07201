// Tests of exercise 03_device_spec_merge. The starter returns Unimplemented,
// so every test fails on it; a correct ScopedDevice gives the device that a
// node built inside the same tf::device_scope guards requests, or the same
// error, on TensorFlow's documented examples and on every stack of up to
// three scopes drawn from fifteen.
#include "device_spec_merge.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/tensor/errors.h"

namespace minitf::exercises {
namespace {

// The device, or the error's text.
std::string Device(const std::vector<DeviceScope>& scopes) {
  StatusOr<std::string> d = ScopedDevice(scopes);
  return d.ok() ? *d : d.status().ToString();
}

// The library's answer: a constant built inside `scopes`, entered in order
// as nested tf::device_scope guards; its requested device, or the text of
// the error the first malformed scope throws.
std::string LibraryDevice(const std::vector<DeviceScope>& scopes) {
  Graph graph;
  graph_scope use(graph);
  std::vector<std::unique_ptr<device_scope>> entered;
  try {
    for (const DeviceScope& scope : scopes) {
      entered.push_back(scope ? std::make_unique<device_scope>(*scope)
                              : std::make_unique<device_scope>(nullptr));
    }
  } catch (const errors::InvalidArgumentError& e) {
    return std::string("Invalid argument: ") + e.what();
  }
  return constant(1.f).op().device();
}

TEST(DeviceSpecMergeTest, OneScopeGivesItsCanonicalForm) {
  EXPECT_EQ(Device({}), "");
  EXPECT_EQ(Device({"/cpu:0"}), "/device:CPU:0");
  EXPECT_EQ(Device({"/device:cpu:0"}), "/device:CPU:0");
  EXPECT_EQ(Device({"gpu"}), "/device:GPU:*");
  EXPECT_EQ(Device({"/job:worker/replica:0/task:1/gpu:0"}),
            "/job:worker/replica:0/task:1/device:GPU:0");
}

// The example of merge_device's docstring in TensorFlow 1.x's device.py,
// one scope deeper at each line.
TEST(DeviceSpecMergeTest, TensorFlowsMergeDeviceExample) {
  EXPECT_EQ(Device({"/device:GPU:0"}), "/device:GPU:0");
  EXPECT_EQ(Device({"/device:GPU:0", "/job:worker"}),
            "/job:worker/device:GPU:0");
  EXPECT_EQ(Device({"/device:GPU:0", "/job:worker", "/device:CPU:0"}),
            "/job:worker/device:CPU:0");
  EXPECT_EQ(
      Device({"/device:GPU:0", "/job:worker", "/device:CPU:0", "/job:ps"}),
      "/job:ps/device:CPU:0");
}

// The example of tf.DeviceSpec's docstring: inner fields win, the others
// are inherited.
TEST(DeviceSpecMergeTest, InnerFieldsWinUnsetOnesAreInherited) {
  EXPECT_EQ(Device({"/job:train", "/job:ps/device:GPU:0"}),
            "/job:ps/device:GPU:0");
  EXPECT_EQ(Device({"/job:train", "/device:GPU:1"}), "/job:train/device:GPU:1");
  EXPECT_EQ(Device({"/job:worker", "/gpu:0"}), "/job:worker/device:GPU:0");
  EXPECT_EQ(Device({"/job:ps/task:1", "/device:CPU:*"}),
            "/job:ps/task:1/device:CPU:*");
  EXPECT_EQ(Device({"/job:worker/task:1", "/task:0"}), "/job:worker/task:0");
}

// "*" leaves a field unset, so it inherits: the type and the index are two
// fields, and "/cpu:*" inside "/gpu:1" asks for CPU 1.
TEST(DeviceSpecMergeTest, AStarInheritsTheOuterIndex) {
  EXPECT_EQ(Device({"/gpu:1", "/cpu:*"}), "/device:CPU:1");
  EXPECT_EQ(Device({"/gpu:1", "/cpu:0"}), "/device:CPU:0");
  EXPECT_EQ(Device({"/job:ps", "/job:*"}), "/job:ps");
}

// tf.device(None) hides the scopes around it; tf.device("") changes nothing.
TEST(DeviceSpecMergeTest, NoneResetsAndTheEmptyStringChangesNothing) {
  EXPECT_EQ(Device({"/device:GPU:0", std::nullopt}), "");
  EXPECT_EQ(Device({"/job:worker", std::nullopt, "/cpu:0"}), "/device:CPU:0");
  EXPECT_EQ(Device({"/device:GPU:0", ""}), "/device:GPU:0");
  EXPECT_EQ(Device({"", "/device:GPU:0", "/"}), "/device:GPU:0");
}

// tf.device checks its string when the scope is entered: the outermost
// malformed scope is the error, even one that a None inside hides.
TEST(DeviceSpecMergeTest, AMalformedScopeIsTheError) {
  EXPECT_EQ(Device({"/gpu:x"}),
            "Invalid argument: Malformed device specification '/gpu:x'");
  EXPECT_EQ(Device({"/gpu:0", "/job:ps-1", "/foo:0"}),
            "Invalid argument: Malformed device specification '/job:ps-1'");
  EXPECT_EQ(Device({"/cpu:0/gpu:0", std::nullopt}),
            "Invalid argument: Malformed device specification "
            "'/cpu:0/gpu:0'");
}

TEST(DeviceSpecMergeTest, AgreesWithNestedDeviceScopes) {
  const std::vector<DeviceScope> pool = {std::nullopt,
                                         "",
                                         "/cpu:0",
                                         "/gpu:1",
                                         "/device:CPU:*",
                                         "GPU",
                                         "/job:worker",
                                         "/job:ps/task:1",
                                         "/job:*",
                                         "/replica:2",
                                         "/task:3/cpu:0",
                                         "/job:worker/replica:0/task:1/gpu:0",
                                         "/job:localhost/device:GPU:*",
                                         "/task:*/gpu:2",
                                         "/gpu:x"};
  int compared = 0;
  int wrong = 0;
  std::vector<DeviceScope> scopes;
  // Every stack of up to three scopes from the pool, repeats included; the
  // first few differences are shown.
  auto each = [&](auto&& self, int depth) -> void {
    const std::string want = LibraryDevice(scopes);
    const std::string got = Device(scopes);
    ++compared;
    if (got != want && ++wrong <= 5) {
      std::string what;
      for (const DeviceScope& s : scopes)
        what += " [" + s.value_or("None") + "]";
      ADD_FAILURE() << "scopes, outermost first:" << what
                    << "\n  yours:   " << got << "\n  library: " << want;
    }
    if (depth == 3) return;
    for (const DeviceScope& s : pool) {
      scopes.push_back(s);
      self(self, depth + 1);
      scopes.pop_back();
    }
  };
  each(each, 0);
  EXPECT_EQ(wrong, 0) << "of " << compared << " stacks";
}

}  // namespace
}  // namespace minitf::exercises
