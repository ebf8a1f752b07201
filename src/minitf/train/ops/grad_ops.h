// Graph ops that autodiff needs and chapter 2 did not: StopGradient, the
// shape helper BroadcastGradientArgs, Pad (the gradient of Slice), ReluGrad
// (the gradient of Relu, built only by it) and the fused softmax
// cross-entropy losses.
//
// BroadcastGradientArgs answers "which axes did broadcasting stretch?" for
// two shapes known only at run time, so a gradient can be summed back to its
// input's shape. The cross-entropy ops compute the loss and its gradient with
// respect to the logits in one numerically stable pass, as TensorFlow does.
//
//   auto y = tf::stop_gradient(x);                   // gradient stops here
//   auto loss = tf::reduce_mean(
//       tf::nn::softmax_cross_entropy_with_logits(labels, logits));
//   auto sparse = tf::nn::sparse_softmax_cross_entropy_with_logits(
//       class_ids, logits);                           // int32 labels [batch]
#pragma once

#include <string>
#include <vector>

#include "minitf/graph/graph.h"

namespace minitf {

/// tf.stop_gradient: the value of `input`, through which tf::gradients does
/// not pass. Shape: unchanged.
Output stop_gradient(Output input, const std::string& name = "");

/// tf.pad with constant zeros: paddings is an int32 [rank,2] tensor of
/// (before, after) counts. x:[d0..] -> [d0+before0+after0, ...].
Output pad(Output input, Output paddings, const std::string& name = "");

namespace nn {

/// The per-example cross-entropy -sum(labels * log_softmax(logits), -1).
/// labels, logits: [batch,classes] float or double -> [batch].
Output softmax_cross_entropy_with_logits(Output labels, Output logits,
                                         const std::string& name = "");

/// As above with class ids: labels [batch] int32 or int64 in [0,classes),
/// logits [batch,classes] -> [batch]. A label out of range fails the run
/// with InvalidArgument.
Output sparse_softmax_cross_entropy_with_logits(Output labels, Output logits,
                                                const std::string& name = "");

}  // namespace nn
}  // namespace minitf
