// Exercise 04_apply_momentum: the update of the momentum optimizer.
//
// Plain gradient descent steps along the current gradient only, so in a
// long narrow valley it zigzags across and crawls along. Momentum keeps a
// velocity, the slot "accum" beside each variable, that sums the gradients
// with older ones decaying by a factor `momentum` per step: steps that agree
// add up and steps that alternate cancel. Nesterov's variant steps as if it
// had already moved by the momentum, which damps overshooting. This is the
// kernel of ApplyMomentum, the op tf.train.MomentumOptimizer builds:
//
//   accum = momentum * accum + grad
//   var  -= lr * accum                           (use_nesterov = false)
//   var  -= lr * (grad + momentum * accum)       (use_nesterov = true)
//
//   Tensor w(1.f), accum(0.f);                   // lr 0.1, momentum 0.9,
//   ApplyMomentum(&w, &accum, Tensor(0.1f), Tensor(1.f), Tensor(0.9f),
//                 false);                        // grad 1 every step:
//   // accum 1    1.9   2.71        (three calls)
//   // w     0.9  0.71  0.439
#pragma once

#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor.h"

namespace minitf::exercises {

/// One step of momentum on var and its accumulator, as the CPU kernel of
/// ApplyMomentum computes it, elementwise:
///
///   accum = accum * momentum + grad;
///   var -= accum * lr                           (use_nesterov false)
///   var -= grad * lr + accum * momentum * lr    (use_nesterov true; accum is
///                                                the one just updated)
///
/// REQUIRES: var and accum are initialized; accum, lr, grad and momentum
/// have var's dtype (the op's type attribute guarantees it in a graph). Both
/// var and accum are written in their own buffers, which every Tensor
/// sharing them sees. On error, nothing is written.
///
///   var:[...] accum:[same] lr:[] grad:[same] momentum:[]
///     -> var and accum updated in place
///
/// Errors (InvalidArgument), in this order, with the kernel's messages:
///  - "var and accum do not have the same shape[2] [3]";
///  - "var and grad do not have the same shape[2] [1,2]";
///  - "lr is not a scalar: [1]", then "momentum is not a scalar: [1]";
///  - "ApplyMomentum does not support int32" for a var that is neither
///    float32 nor float64.
Status ApplyMomentum(Tensor* var, Tensor* accum, const Tensor& lr,
                     const Tensor& grad, const Tensor& momentum,
                     bool use_nesterov);

}  // namespace minitf::exercises
