// Exercise 01_average_gradients: where the towers meet.
//
// Each tower of a multi-GPU program computes the gradients of its own loss
// with respect to the variables all towers share. One synchronous step
// applies, for each variable, the mean of the towers' gradients. TensorFlow's
// cifar10 tutorial builds that mean in three ops per variable, on /cpu:0:
//
//   for grad_and_vars in zip(*tower_grads):
//     grads = [tf.expand_dims(g, 0) for g in grad_and_vars]   # [1,S] each
//     grad = tf.concat(axis=0, values=grads)                  # [N,S]
//     grad = tf.reduce_mean(grad, 0)                          # [S]
#pragma once

#include <vector>

#include "minitf/graph/graph.h"

namespace minitf::exercises {

/// tower_grads[t][v]: tower t's gradient of variable v; every tower lists
/// the same variables in the same order. Returns one Output per variable v,
/// the mean over the towers of tower_grads[t][v], built as the tutorial
/// builds it: an ExpandDims of each gradient on axis 0, one ConcatV2 of them
/// on axis 0, one Mean over axis 0, in the current scopes.
///
/// Throws InvalidArgumentError for no towers ("average_gradients: no
/// towers"), for towers with different numbers of gradients
/// ("average_gradients: tower 1 has 1 gradient(s), tower 0 has 2"), and for
/// an invalid Output (TensorFlow's None: "Tried to convert 'input' to a
/// tensor and failed. Error: None values not supported.").
std::vector<Output> AverageGradients(
    const std::vector<std::vector<Output>>& tower_grads);

}  // namespace minitf::exercises
