// Registrations ranked by priority (registration.h), through each registry
// of layer 2: a kernel, a shape function or a device merge registered above
// the library's priority 0 is what runs while it is there, and the library's
// runs again once it is removed.
#include "minitf/graph/registration.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "minitf/graph/kernel.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/ops/nn_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/graph/shape_inference.h"

namespace minitf {
namespace {

TEST(PrioritizedTest, TheHighestPriorityAnswersAndOnePriorityHoldsOneValue) {
  Prioritized<std::string> values;
  EXPECT_EQ(values.Best(), nullptr);
  ASSERT_TRUE(values.Add(0, "library").ok());
  ASSERT_TRUE(values.Add(2, "two").ok());
  ASSERT_TRUE(values.Add(1, "one").ok());
  EXPECT_EQ(*values.Best(), "two");
  Status taken = values.Add(2, "again");
  EXPECT_EQ(taken.code(), error::ALREADY_EXISTS);
  EXPECT_EQ(taken.message(), "priority 2 is taken");
  EXPECT_TRUE(values.Remove(2));
  EXPECT_EQ(*values.Best(), "one");
  EXPECT_FALSE(values.Remove(2));
}

// --- Kernels

// A wrong softmax on purpose, all zeros: the answer says whose it is.
class ZerosOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    Tensor out(ctx->input(0).dtype(), ctx->input(0).shape());
    for (int64_t i = 0; i < out.NumElements(); ++i) out.data<float>()[i] = 0;
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};

KernelFactory Zeros() {
  return
      [](const OpKernelConstruction& c) -> StatusOr<std::unique_ptr<OpKernel>> {
        return std::unique_ptr<OpKernel>(new ZerosOp(c));
      };
}

std::vector<float> Softmax() {
  Graph g;
  graph_scope use(g);
  auto y = nn::softmax(constant({0.f, 0.f}, {1, 2}, "x"));
  Session sess(SessionOptions{}, &g);
  Tensor t = sess.run(y);
  return std::vector<float>(t.data<float>(), t.data<float>() + 2);
}

TEST(KernelPriorityTest, AHigherPriorityKernelRunsUntilUnregistered) {
  KernelRegistry* registry = KernelRegistry::Global();
  ASSERT_EQ(Softmax(), (std::vector<float>{0.5f, 0.5f}));
  ASSERT_TRUE(registry->Register("Softmax", DEVICE_CPU, Zeros(), {}, 1).ok());
  EXPECT_EQ(Softmax(), (std::vector<float>{0.f, 0.f}));
  ASSERT_TRUE(registry->Unregister("Softmax", DEVICE_CPU, 1).ok());
  EXPECT_EQ(Softmax(), (std::vector<float>{0.5f, 0.5f}));
}

TEST(KernelPriorityTest, OnePriorityOfAPairHoldsOneKernel) {
  Status s = KernelRegistry::Global()->Register("Softmax", DEVICE_CPU, Zeros());
  EXPECT_EQ(s.code(), error::ALREADY_EXISTS);
  EXPECT_EQ(s.message(), "A kernel for 'Softmax' on CPU is already registered");
  KernelRegistry* registry = KernelRegistry::Global();
  ASSERT_TRUE(registry->Register("Softmax", DEVICE_CPU, Zeros(), {}, 3).ok());
  s = registry->Register("Softmax", DEVICE_CPU, Zeros(), {}, 3);
  EXPECT_EQ(s.message(),
            "A kernel for 'Softmax' on CPU with priority 3 is already "
            "registered");
  ASSERT_TRUE(registry->Unregister("Softmax", DEVICE_CPU, 3).ok());
  s = registry->Unregister("Softmax", DEVICE_CPU, 3);
  EXPECT_EQ(s.code(), error::NOT_FOUND);
  EXPECT_EQ(s.message(),
            "No kernel for 'Softmax' on CPU with priority 3 is registered");
}

TEST(KernelPriorityTest, AKernelWhoseDtypesExcludeTheNodeLeavesItToTheNext) {
  // The higher kernel admits only doubles: a float softmax runs the
  // library's kernel still, as TensorFlow picks the best kernel that
  // matches the node's attrs.
  KernelRegistry* registry = KernelRegistry::Global();
  ASSERT_TRUE(
      registry->Register("Softmax", DEVICE_CPU, Zeros(), {DT_DOUBLE}, 1).ok());
  EXPECT_EQ(Softmax(), (std::vector<float>{0.5f, 0.5f}));
  ASSERT_TRUE(registry->Unregister("Softmax", DEVICE_CPU, 1).ok());
}

TEST(KernelPriorityTest, ADeviceTypeWithAnAliasRunsTheHigherKernelToo) {
  KernelRegistry* registry = KernelRegistry::Global();
  ASSERT_TRUE(
      registry->RegisterAlias("Softmax", "PRIORITY_TEST", DEVICE_CPU).ok());
  Graph g;
  graph_scope use(g);
  Output y = nn::softmax(constant({0.f, 0.f}, {1, 2}, "x"));
  ASSERT_TRUE(registry->Register("Softmax", DEVICE_CPU, Zeros(), {}, 1).ok());
  auto kernel = registry->CreateKernel(*y.node(), "PRIORITY_TEST");
  ASSERT_TRUE(kernel.ok());
  EXPECT_NE(dynamic_cast<ZerosOp*>(kernel.value().get()), nullptr);
  ASSERT_TRUE(registry->Unregister("Softmax", DEVICE_CPU, 1).ok());
  kernel = registry->CreateKernel(*y.node(), "PRIORITY_TEST");
  ASSERT_TRUE(kernel.ok());
  EXPECT_EQ(dynamic_cast<ZerosOp*>(kernel.value().get()), nullptr);
}

// --- Shape functions

std::string ProductShape() {
  Graph g;
  graph_scope use(g);
  auto a = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3}, "a");
  auto b = constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {3, 2}, "b");
  return matmul(a, b).shape().DebugString();
}

