#include "executor_test_ops.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "minitf/graph/kernel.h"
#include "minitf/graph/node_builder.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/shape_inference.h"
#include "minitf/tensor/kernels/intra_op.h"

namespace minitf::testing {
namespace {

std::mutex block_mu;
std::condition_variable block_cv;
bool released = false;  // guarded by block_mu

MINITF_REGISTER_OP("DeviceTestFail")
    .Output("y: float")
    .SetShapeFn(shape_fns::ScalarShape);
class FailOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext*) override {
    return errors::InvalidArgument("this op always fails");
  }
};

MINITF_REGISTER_OP("DeviceTestMeet")
    .Input("x: float")
    .Output("y: float")
    .SetIsStateful()
    .SetShapeFn(shape_fns::ScalarShape);
class MeetOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    ++MeetCount();
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (MeetCount() < kMeetParties) {
      if (std::chrono::steady_clock::now() > deadline) {
        return errors::DeadlineExceeded("ran alone");
      }
      std::this_thread::yield();
    }
    ctx->set_output(0, Tensor(1.f));
    return Status::OK();
  }
};

MINITF_REGISTER_OP("DeviceTestBlock")
    .Input("x: float")
    .Output("y: float")
    .SetIsStateful()
    .SetShapeFn(shape_fns::ScalarShape);
class BlockOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    std::unique_lock<std::mutex> lock(block_mu);
    block_cv.wait(lock, [] { return released; });
    ctx->set_output(0, Tensor(1.f));
    return Status::OK();
  }
};

MINITF_REGISTER_OP("DeviceTestIntraOpThreads")
    .Input("x: float")
    .Output("y: int32")
    .SetIsStateful()
    .SetShapeFn(shape_fns::ScalarShape);
class IntraOpThreadsOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    // The pool's threads when a pool is named, else -1.
    Eigen::ThreadPoolInterface* pool = kernels::CurrentIntraOpPool();
    ctx->set_output(0, Tensor(pool != nullptr ? pool->NumThreads() : -1));
    return Status::OK();
  }
};

MINITF_REGISTER_KERNEL("DeviceTestFail", DEVICE_CPU, FailOp);
MINITF_REGISTER_KERNEL("DeviceTestFail", DEVICE_GPU, FailOp);
MINITF_REGISTER_KERNEL("DeviceTestMeet", DEVICE_CPU, MeetOp);
MINITF_REGISTER_KERNEL("DeviceTestMeet", DEVICE_GPU, MeetOp);
MINITF_REGISTER_KERNEL("DeviceTestBlock", DEVICE_CPU, BlockOp);
MINITF_REGISTER_KERNEL("DeviceTestBlock", DEVICE_GPU, BlockOp);
MINITF_REGISTER_KERNEL("DeviceTestIntraOpThreads", DEVICE_CPU,
                       IntraOpThreadsOp);
MINITF_REGISTER_KERNEL("DeviceTestIntraOpThreads", DEVICE_GPU,
                       IntraOpThreadsOp);

}  // namespace

std::atomic<int>& MeetCount() {
  static std::atomic<int> count{0};
  return count;
}

void Release() {
  std::lock_guard<std::mutex> lock(block_mu);
  released = true;
  block_cv.notify_all();
}

void ResetBlock() {
  std::lock_guard<std::mutex> lock(block_mu);
  released = false;
}

Output Fail(const std::string& name) {
  return ops::AddOp(NodeBuilder("DeviceTestFail", name), {});
}
// An op of `type` reading a constant of its own.
Output OnAConstant(const char* type, const std::string& name) {
  Output x = constant(0.f, name + "/x");
  return ops::AddOp(NodeBuilder(type, name).Input(x), {x});
}
Output Meet(const std::string& name) {
  return OnAConstant("DeviceTestMeet", name);
}
Output Block(const std::string& name) {
  return OnAConstant("DeviceTestBlock", name);
}
Output IntraOpThreads(const std::string& name) {
  return OnAConstant("DeviceTestIntraOpThreads", name);
}

}  // namespace minitf::testing
