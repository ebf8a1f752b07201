// NcclParticipant: one NcclAllReduce kernel's part in an all-reduce.
//
// The kernel on each GPU hands the manager (nccl_manager.h) its input, an
// output of the same shape in its device's memory, its GPU's streams and
// the callback that finishes the kernel; the manager runs the reduction
// over all of a collective's participants at once, on the host or with
// NCCL (nccl_communicators.h), and calls each back. The two sides share
// this struct and nothing else, so it stands alone.
//
//   tf::NcclParticipant p{.device = gpu0_name, .input = &x, .output = out,
//                         .gpu = gpu0_context, .done = finish};
//   tf::NcclManager::Get()->AddToAllReduce(key, 2, timeout_ms, std::move(p));
#pragma once

#include <functional>
#include <string>

#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor.h"

namespace minitf {

namespace gpu {
class GpuDeviceContext;
}  // namespace gpu

/// One NcclAllReduce kernel's part in a collective.
struct NcclParticipant {
  std::string device;             ///< The full name of the device it runs on.
  const Tensor* input = nullptr;  ///< Valid until `done` is called.
  Tensor output;                  ///< In the device's memory; input's shape.
  /// The GPU's streams; null on chapter 4's virtual GPUs, which have none.
  const gpu::GpuDeviceContext* gpu = nullptr;
  /// Called once: OK with `output` holding the sum, or the error.
  std::function<void(const Status&, const Tensor& output)> done;
};

}  // namespace minitf
