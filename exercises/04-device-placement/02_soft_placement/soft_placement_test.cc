// Tests of exercise 02_soft_placement. The starter returns Unimplemented, so
// every test fails on it; a correct PlaceNode gives the device tf::Place
// gives, or the same error, word for word.
#include "soft_placement.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../placement_testing.h"

namespace minitf::exercises {
namespace {

class SoftPlacementTest : public PlacementExerciseTest {
 protected:
  // TensorFlow's text for a request that no device of two GPUs satisfies.
  static std::string Missing(const std::string& request) {
    return "Invalid argument: {{node b}} was explicitly assigned to " +
           request + " but available devices are [ " + kCpu0 + ", " + kGpu0 +
           ", " + kGpu1 +
           " ]. Make sure the device specification refers to a valid "
           "device.";
  }

  // The device's name, or the error's text.
  std::string Place(const std::string& request,
                    const std::vector<std::string>& types, bool soft) {
    StatusOr<Device*> d = PlaceNode("b", request, types, set_, soft);
    return d.ok() ? (*d)->name() : d.status().ToString();
  }
};

TEST_F(SoftPlacementTest, ARequestThatFitsIsHonouredEitherWay) {
  UseGpus(2);
  for (bool soft : {false, true}) {
    EXPECT_EQ(Place("/device:GPU:1", kAny, soft), kGpu1);
    EXPECT_EQ(Place("/device:CPU:0", kAny, soft), kCpu0);
    EXPECT_EQ(Place("/job:localhost", kAny, soft), kGpu0);
    EXPECT_EQ(Place("/job:localhost", kCpu, soft), kCpu0);
    EXPECT_EQ(Place("/device:GPU:*", kAny, soft), kGpu0);
  }
}

TEST_F(SoftPlacementTest, AMissingDeviceIsAnErrorThatListsTheDevices) {
  UseGpus(2);
  EXPECT_EQ(Place("/device:GPU:2", kAny, false), Missing("/device:GPU:2"));
}

TEST_F(SoftPlacementTest, SoftPlacementTakesTheBestDeviceLeft) {
  UseGpus(2);
  EXPECT_EQ(Place("/device:GPU:2", kAny, true), kGpu0);
  EXPECT_EQ(Place("/device:GPU:2", kCpu, true), kCpu0);
  EXPECT_EQ(Place("/job:localhost/device:GPU:7", kAny, true), kGpu0);
  UseGpus(0);
  EXPECT_EQ(Place("/device:GPU:0", kAny, true), kCpu0);
}

TEST_F(SoftPlacementTest, AMissingKernelIsAnotherError) {
  UseGpus(2);
  // GPU:0 exists, but an int32 MatMul has no GPU kernel.
  EXPECT_EQ(Place("/device:GPU:0", kCpu, false),
            "Invalid argument: Could not satisfy explicit device "
            "specification '/device:GPU:0' because no supported kernel for "
            "GPU devices is available.");
  EXPECT_EQ(Place("/device:GPU:0", kCpu, true), kCpu0);
  // Without a type in the request, TensorFlow's text leaves the quote open.
  UseGpus(0);
  EXPECT_EQ(Place("/job:localhost", kGpu, false),
            "Invalid argument: Could not satisfy explicit device "
            "specification '/job:localhost");
}

TEST_F(SoftPlacementTest, SoftPlacementKeepsTheJob) {
  UseGpus(2);
  EXPECT_EQ(Place("/job:worker/device:GPU:0", kAny, true),
            Missing("/job:worker/device:GPU:0"));
}

TEST_F(SoftPlacementTest, AgreesWithTheLibrarysPlacer) {
  const std::vector<std::string> requests = {
      "/device:GPU:0",  "/device:GPU:1",    "/device:GPU:2",
      "/device:GPU:*",  "/device:CPU:0",    "/device:CPU:1",
      "/job:localhost", "/job:worker",      "/job:localhost/device:GPU:3",
      "/task:0",        "/replica:0/task:1"};
  for (int gpus : {0, 1, 2}) {
    UseGpus(gpus);
    for (Kind kind : {Kind::kAnyDevice, Kind::kCpuOnly, Kind::kGpuOnly}) {
      // Without GPUs a GPU-only op fails earlier in the library.
      if (gpus == 0 && kind == Kind::kGpuOnly) continue;
      for (const std::string& request : requests) {
        for (bool soft : {false, true}) {
          const std::string what = request + " " + OpFor(kind) + " " +
                                   std::to_string(gpus) + " GPUs" +
                                   (soft ? ", soft" : "");
          const auto want = LibraryPlacement({{"b", kind, request}},
                                             /*colocate=*/false, soft);
          const StatusOr<Device*> got =
              PlaceNode("b", request, TypesFor(kind), set_, soft);
          if (want.ok()) {
            ASSERT_TRUE(got.ok()) << what << ": " << got.status();
            EXPECT_EQ((*got)->name(), want->front()) << what;
            continue;
          }
          ASSERT_FALSE(got.ok())
              << what << ": the library says " << want.status();
          EXPECT_EQ(got.status().code(), error::INVALID_ARGUMENT) << what;
          // A request for a device that does not exist, without soft
          // placement, the library's placer refuses before it looks for
          // candidates, in the seed's TensorFlow 0.x words (chapter 4,
          // "When nothing fits"); PlaceNode gives TensorFlow 1.15's.
          const std::string& library = want.status().message();
          if (library.rfind("Cannot assign a device to node 'b': ", 0) == 0) {
            const std::string missing =
                "{{node b}} was explicitly assigned to " + request + " but ";
            EXPECT_EQ(got.status().message().substr(0, missing.size()), missing)
                << what << ": the library says " << library;
            continue;
          }
          // The library adds which operation, and the colocation group's
          // details after TensorFlow's sentence.
          const std::string prefix =
              "Cannot assign a device for operation b: " +
              got.status().message();
          EXPECT_EQ(want.status().message().substr(0, prefix.size()), prefix)
              << what;
        }
      }
    }
  }
}

}  // namespace
}  // namespace minitf::exercises
