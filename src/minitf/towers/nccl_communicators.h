// The NCCL side of the all-reduce, for real GPUs (built only with CUDA).
//
// NCCL reduces across GPUs through communicators, one per GPU of a group,
// made together by ncclCommInitAll for the GPUs of one process. Making them
// costs far more than a small all-reduce (it sets up the links between the
// GPUs), so they are made once per set of GPUs and kept for the process's
// lifetime, as TensorFlow's NcclManager keeps them. The all-reduce itself is
// one ncclAllReduce per GPU inside ncclGroupStart/ncclGroupEnd, each queued
// on that GPU's compute stream: after the kernels that made its input, and
// before those that read its output, with no wait on the host.
//
//   std::vector<tf::NcclParticipant> ps = ...;   // one per real GPU
//   TF_RETURN_IF_ERROR(tf::RunNcclAllReduce(ps));  // queued, not finished
#pragma once

#include <vector>

#include "minitf/tensor/status.h"
#include "minitf/towers/nccl_participant.h"

namespace minitf {

/// Queues the sum of the participants' inputs into their outputs, one
/// ncclAllReduce per participant on its GPU's compute stream. REQUIRES:
/// every participant is on a real GPU, each on a different one, with
/// inputs of one dtype and shape. Errors: Internal with NCCL's or CUDA's
/// error text; Unimplemented for a dtype NCCL does not take here.
Status RunNcclAllReduce(std::vector<NcclParticipant>& participants);

}  // namespace minitf
