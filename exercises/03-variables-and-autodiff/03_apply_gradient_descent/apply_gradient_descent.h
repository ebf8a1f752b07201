// Exercise 03_apply_gradient_descent: the update of gradient descent.
//
// An optimizer's training step ends in one update op per variable. For
// tf.train.GradientDescentOptimizer that op is ApplyGradientDescent, and its
// kernel is the whole of "learning": var -= alpha * delta, where alpha is the
// learning rate and delta the gradient tf::gradients computed. The kernel
// writes the variable's own buffer, so every later read of the variable sees
// the new value, and it checks its inputs first, because a gradient fed from
// outside may have any shape:
//
//   Tensor w({1.f, 2.f, 3.f});
//   ApplyGradientDescent(&w, Tensor(0.1f), Tensor({1.f, 1.f, 1.f}));
//   // w is now [0.9 1.9 2.9], in the same buffer as before
//   ApplyGradientDescent(&w, Tensor(0.1f), Tensor({1.f, 1.f}));
//   // InvalidArgument "var and delta do not have the same shape[3] [2]"
#pragma once

#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor.h"

namespace minitf::exercises {

/// var -= alpha * delta, elementwise, as the CPU kernel of
/// ApplyGradientDescent computes it.
///
/// REQUIRES: var is initialized; alpha and delta have var's dtype (the op's
/// type attribute guarantees it in a graph). The update is written into
/// var's own buffer: no new buffer, and every Tensor sharing it sees the new
/// values. On error, nothing is written.
///
///   var:[...] alpha:[] delta:[same as var] -> var updated in place
///
/// Errors (InvalidArgument), in this order, with the kernel's messages:
///  - "var and delta do not have the same shape[2,3] [3]";
///  - "alpha is not a scalar: [1]";
///  - "ApplyGradientDescent does not support int32" for a var that is
///    neither float32 nor float64.
Status ApplyGradientDescent(Tensor* var, const Tensor& alpha,
                            const Tensor& delta);

}  // namespace minitf::exercises
