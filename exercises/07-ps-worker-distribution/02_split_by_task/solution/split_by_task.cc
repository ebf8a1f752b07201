// Exercise 02_split_by_task: one answer.
#include "split_by_task.h"

#include <set>

#include "minitf/device/placement/device_spec.h"
#include "minitf/tensor/errors.h"
#include "minitf/tensor/status.h"

namespace minitf::exercises {

StatusOr<std::string> TaskOf(std::string_view device_name) {
  TF_ASSIGN_OR_RETURN(DeviceSpec spec, DeviceSpec::Parse(device_name));
  if (!spec.job || !spec.task) {
    return errors::InvalidArgument("Device name '", device_name,
                                   "' names no job and task");
  }
  return StrCat("/job:", *spec.job, "/replica:", spec.replica.value_or(0),
                "/task:", *spec.task);
}

StatusOr<TaskSplit> SplitByTask(const Graph& graph) {
  TaskSplit split;
  // The task of every node, by id, as the cut goes through the graph.
  std::map<int, std::string> task_of;
  for (const Node* n : graph.nodes()) {
    TF_ASSIGN_OR_RETURN(task_of[n->id()], TaskOf(n->assigned_device()));
    split.nodes[task_of[n->id()]].push_back(n->name());
  }
  // A set: one transfer per tensor and destination task, sorted.
  std::set<std::string> transfers;
  for (const Node* n : graph.nodes()) {
    const std::string& here = task_of[n->id()];
    for (const Output& in : n->inputs()) {
      if (task_of[in.node()->id()] != here) {
        transfers.insert(
            StrCat(in.node()->name(), ":", in.index(), " -> ", here));
      }
    }
    for (const Node* c : n->control_inputs()) {
      if (task_of[c->id()] != here) {
        transfers.insert(StrCat("^", c->name(), " -> ", here));
      }
    }
  }
  split.transfers.assign(transfers.begin(), transfers.end());
  return split;
}

}  // namespace minitf::exercises
