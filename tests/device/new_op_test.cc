// A new op, end to end: the path the contributors' page walks
// (docs/contributing.md quotes this file). "Cube", y = x³, gets an OpDef
// with its shape function, the function a program calls, a CPU kernel, a
// gradient, and the alias that lets a virtual GPU run its CPU kernel. The
// tests run it on the CPU and on a virtual GPU, and check its gradient
// against finite differences.
#include <gtest/gtest.h>

#include <string>

#include "device_test_util.h"
#include "minitf/graph/kernel.h"
#include "minitf/graph/op_def.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/graph/shape_inference.h"
#include "minitf/train/gradients/gradient_checker.h"
#include "minitf/train/gradients/gradients.h"

namespace minitf {
namespace {

// --8<-- [start:op]
// What Cube takes and gives: a tensor of a real type T, and one of the same
// type and shape.
MINITF_REGISTER_OP("Cube")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {float, double}")
    .SetShapeFn(shape_fns::UnchangedShape);

// tf.cube(x): the function a program calls. It adds one node; its errors
// (an input of another graph, a dtype the OpDef refuses) are thrown typed.
Output cube(Output x, const std::string& name = "") {
  return ops::AddOp(NodeBuilder("Cube", name).Input(x), {x});
}
// --8<-- [end:op]

// --8<-- [start:kernel]
// The CPU kernel. It allocates its output from the allocator of the device
// it runs on (a virtual GPU's memory is its own), then computes.
class CubeOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    TF_ASSIGN_OR_RETURN(
        Tensor y, Tensor::Allocate(x.dtype(), x.shape(), ctx->allocator()));
    if (x.dtype() == DT_FLOAT) {
      Cube(x.data<float>(), y.data<float>(), x.NumElements());
    } else {
      Cube(x.data<double>(), y.data<double>(), x.NumElements());
    }
    ctx->set_output(0, std::move(y));
    return Status::OK();
  }

 private:
  template <typename T>
  static void Cube(const T* x, T* y, int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] = x[i] * x[i] * x[i];
  }
};
MINITF_REGISTER_KERNEL("Cube", DEVICE_CPU, CubeOp);
// --8<-- [end:kernel]

// --8<-- [start:gradient]
// d(x³)/dx = 3x²: the gradient is built of existing ops, so it runs
// wherever they do, and has a gradient of its own.
std::vector<Output> CubeGrad(const Operation& op,
                             const std::vector<Output>& grads) {
  return {grads[0] * (3.0 * square(op.input(0)))};
}
MINITF_REGISTER_GRADIENT("Cube", CubeGrad);
// --8<-- [end:gradient]

// --8<-- [start:virtual_gpu]
// A virtual GPU runs Cube with its CPU kernel. The engine's own ops that
// TensorFlow has GPU kernels for are listed in
// src/minitf/device/devices/virtual_gpu_kernels.cc instead; a GPU kernel of
// chapter 5 (MINITF_REGISTER_GPU_KERNEL) takes precedence over the alias.
MINITF_REGISTER_KERNEL_ALIAS("Cube", DEVICE_GPU, DEVICE_CPU);
// --8<-- [end:virtual_gpu]

std::string Values(const Tensor& t) {
  std::string s;
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    s += std::to_string(static_cast<int>(t.data<float>()[i])) + " ";
  }
  return s;
}

class NewOpTest : public testing::CleanDeviceEnvironment {
 protected:
  Graph graph_;
  graph_scope use_{graph_};
};

// --8<-- [start:test]
TEST_F(NewOpTest, CubeRunsOnTheCpu) {
  Output y = cube(constant({1.f, 2.f, 3.f}, {3}, "x"));
  EXPECT_EQ(y.shape().DebugString(), "[3]");
  Session sess(SessionOptions{}, &graph_);
  EXPECT_EQ(Values(sess.run(y)), "1 8 27 ");
}

TEST_F(NewOpTest, CubesGradientMatchesFiniteDifferences) {
  Output x = placeholder(DT_DOUBLE, {3}, "x");
  Output y = cube(x);
  EXPECT_LT(test::compute_gradient_error(x, Tensor({-1.5, 0.5, 2.0}), y), 1e-6);
}

TEST_F(NewOpTest, CubeRunsOnAVirtualGpu) {
  Output y;
  {
    device_scope on_gpu("/gpu:0");
    y = cube(constant({1.f, 2.f, 3.f}, {3}, "x"), "y");
  }
  SessionOptions options;
  options.config = testing::VirtualGpus(1);
  options.config.log_device_placement = true;
  ::testing::internal::CaptureStdout();
  Session sess(options, &graph_);
  EXPECT_EQ(Values(sess.run(y)), "1 8 27 ");
  EXPECT_NE(::testing::internal::GetCapturedStdout().find(
                "y: (Cube): /job:localhost/replica:0/task:0/device:GPU:0\n"),
            std::string::npos);
}
// --8<-- [end:test]

TEST_F(NewOpTest, AnIntegerInputIsRefusedByTheOpDef) {
  EXPECT_THROW(cube(constant({1, 2}, {2}, "ints")),
               errors::InvalidArgumentError);
}

}  // namespace
}  // namespace minitf
