// AsyncOpKernel: a kernel that finishes later, through a callback.
//
// Most kernels compute and return. A few must wait for something outside
// the executor: a _Recv waits for the matching _Send on another device, and
// chapter 5's GPU copies wait for a stream. If such a kernel blocked, it
// would hold an executor thread that other ops could use, and with few
// threads the step could deadlock (the thread that would run the _Send is the
// one waiting). So, as in TensorFlow, these kernels derive from
// AsyncOpKernel: ComputeAsync starts the work and returns; `done` is called,
// from whatever thread finishes it, once the outputs are set. The parallel
// executor (parallel_executor.h) calls ComputeAsync; an executor that runs
// one kernel at a time (chapter 2's) calls Compute, which waits.
//
//   class MyRecv : public tf::AsyncOpKernel {
//     using AsyncOpKernel::AsyncOpKernel;
//     void ComputeAsync(tf::OpKernelContext* ctx,
//                       tf::StatusCallback done) override {
//       StartWaiting([ctx, done](tf::Tensor t) { ctx->set_output(0, t);
//                                                done(tf::Status::OK()); });
//     }
//   };
#pragma once

#include "minitf/device/devices/device_context.h"
#include "minitf/graph/kernel.h"

namespace minitf {

/// A kernel whose Compute may finish after it returns.
///
/// Thread safety: as OpKernel; ComputeAsync may run for several steps at
/// once, and `done` may be called from any thread.
class AsyncOpKernel : public OpKernel {
 public:
  using OpKernel::OpKernel;

  /// Starts the computation and calls `done` exactly once when it is over,
  /// with the outputs set on success. `ctx` stays valid until `done` is
  /// called, and not after.
  virtual void ComputeAsync(OpKernelContext* ctx, StatusCallback done) = 0;

  /// ComputeAsync, waiting for `done`.
  Status Compute(OpKernelContext* ctx) final;
};

}  // namespace minitf
