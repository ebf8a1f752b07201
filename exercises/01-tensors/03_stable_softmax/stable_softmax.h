// Exercise 03_stable_softmax: softmax that survives large logits.
//
// softmax turns a row of scores (logits) into probabilities:
// p_j = exp(x_j) / sum_k exp(x_k). Written that way it breaks in float32,
// where exp overflows to inf above about 88.7 and underflows to 0 below about
// -103: logits of 1000 give inf / inf and logits of -1000 give 0 / 0, both NaN.
// Subtracting the row's maximum m first changes nothing mathematically (the
// factor exp(-m) cancels) and keeps every exponent <= 0, with one exponent
// exactly 0, so the sum is at least 1 and nothing overflows.
//
//   Tensor logits({{1.f, 2.f, 3.f}, {1000.f, 1000.f, 1000.f}});   // [2,3]
//   StatusOr<Tensor> p = StableSoftmax(logits);                   // [2,3]
//   // row 0: 0.090 0.245 0.665    row 1: 0.333 0.333 0.333
#pragma once

#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor.h"

namespace minitf::exercises {

/// The softmax of each row of a float32 matrix, as tf.nn.softmax: every row
/// of the result is non-negative and sums to 1, for any finite logits. A -inf
/// logit gets probability 0; a row holding NaN or +inf, or only -infs, is
/// NaN throughout, as TensorFlow's.
/// The result has its own buffer.
///
///   logits:[batch,classes] -> [batch,classes]
///
/// Errors (InvalidArgument), checked in this order: "StableSoftmax needs a
/// float tensor, got int32" for any other dtype; "logits must be
/// 2-dimensional, got shape [3]" for any other rank.
StatusOr<Tensor> StableSoftmax(const Tensor& logits);

}  // namespace minitf::exercises
