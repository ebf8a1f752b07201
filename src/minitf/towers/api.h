// The public API of layer 6 (multi-GPU towers), as included by
// <minitf/minitf.h>.
//
// TensorFlow 1.x's variable sharing, which a multi-GPU program builds its
// towers with (variable_sharing/): tf::variable_scope (reuse false, true or
// tf::AUTO_REUSE), tf::get_variable and its per-graph store, and the
// initializers get_variable takes (glorot_uniform by default);
// tf::average_gradients, the mean of the towers' gradients that one
// synchronous step applies; and the all-reduces that sum them on the
// devices instead (all_reduce.h, nccl_ops.h).
//
//   for (int i = 0; i < num_gpus; ++i) {
//     tf::device_scope on_gpu("/gpu:" + std::to_string(i));
//     tf::variable_scope model("model", /*reuse=*/i > 0);
//     auto w = tf::get_variable("w", {784, 10}, tf::zeros_initializer());
//     tower_grads.push_back(tf::gradients({Loss(x[i], w)}, {w.value()}));
//   }
//   tf::device_scope on_cpu("/cpu:0");
//   auto grads = tf::average_gradients(tower_grads);
#pragma once

#include "minitf/towers/all_reduce.h"
#include "minitf/towers/average_gradients.h"
#include "minitf/towers/nccl_ops.h"
#include "minitf/towers/variable_sharing/init_ops.h"
#include "minitf/towers/variable_sharing/variable_scope.h"
