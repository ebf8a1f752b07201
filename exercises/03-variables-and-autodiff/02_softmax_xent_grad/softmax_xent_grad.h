// Exercise 02_softmax_xent_grad: the gradient of softmax cross-entropy.
//
// tf.nn.softmax_cross_entropy_with_logits(labels, logits) gives one loss per
// example, loss[b] = -sum_c labels[b,c] * log(softmax(logits[b])[c]). Its
// gradient with respect to the logits is remarkably simple,
// softmax(logits[b]) * sum_c labels[b,c] - labels[b,c], which is
// softmax - labels for labels that are a distribution (each row sums to 1).
// TensorFlow fuses the two: the op's kernel computes this gradient in the
// same pass as the loss, and the gradient function only scales row b by the
// gradient arriving for loss[b]. This is that computation, on tensors:
//
//   Tensor logits({{1.f, 2.f, 3.f}});            // [1,3]
//   Tensor labels({{0.f, 0.f, 1.f}});            // class 2
//   Tensor grad_loss({1.f});                     // d(total)/d(loss[0])
//   SoftmaxXentGrad(logits, labels, grad_loss);  // [[0.090 0.245 -0.335]]
//   // with logits {{1000.f, 0.f, -1000.f}}:        [[1 0 -1]], no NaN
#pragma once

#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor.h"

namespace minitf::exercises {

/// The gradient, with respect to the logits, of
/// sum_b grad_loss[b] * loss[b], where loss[b] is the softmax cross-entropy
/// of row b as tf.nn.softmax_cross_entropy_with_logits computes it:
///
///   result[b,c] = grad_loss[b] * (p[b,c] * sum_k labels[b,k] - labels[b,c])
///   p[b,:] = softmax(logits[b,:])
///
/// Every value is finite for any finite logits (1000 and -1000 included):
/// the softmax must subtract the row's maximum. Labels need not be one-hot,
/// nor sum to 1. The result is a new float32 tensor.
///
///   logits:[batch,classes] labels:[batch,classes] grad_loss:[batch]
///     -> [batch,classes]
///
/// Errors (InvalidArgument), checked in this order:
///  - "SoftmaxXentGrad needs float tensors, got int32": the dtype of the
///    first of logits, labels, grad_loss that is not float32;
///  - "logits and labels must be same size and 2-D: logits_size=[2,3]
///    labels_size=[2,4]" (the op's own message) when logits is not a matrix
///    or labels has another shape;
///  - "grad_loss must have one value per example: grad_loss_size=[3]
///    logits_size=[2,4]" unless grad_loss is [batch].
StatusOr<Tensor> SoftmaxXentGrad(const Tensor& logits, const Tensor& labels,
                                 const Tensor& grad_loss);

}  // namespace minitf::exercises
