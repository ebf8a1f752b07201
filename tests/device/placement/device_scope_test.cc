// tf::device_scope once layer 4 is linked: the scopes of layer 2 merge field
// by field through the merge function DeviceSpec registers.
#include <gtest/gtest.h>

#include <string>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/tensor/errors.h"
#include "minitf/train/variables.h"

namespace minitf {
namespace {

class DeviceScopeTest : public ::testing::Test {
 protected:
  Graph g_;
  graph_scope use_{g_};
};

std::string DeviceOf(const Output& t) { return t.op().device(); }

TEST_F(DeviceScopeTest, AStringScopeGivesTheCanonicalSpec) {
  device_scope on("/cpu:0");
  EXPECT_EQ(DeviceOf(constant(1.f)), "/device:CPU:0");
}

TEST_F(DeviceScopeTest, NestedScopesMergeFieldByField) {
  device_scope worker("/job:worker");
  EXPECT_EQ(DeviceOf(constant(1.f)), "/job:worker");
  {
    device_scope gpu("/gpu:0");
    EXPECT_EQ(DeviceOf(constant(1.f)), "/job:worker/device:GPU:0");
    {
      device_scope cpu("/device:CPU:1");
      EXPECT_EQ(DeviceOf(constant(1.f)), "/job:worker/device:CPU:1");
      device_scope ps("/job:ps");
      EXPECT_EQ(DeviceOf(constant(1.f)), "/job:ps/device:CPU:1");
    }
  }
  EXPECT_EQ(DeviceOf(constant(1.f)), "/job:worker");
}

TEST_F(DeviceScopeTest, AMalformedScopeThrowsOnItsOwnLine) {
  device_scope gpu("/gpu:0");
  try {
    device_scope bad("/gpu:x");
    FAIL() << "no exception";
  } catch (const errors::InvalidArgumentError& e) {
    EXPECT_STREQ(e.what(), "Malformed device specification '/gpu:x'");
  }
  // The failed scope left nothing behind.
  EXPECT_EQ(DeviceOf(constant(1.f)), "/device:GPU:0");
}

TEST_F(DeviceScopeTest, ResetAndEmptyScopes) {
  device_scope gpu("/gpu:0");
  {
    device_scope none(nullptr);  // tf.device(None)
    EXPECT_EQ(DeviceOf(constant(1.f)), "");
  }
  {
    device_scope empty("");  // tf.device(""): changes nothing
    EXPECT_EQ(DeviceOf(constant(1.f)), "/device:GPU:0");
  }
}

TEST_F(DeviceScopeTest, ADeviceFunctionsResultMergesWithOuterScopes) {
  device_scope worker("/job:worker");
  device_scope fn([](const Node& node) {
    return node.type_string() == "MatMul" ? std::string("/gpu:0")
                                          : std::string("/cpu:0");
  });
  Output a = constant({1.f}, {1, 1});
  Output c = matmul(a, a);
  EXPECT_EQ(DeviceOf(a), "/job:worker/device:CPU:0");
  EXPECT_EQ(DeviceOf(c), "/job:worker/device:GPU:0");
}

// Seed 000 builds its variables under tf.device("/device:cpu:0").
TEST_F(DeviceScopeTest, SeedVariablesGoWhereTheScopeSays) {
  device_scope on("/device:cpu:0");
  Variable w(0.0f, "weight");
  EXPECT_EQ(w.op().device(), "/device:CPU:0");
  EXPECT_EQ(DeviceOf(w.value()), "/device:CPU:0");
}

}  // namespace
}  // namespace minitf
