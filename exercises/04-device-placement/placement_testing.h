// Test helpers shared by the tests of chapter 4's placement exercises.
//
// Three ops with no input and one output, whose kernels exist on every device
// type, on the CPU only and on the GPU only, so that a test can build a
// colocation group of any mix; and a fixture with the devices of a local
// session with virtual GPUs. The library's placer is the reference: a test
// builds the same group as a graph and compares with tf::Place.
//
//   UseGpus(2);                       // CPU:0, GPU:0, GPU:1
//   auto devices = LibraryPlacement({{"w", Kind::kAnyDevice, ""},
//                                    {"w/s", Kind::kCpuOnly, ""}},
//                                   /*colocate=*/true, /*soft=*/false);
//   // {".../device:CPU:0", ".../device:CPU:0"}
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "minitf/device/devices/device_mgr.h"
#include "minitf/device/devices/device_set.h"
#include "minitf/device/placement/placer.h"
#include "minitf/graph/kernel.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/shape_inference.h"

namespace minitf::exercises {

inline const std::string kCpu0 = "/job:localhost/replica:0/task:0/device:CPU:0";
inline const std::string kGpu0 = "/job:localhost/replica:0/task:0/device:GPU:0";
inline const std::string kGpu1 = "/job:localhost/replica:0/task:0/device:GPU:1";

/// The supported types of a node with kernels everywhere, on the CPU only,
/// on the GPU only, best first.
inline const std::vector<std::string> kAny = {"GPU", "CPU"};
inline const std::vector<std::string> kCpu = {"CPU"};
inline const std::vector<std::string> kGpu = {"GPU"};

/// Which device types have a kernel for a test node.
enum class Kind { kAnyDevice, kCpuOnly, kGpuOnly };

inline const char* OpFor(Kind kind) {
  switch (kind) {
    case Kind::kAnyDevice:
      return "PlacementExerciseAnyDevice";
    case Kind::kCpuOnly:
      return "PlacementExerciseCpuOnly";
    case Kind::kGpuOnly:
      return "PlacementExerciseGpuOnly";
  }
  return "";
}

/// The types with a kernel for `kind`, best first, as the placer ranks them.
inline const std::vector<std::string>& TypesFor(Kind kind) {
  switch (kind) {
    case Kind::kAnyDevice:
      return kAny;
    case Kind::kCpuOnly:
      return kCpu;
    case Kind::kGpuOnly:
      return kGpu;
  }
  return kAny;
}

namespace internal {
class NothingOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext*) override { return Status::OK(); }
};
}  // namespace internal

MINITF_REGISTER_OP("PlacementExerciseAnyDevice")
    .Output("y: float")
    .SetShapeFn(shape_fns::ScalarShape);
MINITF_REGISTER_OP("PlacementExerciseCpuOnly")
    .Output("y: float")
    .SetShapeFn(shape_fns::ScalarShape);
MINITF_REGISTER_OP("PlacementExerciseGpuOnly")
    .Output("y: float")
    .SetShapeFn(shape_fns::ScalarShape);
MINITF_REGISTER_KERNEL("PlacementExerciseAnyDevice", DEVICE_CPU,
                       internal::NothingOp);
MINITF_REGISTER_KERNEL("PlacementExerciseAnyDevice", DEVICE_GPU,
                       internal::NothingOp);
MINITF_REGISTER_KERNEL("PlacementExerciseCpuOnly", DEVICE_CPU,
                       internal::NothingOp);
MINITF_REGISTER_KERNEL("PlacementExerciseGpuOnly", DEVICE_GPU,
                       internal::NothingOp);

/// The devices of a local session, and the library's placer as reference.
class PlacementExerciseTest : public ::testing::Test {
 protected:
  /// The device factories also read these two variables; a learner's shell
  /// may have set them, and the tests must see only the devices they ask for.
  PlacementExerciseTest() {
    unsetenv("MINITF_VIRTUAL_GPUS");
    unsetenv("CUDA_VISIBLE_DEVICES");
  }

  /// The devices of a local session with `gpus` virtual GPUs (CPU:0 first).
  void UseGpus(int gpus) {
    SessionOptions options;
    options.config.gpu_options.virtual_gpus = gpus;
    if (gpus == 0) options.config.device_count["GPU"] = 0;
    auto mgr = DeviceMgr::Create(options);
    ASSERT_TRUE(mgr.ok()) << mgr.status();
    mgr_ = std::move(mgr).value();
    set_ = DeviceSet();
    for (Device* d : mgr_->ListDevices()) set_.AddDevice(d);
    set_.set_client_device(mgr_->ListDevices()[0]);
  }

  /// One node of a test graph.
  struct TestNode {
    std::string name;
    Kind kind;
    std::string requested_device;
  };

  /// The library's answer: builds `nodes` as a graph of their own (with
  /// `colocate`, the later ones inside tf::colocate_with(the first one), as
  /// an Assign is built with its variable, each then given its own request),
  /// places it with tf::Place, and returns the device of every node, or the
  /// error.
  StatusOr<std::vector<std::string>> LibraryPlacement(
      const std::vector<TestNode>& nodes, bool colocate,
      bool allow_soft_placement) {
    Graph graph;
    graph_scope use(graph);
    std::vector<Node*> built;
    for (const TestNode& n : nodes) {
      Node* node;
      if (colocate && !built.empty()) {
        colocate_with in_group{Operation(built.front())};
        node = ops::AddNode(NodeBuilder(OpFor(n.kind), n.name), {});
      } else {
        node = ops::AddNode(NodeBuilder(OpFor(n.kind), n.name), {});
      }
      node->set_requested_device(n.requested_device);
      built.push_back(node);
    }
    TF_RETURN_IF_ERROR(
        Place(&graph, set_, {.allow_soft_placement = allow_soft_placement}));
    std::vector<std::string> devices;
    for (const Node* node : built) devices.push_back(node->assigned_device());
    return devices;
  }

  DeviceSet set_;
  std::unique_ptr<DeviceMgr> mgr_;
};

}  // namespace minitf::exercises