// A wrong shape on purpose, the first input's: the answer says whose it is.
Status FirstInputsShape(InferenceContext* c) {
  c->set_output(0, c->input(0));
  return Status::OK();
}

TEST(ShapeFnPriorityTest, AHigherPriorityFunctionBuildsGraphsUntilRemoved) {
  OpRegistry* registry = OpRegistry::Global();
  ASSERT_EQ(ProductShape(), "[2,2]");
  ASSERT_TRUE(registry->RegisterShapeFn("MatMul", FirstInputsShape, 1).ok());
  EXPECT_EQ(ProductShape(), "[2,3]");
  ASSERT_TRUE(registry->UnregisterShapeFn("MatMul", 1).ok());
  EXPECT_EQ(ProductShape(), "[2,2]");
}

// The shape `def`'s shape function gives one [2,3] input.
std::string ShapeOfOneInput(const OpDef& def) {
  AttrMap attrs;
  InferenceContext c(&attrs, {TensorShape({2, 3})}, {DT_FLOAT}, {nullptr}, 1);
  EXPECT_TRUE(def.shape_fn(&c).ok());
  return c.output(0).DebugString();
}

TEST(ShapeFnPriorityTest, AFunctionRegisteredBeforeItsOpIsKept) {
  OpRegistry* registry = OpRegistry::Global();
  ASSERT_TRUE(registry
                  ->RegisterShapeFn(
                      "ShapeFnPriorityTestLate",
                      [](InferenceContext* c) {
                        c->set_output(0, TensorShape({}));
                        return Status::OK();
                      },
                      1)
                  .ok());
  ASSERT_TRUE(registry
                  ->Register(OpDefBuilder("ShapeFnPriorityTestLate")
                                 .Input("x: float")
                                 .Output("y: float")
                                 .SetShapeFn(shape_fns::UnchangedShape)
                                 .Finalize()
                                 .value())
                  .ok());
  const OpDef* def = registry->LookUp("ShapeFnPriorityTestLate").value();
  EXPECT_EQ(ShapeOfOneInput(*def), "[]");
  ASSERT_TRUE(registry->UnregisterShapeFn("ShapeFnPriorityTestLate", 1).ok());
  EXPECT_EQ(ShapeOfOneInput(*def), "[2,3]");
}

TEST(ShapeFnPriorityTest, TheOpDefsOwnFunctionIsPriorityZero) {
  OpRegistry* registry = OpRegistry::Global();
  Status s = registry->RegisterShapeFn("MatMul", FirstInputsShape, 0);
  EXPECT_EQ(s.code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(s.message(),
            "A shape function registered apart from op 'MatMul' needs a "
            "priority above 0 (its OpDef's own), not 0");
  s = registry->UnregisterShapeFn("MatMul", 0);
  EXPECT_EQ(s.code(), error::NOT_FOUND);
  EXPECT_EQ(ProductShape(), "[2,2]");
  ASSERT_TRUE(registry->RegisterShapeFn("MatMul", FirstInputsShape, 1).ok());
  s = registry->RegisterShapeFn("MatMul", FirstInputsShape, 1);
  EXPECT_EQ(s.code(), error::ALREADY_EXISTS);
  EXPECT_EQ(s.message(),
            "A shape function for 'MatMul' with priority 1 is already "
            "registered");
  ASSERT_TRUE(registry->UnregisterShapeFn("MatMul", 1).ok());
}

// --- The merge of device scopes

std::string RequestedInScope() {
  Graph g;
  graph_scope use(g);
  device_scope on("/cpu:0");
  return constant(Tensor(1.f), "c").node()->requested_device();
}

TEST(DeviceMergePriorityTest, AHigherPriorityMergeRunsUntilRemoved) {
  const std::string registered = RequestedInScope();
  // A merge that answers the same on purpose: the answer says whose it is.
  ASSERT_TRUE(
      RegisterDeviceMergeFunction(
          [](std::string_view, std::string_view) -> StatusOr<std::string> {
            return std::string("/job:mine");
          },
          7)
          .ok());
  EXPECT_EQ(RequestedInScope(), "/job:mine");
  Status s = RegisterDeviceMergeFunction(nullptr, 7);
  EXPECT_EQ(s.message(),
            "A device merge function with priority 7 is already registered");
  ASSERT_TRUE(UnregisterDeviceMergeFunction(7).ok());
  EXPECT_EQ(RequestedInScope(), registered);
  EXPECT_EQ(UnregisterDeviceMergeFunction(7).code(), error::NOT_FOUND);
}

}  // namespace
}  // namespace minitf
