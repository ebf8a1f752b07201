// An exercise's override of the merge of nested device scopes
// (device_merge_override.h): nodes built in a device_scope request what it
// gives while it is there, and what the merge set last gives once it is
// removed.
#include "minitf/graph/device_merge_override.h"

#include <gtest/gtest.h>

#include <string>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/scope.h"

namespace minitf {
namespace {

std::string RequestedInScope() {
  Graph g;
  graph_scope use(g);
  device_scope on("/cpu:0");
  return constant(Tensor(1.f), "c").node()->requested_device();
}

TEST(DeviceMergeOverrideTest, AnOverrideMergesUntilRemoved) {
  const std::string registered = RequestedInScope();
  // A merge that answers the same on purpose: the answer says whose it is.
  OverrideDeviceMergeForExercise(
      [](std::string_view, std::string_view) -> StatusOr<std::string> {
        return std::string("/job:mine");
      });
  EXPECT_EQ(RequestedInScope(), "/job:mine");
  RemoveDeviceMergeOverrideForExercise();
  EXPECT_EQ(RequestedInScope(), registered);
}

}  // namespace
}  // namespace minitf
