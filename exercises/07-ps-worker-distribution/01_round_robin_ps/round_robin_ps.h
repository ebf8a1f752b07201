// Exercise 01_round_robin_ps: which ps task each variable goes to.
//
// Between-graph replication runs the same program in every worker, and every
// copy must put each variable on the same parameter-server task.
// tf.train.replica_device_setter(ps_tasks=3) does it with a device function:
// every op that holds state goes to /job:ps/task:k, k = 0, 1, 2, 0, ... in the
// order the ops are built, and everything else to the worker:
//
//   with tf.device(tf.train.replica_device_setter(ps_tasks=3)):
//     global_step = tf.Variable(0, name="global_step")  # /job:ps/task:0
//     w = tf.Variable(tf.zeros([784, 10]), name="w")     # /job:ps/task:1
//     y = tf.matmul(x, w)                                # /job:worker
#pragma once

#include <string>

#include "minitf/graph/graph.h"

namespace minitf::exercises {

/// tf.train.replica_device_setter(ps_tasks=ps_tasks,
/// worker_device=worker_device) with its default round-robin strategy: a
/// device function for tf::device_scope that returns, for each op built,
/// the device it requests.
///
/// - An op whose type is in train::STANDARD_PS_OPS (a "ps op") goes to the
///   job "ps". When the op's own requested device names no job, or names
///   the job "ps", it also takes the next task of the round robin: 0, 1,
///   ..., ps_tasks-1, 0, ... (so every such ps op advances it, a global
///   step as much as a weight). A ps op that asks for another job takes no
///   turn.
/// - Any other op goes to `worker_device` ("" for no device at all).
/// - In both cases the op's own requested device is then merged over the
///   choice, field by field, the op's fields winning
///   (DeviceSpec::make_merged_spec), and the result is returned as
///   DeviceSpec::to_string() writes it: "/job:ps/task:2/device:GPU:0".
///
/// Copies of the returned function share one round robin: two device_scopes
/// of the same function continue it.
///
/// ps_tasks == 0 returns an empty DeviceFunction (TensorFlow's None).
/// Throws InvalidArgumentError "ps_tasks must not be negative, got -2" for a
/// negative ps_tasks, and DeviceSpec's error for a malformed worker_device,
/// when called (not at the first op).
DeviceFunction RoundRobinReplicaSetter(int ps_tasks,
                                       const std::string& worker_device);

}  // namespace minitf::exercises
