#include "minitf/device/executor/async_op_kernel.h"

#include "minitf/device/executor/notification.h"

namespace minitf {

Status AsyncOpKernel::Compute(OpKernelContext* ctx) {
  Notification finished;
  Status result;
  ComputeAsync(ctx, [&](const Status& s) {
    result = s;
    finished.Notify();
  });
  finished.WaitForNotification();
  return result;
}

}  // namespace minitf
