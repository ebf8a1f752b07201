// Graph ops that autodiff needs and chapter 2 did not: StopGradient, the
// shape helper BroadcastGradientArgs, Pad (the gradient of Slice), ReluGrad
// (the gradient of Relu, built only by it), the fused softmax cross-entropy
// losses, and the ops TensorFlow's gradient functions build from: Tile,
// BroadcastTo, ExpandDims, Reciprocal, and the index arithmetic of
// reduced_shape (FloorMod, GatherV2, Range, DynamicStitch).
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

/// tf.tile: `input` repeated multiples[i] times along axis i.
/// x:[2,3] multiples [2,1] -> [4,3].
Output tile(Output input, Output multiples, const std::string& name = "");
/// tf.broadcast_to: `input` broadcast (NumPy rules) to `shape`.
Output broadcast_to(Output input, Output shape, const std::string& name = "");
/// tf.expand_dims: a dimension of 1 inserted at `axis` (negative counts from
/// the end of the result). x:[3] axis -1 -> [3,1].
Output expand_dims(Output input, int axis, const std::string& name = "");
/// tf.math.reciprocal (op "Reciprocal"): 1 / x, for float and double.
Output reciprocal(Output x, const std::string& name = "");
/// tf.math.floormod (op "FloorMod", the `%` of Python): x - floor(x / y) * y,
/// whose sign follows y's. Broadcasts.
Output floormod(Output x, Output y, const std::string& name = "");
/// tf.gather(params, indices, axis) (op "GatherV2"): the slices of params
/// along `axis` at `indices`. params:[5,3] indices:[2] axis 0 -> [2,3].
Output gather(Output params, Output indices, int axis = 0,
              const std::string& name = "");
/// tf.range(start, limit, delta) of int32: [start, start+delta, ...) below
/// limit; start and delta are made Consts "range/start", "range/delta".
Output range(int start, Output limit, int delta = 1,
             const std::string& name = "");
/// tf.dynamic_stitch: out[indices[i][j...]] = data[i][j...], the later
/// input winning a repeated index. indices: int32, data: one dtype.
Output dynamic_stitch(const std::vector<Output>& indices,
                      const std::vector<Output>& data,
                      const std::string& name = "");

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
