#include "minitf/device/placement/device_spec.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "minitf/tensor/errors.h"

namespace minitf {
namespace {

// The outputs of TensorFlow 1.15's tf.DeviceSpec.from_string(s).to_string().
TEST(DeviceSpecTest, EverySpellingPrintsInTensorFlowsCanonicalForm) {
  const std::pair<const char*, const char*> cases[] = {
      {"/cpu:0", "/device:CPU:0"},
      {"/CPU:0", "/device:CPU:0"},
      {"/gpu:1", "/device:GPU:1"},
      {"/GPU:1", "/device:GPU:1"},
      {"/device:cpu:0", "/device:CPU:0"},
      {"/device:GPU:1", "/device:GPU:1"},
      {"/job:ps/task:0", "/job:ps/task:0"},
      {"/job:worker/replica:0/task:1/device:GPU:0",
       "/job:worker/replica:0/task:1/device:GPU:0"},
      {"/job:worker/gpu:0", "/job:worker/device:GPU:0"},
      {"CPU:*", "/device:CPU:*"},
      {"/gpu:*", "/device:GPU:*"},
      {"gpu", "/device:GPU:*"},
      {"/device:GPU:*", "/device:GPU:*"},
      {"/device:XLA_GPU:0", "/device:XLA_GPU:0"},
      {"/", ""},
      {"", ""},
  };
  for (const auto& [spec, canonical] : cases) {
    EXPECT_EQ(DeviceSpec::from_string(spec).to_string(), canonical) << spec;
  }
}

TEST(DeviceSpecTest, ParsesFieldsAndLeavesStarsUnset) {
  DeviceSpec s = DeviceSpec::from_string("/job:worker/replica:2/task:1/gpu:3");
  EXPECT_EQ(s.job, "worker");
  EXPECT_EQ(s.replica, 2);
  EXPECT_EQ(s.task, 1);
  EXPECT_EQ(s.device_type, "GPU");
  EXPECT_EQ(s.device_index, 3);
  EXPECT_TRUE(s.IsFullySpecified());

  DeviceSpec any = DeviceSpec::from_string("/job:*/replica:*/task:*/gpu:*");
  EXPECT_FALSE(any.job.has_value());
  EXPECT_FALSE(any.replica.has_value());
  EXPECT_FALSE(any.task.has_value());
  EXPECT_EQ(any.device_type, "GPU");
  EXPECT_FALSE(any.device_index.has_value());
  EXPECT_TRUE(DeviceSpec::from_string("/").IsEmpty());
  // Leading zeros are read as a number, as int("01") and TensorFlow's C++
  // parser both read them.
  EXPECT_EQ(DeviceSpec::from_string("/gpu:01").device_index, 1);
}

TEST(DeviceSpecTest, MalformedSpecsAreInvalidArgumentInTensorFlowsWords) {
  for (const char* bad : {"/gpu:x",
                          "/gpu:-1",
                          "/gpu:+1",
                          "/gpu:",
                          "/gpu:0:1",
                          "/cpu:0/gpu:0",
                          "/device:GPU:0/gpu:1",
                          "/foo:0",
                          "/job:",
                          "/job:1ps",
                          "/job:ps-1",
                          "/replica:x",
                          "/task:",
                          "/task:0:0",
                          "/device:GPU:0:1",
                          " /gpu:0",
                          "/gpu:0 ",
                          "/device",
                          "/device:G-PU:0",
                          "/gpu:9999999999",
                          "job:ps:0",
                          "/cpu:0.5"}) {
    StatusOr<DeviceSpec> s = DeviceSpec::Parse(bad);
    EXPECT_EQ(
        s.status().ToString(),
        std::string("Invalid argument: Malformed device specification '") +
            bad + "'");
  }
}

TEST(DeviceSpecTest, FromStringThrowsTheTypedError) {
  try {
    DeviceSpec::from_string("/gpu:x");
    FAIL() << "no exception";
  } catch (const errors::InvalidArgumentError& e) {
    EXPECT_STREQ(e.what(), "Malformed device specification '/gpu:x'");
  }
}

TEST(DeviceSpecTest, AnIndexWithoutATypeIsNotPrinted) {
  DeviceSpec s{.job = "ps", .device_index = 3};
  EXPECT_EQ(s.to_string(), "/job:ps");
}

// The example of merge_device's docstring in TensorFlow's device.py.
TEST(DeviceSpecTest, MergesAsNestedDeviceScopesDo) {
  DeviceSpec d = DeviceSpec::from_string("/device:GPU:0");
  EXPECT_EQ(d.to_string(), "/device:GPU:0");
  d = DeviceSpec::from_string("/job:worker").make_merged_spec(d);
  EXPECT_EQ(d.to_string(), "/job:worker/device:GPU:0");
  d = d.make_merged_spec(DeviceSpec::from_string("/device:CPU:0"));
  EXPECT_EQ(d.to_string(), "/job:worker/device:CPU:0");
  d.merge_from(DeviceSpec::from_string("/job:ps"));
  EXPECT_EQ(d.to_string(), "/job:ps/device:CPU:0");
}

// The example of DeviceSpec's docstring: inner scopes take precedence.
TEST(DeviceSpecTest, InnerFieldsWin) {
  DeviceSpec train{.job = "train"};
  DeviceSpec gpu0{.job = "ps", .device_type = "GPU", .device_index = 0};
  DeviceSpec gpu1{.device_type = "GPU", .device_index = 1};
  EXPECT_EQ(train.make_merged_spec(gpu0).to_string(), "/job:ps/device:GPU:0");
  EXPECT_EQ(train.make_merged_spec(gpu1).to_string(),
            "/job:train/device:GPU:1");
}

TEST(DeviceSpecTest, MatchesTheDevicesThatSatisfyIt) {
  const DeviceSpec gpu1 =
      DeviceSpec::from_string("/job:localhost/replica:0/task:0/device:GPU:1");
  const DeviceSpec cpu0 =
      DeviceSpec::from_string("/job:localhost/replica:0/task:0/device:CPU:0");
  EXPECT_TRUE(DeviceSpec::from_string("/gpu:1").Matches(gpu1));
  EXPECT_TRUE(DeviceSpec::from_string("/device:GPU:*").Matches(gpu1));
  EXPECT_TRUE(DeviceSpec::from_string("/job:localhost").Matches(gpu1));
  EXPECT_TRUE(DeviceSpec::from_string("").Matches(gpu1));
  EXPECT_FALSE(DeviceSpec::from_string("/gpu:0").Matches(gpu1));
  EXPECT_FALSE(DeviceSpec::from_string("/gpu:1").Matches(cpu0));
  EXPECT_FALSE(DeviceSpec::from_string("/job:worker/gpu:1").Matches(gpu1));
  // A field the device leaves unset does not satisfy a spec that sets it.
  EXPECT_FALSE(DeviceSpec::from_string("/job:localhost")
                   .Matches(DeviceSpec::from_string("/device:GPU:1")));
}

TEST(DeviceSpecTest, FullAndLocalNames) {
  EXPECT_EQ(FullDeviceName("localhost", 0, 0, "GPU", 0),
            "/job:localhost/replica:0/task:0/device:GPU:0");
  EXPECT_EQ(LocalDeviceName("CPU", 1), "/device:CPU:1");
}

// DeviceNameUtils::MergeDevNames, used for colocation groups.
TEST(DeviceSpecTest, MergeDevNamesAddsCompatibleFields) {
  DeviceSpec target = DeviceSpec::from_string("/job:a");
  ASSERT_TRUE(MergeDevNames(&target, DeviceSpec::from_string("/gpu:0"),
                            /*allow_soft_placement=*/false)
                  .ok());
  EXPECT_EQ(target.to_string(), "/job:a/device:GPU:0");
}

TEST(DeviceSpecTest, MergeDevNamesReportsConflictsInTensorFlowsWords) {
  struct Case {
    const char* target;
    const char* other;
    bool soft;
    const char* expected;  // "OK <merged>", or the error's message
  };
  const Case cases[] = {
      {"/job:a", "/job:b", false,
       "Cannot merge devices with incompatible jobs: '/job:a' and '/job:b'"},
      {"/replica:0", "/replica:1", true,
       "Cannot merge devices with incompatible replicas: '/replica:0' and "
       "'/replica:1'"},
      {"/task:0", "/task:1", true,
       "Cannot merge devices with incompatible tasks: '/task:0' and "
       "'/task:1'"},
      {"/gpu:0", "/cpu:0", false,
       "Cannot merge devices with incompatible types: '/device:GPU:0' and "
       "'/device:CPU:0'"},
      {"/gpu:0", "/gpu:1", false,
       "Cannot merge devices with incompatible ids: '/device:GPU:0' and "
       "'/device:GPU:1'"},
      // The message shows the target as merged so far.
      {"/gpu:0", "/job:a/cpu:0", false,
       "Cannot merge devices with incompatible types: '/job:a/device:GPU:0' "
       "and '/job:a/device:CPU:0'"},
      // Soft placement drops what conflicts, leaving the choice to the placer.
      {"/job:a/gpu:0", "/cpu:0", true, "OK /job:a"},
      {"/gpu:0", "/gpu:1", true, "OK /device:GPU:*"},
  };
  for (const Case& c : cases) {
    DeviceSpec target = DeviceSpec::from_string(c.target);
    Status s = MergeDevNames(&target, DeviceSpec::from_string(c.other), c.soft);
    EXPECT_EQ(s.ok() ? "OK " + target.to_string() : s.message(), c.expected)
        << c.target << " + " << c.other;
  }
}

TEST(DeviceSpecTest, SameAddressSpaceNeedsJobReplicaAndTask) {
  auto spec = [](const char* s) { return DeviceSpec::from_string(s); };
  EXPECT_TRUE(IsSameAddressSpace(spec("/job:a/replica:0/task:0/gpu:0"),
                                 spec("/job:a/replica:0/task:0/cpu:0")));
  EXPECT_FALSE(IsSameAddressSpace(spec("/job:a/replica:0/task:0/gpu:0"),
                                  spec("/job:a/replica:0/task:1/gpu:0")));
  EXPECT_FALSE(IsSameAddressSpace(spec("/gpu:0"), spec("/cpu:0")));
}

}  // namespace
}  // namespace minitf
