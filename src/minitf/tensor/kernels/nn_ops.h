// Softmax and log-softmax, computed so that large logits do not overflow.
//
// softmax(x)_i = exp(x_i) / sum_j exp(x_j). Evaluated as written, exp(1000)
// is inf and the result NaN. Subtracting the row's maximum first changes
// nothing mathematically (the factor exp(-max) cancels) and keeps every
// exponent <= 0. log_softmax(x) = (x - max) - log(sum exp(x - max)).
//
//   kernels::Softmax(logits, -1);      // logits:[batch,classes] -> same shape
//   kernels::LogSoftmax(logits, -1);
#pragma once

#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor.h"

namespace minitf::kernels {

/// float or double, rank >= 1; `axis` (default last) may be negative.
StatusOr<Tensor> Softmax(const Tensor& logits, int axis = -1);
StatusOr<Tensor> LogSoftmax(const Tensor& logits, int axis = -1);

}  // namespace minitf::kernels
