// NCCL all-reduce as a graph op: tf.contrib.nccl's all_sum.
//
// nccl_all_sum(tensors) puts one NcclAllReduce node on each input's GPU,
// all with the attrs reduction "sum", num_devices N and one shared_name,
// "c<counter>" from a process-wide counter, as TensorFlow names them. The
// nodes know nothing of each other in the graph: their kernels meet at run
// time, by shared_name and step, in the NcclManager (nccl_manager.h), which
// reduces with NCCL on real GPUs and on the host on virtual and emulated
// ones. Every output must be evaluated in the same run, since each waits for
// all the others; one that waits longer than the session's
// ConfigProto::operation_timeout_in_ms (kDefaultNcclTimeoutMs when it is 0)
// fails with DeadlineExceeded.
//
//   std::vector<tf::Output> grads = {g0, g1};   // on /gpu:0 and /gpu:1
//   auto summed = tf::nccl_all_sum(grads);      // NcclAllReduce, _1
//   sess.run({summed[0], summed[1]});           // both, in one run
#pragma once

#include <vector>

#include "minitf/graph/graph.h"

namespace minitf {

/// tf.contrib.nccl.all_sum: output i, on the device of tensors[i], is the
/// sum of `tensors`. Throws InvalidArgumentError in TensorFlow's words for
/// an empty list ("Must pass >0 tensors to all reduce operations") and for a
/// tensor with no device ("Device assignment for tensor=Tensor(...)
/// required for nccl collective ops"); the kernel is GPU-only, so a tensor
/// on a CPU fails placement, as in TensorFlow.
std::vector<Output> nccl_all_sum(const std::vector<Output>& tensors);

}  // namespace minitf
