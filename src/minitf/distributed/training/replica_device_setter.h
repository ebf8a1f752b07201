// replica_device_setter: which task each op of a replicated model asks for.
//
// Between-graph replication, TensorFlow 1.x's way of training on a cluster,
// runs the same program in every worker task. Each builds the whole model,
// and every copy must agree on where the shared state lives: the variables
// go to the parameter servers (the "ps" job), spread over its tasks, and
// everything else stays on the worker that built it. replica_device_setter
// says so once, as a device function (graph.h's DeviceFunction) for
// tf::device_scope. The graph calls it for every op built inside, innermost
// scope first (scope.h), and the placer and the partitioner later read the
// device it returned: a device function decides what a node *requests*, not
// where it runs.
//
// The rule, as TensorFlow's _ReplicaDeviceChooser: an op whose type is one
// of `ps_ops` (by default STANDARD_PS_OPS: the variables and the tables)
// goes to `ps_device` with the task a strategy picks, round-robin unless
// told otherwise; any other op goes to `worker_device`; and the device the
// op already asks for (from an inner scope) is merged over the chosen one,
// field by field, so that `/gpu:0` inside becomes `/job:ps/task:1/device:
// GPU:0`. An op that joins a variable's colocation group (its Assign, its
// read) gets the variable's device from colocate_with, not from here.
//
//   tf::train::ClusterSpec cluster({{"ps", {"ps0:2222", "ps1:2222"}},
//                                   {"worker", {"w0:2222", "w1:2222"}}});
//   tf::device_scope replicas(tf::train::replica_device_setter(
//       {.worker_device = "/job:worker/task:1", .cluster = cluster}));
//   tf::Variable w(tf::zeros({784, 10}), "w");  // "/job:ps/task:0"
//   tf::Variable b(tf::zeros({10}), "b");       // "/job:ps/task:1"
//   auto y = tf::matmul(x, w) + b;              // "/job:worker/task:1"
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "minitf/distributed/runtime/cluster_spec.h"
#include "minitf/graph/graph.h"

namespace minitf::train {

/// TensorFlow's STANDARD_PS_OPS (training/device_setter.py): the op types
/// that hold state a parameter server keeps. minitf builds only
/// "VariableV2" of them; the others are listed so that a graph read from
/// TensorFlow's GraphDef is split as TensorFlow would split it.
inline constexpr std::array<std::string_view, 14> STANDARD_PS_OPS = {
    "Variable",
    "VariableV2",
    "AutoReloadVariable",
    "MutableHashTable",
    "MutableHashTableV2",
    "MutableHashTableOfTensors",
    "MutableHashTableOfTensorsV2",
    "MutableDenseHashTable",
    "MutableDenseHashTableV2",
    "VarHandleOp",
    "BoostedTreesEnsembleResourceHandleOp",
    "BoostedTreesQuantileStreamResourceHandleOp",
    "ResourceConditionalAccumulator",
    "DecisionTreeResource"};

/// A ps strategy: given a ps op being built, the index of the ps task it
/// should go to. Called once per ps op whose requested job is the ps job or
/// unset (and, with merge_devices false, that requests no device at all),
/// in the order the ops are built.
using PsStrategy = std::function<int(const Node&)>;

/// A load function for GreedyLoadBalancingStrategy: any measure of what an
/// op costs its task, in units of the caller's choosing.
using LoadFn = std::function<double(const Node&)>;

/// The default strategy (TensorFlow's _RoundRobinStrategy): tasks 0, 1, ...,
/// num_tasks-1, 0, ... in turn, one per call, whatever the op.
///
/// Copies share one counter, as Python's references to one strategy object
/// do, so the copy kept by a caller and the one inside a device function
/// are the same strategy. Not thread-safe; a graph is built by one thread.
class RoundRobinStrategy {
 public:
  /// Throws InvalidArgumentError unless num_tasks >= 1.
  explicit RoundRobinStrategy(int num_tasks);
  /// The next task. `op` is not looked at.
  int operator()(const Node& op) const;

