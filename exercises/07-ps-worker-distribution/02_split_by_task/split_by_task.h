// Exercise 02_split_by_task: the master's cut of a placed graph.
//
// A session on a cluster places every node of the graph on a device of some
// task, "/job:ps/replica:0/task:0/device:CPU:0". The master then cuts the
// graph once per *task*, not per device (TensorFlow's SplitByWorker), and
// sends each task its part (RegisterGraph); the task cuts it again by device.
// Every edge between two tasks becomes a _Send in the producer's task and a
// _Recv in the consumer's, one per tensor and destination task, which the
// consumer's task fetches with RecvTensor. You write what that cut decides:
// which task each node goes to, and which tensors must cross.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "minitf/graph/graph.h"
#include "minitf/tensor/status.h"

namespace minitf::exercises {

/// The task part of a full device name: "/job:ps/replica:0/task:0" for
/// "/job:ps/replica:0/task:0/device:CPU:0". A name without a replica is on
/// replica 0 ("/job:ps/task:1/device:CPU:0" -> "/job:ps/replica:0/task:1").
/// Errors: DeviceSpec::Parse's for a malformed name; InvalidArgument
/// "Device name '/device:CPU:0' names no job and task" for a name without a
/// job or without a task (an empty name too).
StatusOr<std::string> TaskOf(std::string_view device_name);

/// What cutting a placed graph by task gives.
struct TaskSplit {
  /// Each task that has nodes -> the names of its nodes, in the graph's
  /// order (Graph::nodes()).
  std::map<std::string, std::vector<std::string>> nodes;
  /// Every transfer the cut needs, once per tensor and destination task,
  /// sorted: "W/read:0 -> /job:worker/replica:0/task:1" for a data edge
  /// from output 0 of W/read, "^init -> /job:ps/replica:0/task:0" for a
  /// control edge from init. An edge inside one task needs none.
  std::vector<std::string> transfers;
};

/// Splits `graph`, every node of which has an assigned device, by the task
/// of that device. Errors: TaskOf's, for the first node (in the graph's
/// order) whose assigned device it cannot read.
StatusOr<TaskSplit> SplitByTask(const Graph& graph);

}  // namespace minitf::exercises
