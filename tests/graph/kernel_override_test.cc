// An exercise's override of a registered kernel (kernel_override.h): a
// session runs it while it is there, and the registered kernel again once it
// is removed.
#include "minitf/graph/kernel_override.h"

#include <gtest/gtest.h>

#include <vector>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/nn_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"

namespace minitf {
namespace {

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

std::vector<float> Softmax() {
  Graph g;
  graph_scope use(g);
  auto y = nn::softmax(constant({0.f, 0.f}, {1, 2}, "x"));
  Session sess(SessionOptions{}, &g);
  Tensor t = sess.run(y);
  return std::vector<float>(t.data<float>(), t.data<float>() + 2);
}

TEST(KernelOverrideTest, AnOverrideRunsUntilRemoved) {
  ASSERT_EQ(Softmax(), (std::vector<float>{0.5f, 0.5f}));
  OverrideKernelForExercise(
      "Softmax", DEVICE_CPU,
      [](const OpKernelConstruction& c) -> StatusOr<std::unique_ptr<OpKernel>> {
        return std::unique_ptr<OpKernel>(new ZerosOp(c));
      });
  EXPECT_EQ(Softmax(), (std::vector<float>{0.f, 0.f}));
  RemoveKernelOverrideForExercise("Softmax", DEVICE_CPU);
  EXPECT_EQ(Softmax(), (std::vector<float>{0.5f, 0.5f}));
}

TEST(KernelOverrideTest, AnOverrideOfAnUnregisteredPairAddsNoKernel) {
  OverrideKernelForExercise(
      "Softmax", "NoSuchDevice",
      [](const OpKernelConstruction& c) -> StatusOr<std::unique_ptr<OpKernel>> {
        return std::unique_ptr<OpKernel>(new ZerosOp(c));
      });
  EXPECT_FALSE(KernelRegistry::Global()->HasKernel("Softmax", "NoSuchDevice"));
  RemoveKernelOverrideForExercise("Softmax", "NoSuchDevice");
}

}  // namespace
}  // namespace minitf