 private:
  int num_tasks_;
  std::shared_ptr<int> next_task_;
};

/// tf.contrib.training.GreedyLoadBalancingStrategy: each op goes to the
/// task with the least load so far (the lowest index among equals, as
/// numpy's argmin), which then carries load_fn(op) more. The result depends
/// on the order the ops are built in: it is greedy, not optimal.
///
/// Copies share their loads, as RoundRobinStrategy's copies share their
/// counter: a caller reads loads() after building the graph. Not
/// thread-safe.
class GreedyLoadBalancingStrategy {
 public:
  /// Throws InvalidArgumentError unless num_tasks >= 1 and load_fn is set.
  GreedyLoadBalancingStrategy(int num_tasks, LoadFn load_fn);
  /// The least-loaded task; adds load_fn(op) to it. An exception from
  /// load_fn leaves the loads as they were.
  int operator()(const Node& op) const;
  /// The load of each task so far.
  const std::vector<double>& loads() const { return *loads_; }

 private:
  LoadFn load_fn_;
  std::shared_ptr<std::vector<double>> loads_;
};

/// tf.contrib.training.byte_size_load_fn: the bytes of `op`'s one output,
/// its number of elements times its dtype's size; a VariableV2 of shape
/// [784, 10] and dtype float32 is 31360 bytes. The shape is the output's
/// inferred one or, when that is partial, the op's "shape" attr, as
/// TensorFlow falls back for scalar variables. Throws InvalidArgumentError
/// where TensorFlow raises ValueError, in its words: "Op <op> must have a
/// single output" (the op printed as `std::cout << Operation` prints it, its
/// NodeDef on one line) and "Shape (?, 784) is not fully defined".
int64_t byte_size_load_fn(const Node& op);

/// The arguments of tf.train.replica_device_setter, in its order, with its
/// defaults; designated initializers name the ones given:
/// replica_device_setter({.ps_tasks = 2}).
struct ReplicaDeviceSetterOptions {
  /// The number of ps tasks. Ignored when `cluster` is given.
  int ps_tasks = 0;
  /// Where ps ops go; its task, if any, is replaced by the strategy's
  /// choice whenever it names a job. "": no ps job, every op is a worker's.
  std::string ps_device = "/job:ps";
  /// Where every other op goes. "": nowhere in particular.
  std::string worker_device = "/job:worker";
  /// true: an op's own device is merged over the chosen one, field by
  /// field. false: an op that already asks for a device keeps it whole
  /// (and calls no strategy); TensorFlow calls this deprecated.
  bool merge_devices = true;
  /// When given, ps_tasks is the number of tasks of ps_device's job in it.
  std::optional<ClusterSpec> cluster = std::nullopt;
  /// The op types placed on ps tasks; std::nullopt: STANDARD_PS_OPS. An
  /// empty list places none.
  std::optional<std::vector<std::string>> ps_ops = std::nullopt;
  /// Picks the ps task of each ps op; nullptr: a RoundRobinStrategy over
  /// the ps tasks.
  PsStrategy ps_strategy = nullptr;
};

/// tf.compat.v1.train.replica_device_setter: the device function that
/// places ps ops on ps tasks and every other op on the worker, as the file
/// comment describes. Copies of the function returned share one chooser
/// and one strategy, so two device_scopes of the same function continue
/// one round robin.
///
/// With no ps tasks (ps_tasks == 0 and no cluster; or a cluster without
/// ps_device's job, or ps_device naming no job) TensorFlow returns None,
/// and this returns an empty DeviceFunction (operator bool is false).
/// device_scope takes an empty function as tf.device takes None: ops
/// built inside request no device from the scopes around it.
///
/// Throws InvalidArgumentError for a negative ps_tasks (TensorFlow, by
/// Python's modulo, would hand out task -1) and, in DeviceSpec's words, for
/// a malformed ps_device or worker_device, here rather than at the first op
/// as TensorFlow does. The function it returns throws InvalidArgumentError
/// when a strategy picks a negative task, and passes on what a strategy
/// throws; the op stays in the graph, as in TensorFlow. TensorFlow's
/// TypeErrors (a cluster or a strategy of the wrong type) cannot happen in
/// C++; nor does its deprecation warning for merge_devices=false print, as
/// minitf has no logging of its own.
DeviceFunction replica_device_setter(
    const ReplicaDeviceSetterOptions& options = {});

}  // namespace minitf::train
