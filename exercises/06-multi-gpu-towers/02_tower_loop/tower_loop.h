// Exercise 02_tower_loop: one model, built once per GPU, with one set of
// variables.
//
// TensorFlow's cifar10 tutorial builds its towers like this:
//
//   with tf.variable_scope(tf.get_variable_scope()):
//     for i in range(num_gpus):
//       with tf.device('/gpu:%d' % i):
//         with tf.name_scope('tower_%d' % i) as scope:
//           loss = tower_loss(scope)
//           tf.get_variable_scope().reuse_variables()
//           grads = opt.compute_gradients(loss)
//           tower_grads.append(grads)
#pragma once

#include <functional>
#include <vector>

#include "minitf/graph/graph.h"

namespace minitf::exercises {

/// Builds `num_gpus` towers: tower i's ops on device "/gpu:i" in name scope
/// "tower_i", each built by `model()`, which makes its variables with
/// tf::get_variable (without a reuse of its own) and returns the tower's
/// loss. The first tower creates the variables; the others reuse them, so
/// the graph has one set. Returns, per tower, the gradients of its loss
/// with respect to tf::trainable_variables() (tf::gradients, in the
/// variables' order), built inside the tower's scopes.
///
/// When it returns, the variable scope is as it was: a get_variable after
/// BuildTowers creates new variables again. REQUIRES: num_gpus >= 1.
std::vector<std::vector<Output>> BuildTowers(
    int num_gpus, const std::function<Output()>& model);

}  // namespace minitf::exercises
