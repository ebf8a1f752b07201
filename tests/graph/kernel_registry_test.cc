#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "minitf/graph/kernel.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/scope.h"

namespace minitf {
namespace {

// A kernel that remembers which device type it was made for.
class DeviceTypeProbe : public OpKernel {
 public:
  explicit DeviceTypeProbe(const OpKernelConstruction& c)
      : OpKernel(c), device_type_(c.device_type()) {}
  Status Compute(OpKernelContext*) override { return Status::OK(); }
  const std::string device_type_;
};

// Makes DeviceTypeProbes.
StatusOr<std::unique_ptr<OpKernel>> MakeProbe(const OpKernelConstruction& c) {
  return std::unique_ptr<OpKernel>(new DeviceTypeProbe(c));
}

class KernelRegistryTest : public ::testing::Test {
 protected:
  Graph g_;
  graph_scope use_{g_};
  KernelRegistry registry_;  // a registry of the test's own
};

TEST_F(KernelRegistryTest, AnAliasRunsTheKernelItNames) {
  ASSERT_TRUE(registry_.Register("Identity", "CPU", MakeProbe).ok());
  // Registered before or after the kernel: resolved when looked up.
  ASSERT_TRUE(registry_.RegisterAlias("Identity", "ACCEL", "CPU").ok());
  Output id = identity(constant(1.f));
  EXPECT_TRUE(registry_.HasKernel("Identity", "ACCEL"));
  EXPECT_TRUE(registry_.HasKernelForNode(*id.node(), "ACCEL"));
  auto kernel = registry_.CreateKernel(*id.node(), "ACCEL");
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  // The kernel is told where it runs, not where it was registered.
  EXPECT_EQ(static_cast<DeviceTypeProbe*>(kernel.value().get())->device_type_,
            "ACCEL");
  EXPECT_EQ(registry_.DeviceTypesFor("Identity"),
            (std::vector<std::string>{"ACCEL", "CPU"}));
}

TEST_F(KernelRegistryTest, AnAliasToNothingIsNoKernel) {
  ASSERT_TRUE(registry_.RegisterAlias("Identity", "ACCEL", "CPU").ok());
  Output id = identity(constant(1.f));
  EXPECT_FALSE(registry_.HasKernel("Identity", "ACCEL"));
  EXPECT_EQ(registry_.DeviceTypesFor("Identity"), std::vector<std::string>{});
  auto kernel = registry_.CreateKernel(*id.node(), "ACCEL");
  EXPECT_EQ(kernel.status().message(),
            "No registered 'Identity' OpKernel for ACCEL devices compatible "
            "with node {{node Identity}}");
}

TEST_F(KernelRegistryTest, ADirectKernelTakesPrecedenceOverAnAlias) {
  ASSERT_TRUE(registry_.Register("Identity", "CPU", MakeProbe).ok());
  ASSERT_TRUE(
      registry_.RegisterAlias("Identity", "ACCEL", "CPU", {DT_INT32}).ok());
  ASSERT_TRUE(registry_.Register("Identity", "ACCEL", MakeProbe).ok());
  Output id = identity(constant(1.f));  // float: the alias would refuse it
  EXPECT_TRUE(registry_.HasKernelForNode(*id.node(), "ACCEL"));
  EXPECT_FALSE(registry_.IsAliased(*id.node(), "ACCEL"));
}

TEST_F(KernelRegistryTest, ANodeOnAnAliasSaysSo) {
  ASSERT_TRUE(registry_.Register("Identity", "CPU", MakeProbe).ok());
  ASSERT_TRUE(registry_.RegisterAlias("Identity", "ACCEL", "CPU").ok());
  Output id = identity(constant(1.f));
  EXPECT_TRUE(registry_.IsAliased(*id.node(), "ACCEL"));
  EXPECT_FALSE(registry_.IsAliased(*id.node(), "CPU"));
}

// A kernel registered with dtypes runs nodes of those dtypes only, as
// TensorFlow's TypeConstraint, and says so as an alias's constraint does.
TEST_F(KernelRegistryTest, AKernelCanBeLimitedToSomeDtypes) {
  ASSERT_TRUE(
      registry_.Register("Identity", "ACCEL", MakeProbe, {DT_FLOAT, DT_DOUBLE})
          .ok());
  Output f = identity(constant(1.f));
  Output i = identity(constant(1));
  EXPECT_TRUE(registry_.HasKernelForNode(*f.node(), "ACCEL"));
  EXPECT_FALSE(registry_.HasKernelForNode(*i.node(), "ACCEL"));
  EXPECT_EQ(registry_.CreateKernel(*i.node(), "ACCEL").status().message(),
            "No registered 'Identity' OpKernel for ACCEL devices compatible "
            "with node {{node Identity_1}}\n\t (OpKernel was found, but "
            "attributes didn't match) Requested Attributes: T=DT_INT32");
}

TEST_F(KernelRegistryTest, AnAliasCanBeLimitedToSomeDtypes) {
  ASSERT_TRUE(registry_.Register("Identity", "CPU", MakeProbe).ok());
  ASSERT_TRUE(
      registry_.RegisterAlias("Identity", "ACCEL", "CPU", {DT_FLOAT}).ok());
  Output f = identity(constant(1.f));
  Output i = identity(constant(1));
  EXPECT_TRUE(registry_.HasKernel("Identity", "ACCEL"));  // for some dtype
  EXPECT_TRUE(registry_.HasKernelForNode(*f.node(), "ACCEL"));
  EXPECT_FALSE(registry_.HasKernelForNode(*i.node(), "ACCEL"));
  auto kernel = registry_.CreateKernel(*i.node(), "ACCEL");
  ASSERT_FALSE(kernel.ok());
  EXPECT_EQ(kernel.status().code(), error::NOT_FOUND);
  EXPECT_EQ(kernel.status().message(),
            "No registered 'Identity' OpKernel for ACCEL devices compatible "
            "with node {{node Identity_1}}\n\t (OpKernel was found, but "
            "attributes didn't match) Requested Attributes: T=DT_INT32");
}

TEST_F(KernelRegistryTest, BadAliasesAreRefused) {
  EXPECT_EQ(registry_.RegisterAlias("Identity", "CPU", "CPU").code(),
            error::INVALID_ARGUMENT);
  ASSERT_TRUE(registry_.RegisterAlias("Identity", "ACCEL", "CPU").ok());
  Status again = registry_.RegisterAlias("Identity", "ACCEL", "CPU");
  EXPECT_EQ(again.code(), error::ALREADY_EXISTS);
  EXPECT_EQ(again.message(),
            "A kernel alias for 'Identity' on ACCEL is already registered");
}

}  // namespace
}  // namespace minitf
