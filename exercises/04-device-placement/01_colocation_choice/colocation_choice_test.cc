// Tests of exercise 01_colocation_choice. The starter returns Unimplemented,
// so every test fails on it; a correct ChooseGroupDevice picks the device
// tf::Place gives the same group built as a graph.
#include "colocation_choice.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "../placement_testing.h"
#include "minitf/device/placement/placer.h"

namespace minitf::exercises {
namespace {

using ::testing::StartsWith;

class ColocationChoiceTest : public PlacementExerciseTest {
 protected:
  // The device's name, or the error's text.
  std::string Choose(const std::vector<GroupMember>& group) {
    StatusOr<Device*> d = ChooseGroupDevice(group, set_);
    return d.ok() ? (*d)->name() : d.status().ToString();
  }
};

TEST_F(ColocationChoiceTest, AMemberAloneGoesToTheBestDevice) {
  UseGpus(2);
  EXPECT_EQ(Choose({{"a", "", kAny}}), kGpu0);
  EXPECT_EQ(Choose({{"a", "", kCpu}}), kCpu0);
  EXPECT_EQ(Choose({{"a", "/device:GPU:1", kAny}}), kGpu1);
  UseGpus(0);
  EXPECT_EQ(Choose({{"a", "", kAny}}), kCpu0);
}

TEST_F(ColocationChoiceTest, TheRequestsOfAllMembersCount) {
  UseGpus(2);
  // The variable asks for the CPU, its Assign for nothing, its update for
  // the job: together, the CPU.
  EXPECT_EQ(Choose({{"w", "/device:CPU:0", kAny},
                    {"w/Assign", "", kAny},
                    {"w/ApplyAdam", "/job:localhost", kAny}}),
            kCpu0);
  // Partial requests add up: any GPU, and index 1.
  EXPECT_EQ(Choose({{"a", "/device:GPU:*", kAny},
                    {"b", "/job:localhost", kAny},
                    {"c", "/device:GPU:1", kAny}}),
            kGpu1);
}

TEST_F(ColocationChoiceTest, OneMemberWithoutAGpuKernelKeepsTheGroupOnTheCpu) {
  UseGpus(2);
  EXPECT_EQ(Choose({{"w", "", kAny}, {"w/summary", "", kCpu}}), kCpu0);
  EXPECT_EQ(Choose({{"w", "", kAny}, {"w/gpu_op", "", kGpu}}), kGpu0);
}

TEST_F(ColocationChoiceTest, ConflictingRequestsCannotBeColocated) {
  UseGpus(2);
  EXPECT_THAT(
      Choose({{"a", "/device:GPU:0", kAny}, {"b", "/device:CPU:0", kAny}}),
      StartsWith("Invalid argument: Cannot colocate nodes "
                 "{{colocation_node b}} and {{colocation_node a}}: "
                 "Cannot merge devices with incompatible types: '"));
  EXPECT_THAT(Choose({{"a", "/device:GPU:0", kAny},
                      {"b", "", kAny},
                      {"c", "/device:GPU:1", kAny}}),
              StartsWith("Invalid argument: Cannot colocate nodes "
                         "{{colocation_node c}} and {{colocation_node a}}: "
                         "Cannot merge devices with incompatible ids: '"));
}

TEST_F(ColocationChoiceTest, MembersWithoutACommonTypeCannotBeColocated) {
  UseGpus(2);
  EXPECT_EQ(Choose({{"a", "", kAny}, {"b", "", kGpu}, {"c", "", kCpu}}),
            "Invalid argument: Cannot colocate nodes {{colocation_node c}} "
            "and {{colocation_node a}} because no device type supports both "
            "of those nodes and the other nodes colocated with them.");
}

TEST_F(ColocationChoiceTest, ARequestNoDeviceSatisfiesIsAnError) {
  UseGpus(2);
  EXPECT_EQ(
      Choose({{"a", "/device:GPU:3", kAny}, {"b", "/job:localhost", kAny}}),
      "Invalid argument: Could not satisfy explicit device "
      "specification '/job:localhost/device:GPU:3'");
  // The CPU exists, but this group has no kernel for it.
  EXPECT_EQ(Choose({{"a", "/device:CPU:0", kGpu}}),
            "Invalid argument: Could not satisfy explicit device "
            "specification '/device:CPU:0'");
}

// "Cannot colocate nodes {{colocation_node X}} and {{colocation_node Y}}",
// the start of a colocation error.
std::string TwoTags(const std::string& message) {
  const size_t and_at = message.find(" and {{");
  if (and_at == std::string::npos) return message;
  return message.substr(0, message.find("}}", and_at) + 2);
}

TEST_F(ColocationChoiceTest, AgreesWithTheLibrarysPlacerOnRandomGroups) {
  const std::vector<std::string> requests = {"",
                                             "/device:GPU:0",
                                             "/device:GPU:1",
                                             "/device:CPU:0",
                                             "/device:GPU:*",
                                             "/job:localhost",
                                             "/job:localhost/device:CPU:0",
                                             "/device:GPU:3",
                                             "/job:worker"};
  std::mt19937 rng(4);
  for (int gpus : {0, 2}) {
    UseGpus(gpus);
    // Without GPUs an op with only a GPU kernel fails earlier in the library
    // ("No OpKernel was registered"), for a reason this exercise leaves out.
    std::vector<Kind> all_kinds = {Kind::kAnyDevice, Kind::kCpuOnly};
    if (gpus > 0) all_kinds.push_back(Kind::kGpuOnly);
    for (int trial = 0; trial < 300; ++trial) {
      const int n = 1 + static_cast<int>(rng() % 4);
      std::vector<GroupMember> group;
      std::vector<TestNode> nodes;
      std::string description;
      for (int i = 0; i < n; ++i) {
        const Kind kind = all_kinds[rng() % all_kinds.size()];
        // StrCat, not "m" + std::to_string(i): GCC 12 at -O3 warns falsely
        // (-Wrestrict, GCC bug 105329) on a literal + a temporary string.
        const std::string name = StrCat("m", i);
        const std::string& request = requests[rng() % requests.size()];
        group.push_back({name, request, TypesFor(kind)});
        nodes.push_back({name, kind, request});
        description += " " + name + "('" + request + "', " + OpFor(kind) + ")";
      }
      const auto want = LibraryPlacement(nodes, /*colocate=*/true,
                                         /*allow_soft_placement=*/false);
      const StatusOr<Device*> got = ChooseGroupDevice(group, set_);
      if (want.ok()) {
        ASSERT_TRUE(got.ok()) << description << ": " << got.status();
        EXPECT_EQ((*got)->name(), want->front()) << description;
      } else {
        ASSERT_FALSE(got.ok())
            << description << ": the library says " << want.status();
        EXPECT_EQ(got.status().code(), error::INVALID_ARGUMENT) << description;
        // Both fail at the same member: the texts name the same two.
        if (got.status().message().rfind("Cannot colocate", 0) == 0) {
          EXPECT_EQ(TwoTags(want.status().message()),
                    TwoTags(got.status().message()))
              << description;
        }
      }
    }
  }
}

}  // namespace
}  // namespace minitf::exercises
