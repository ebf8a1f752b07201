// Exercise 02_split_by_task: this is the file you edit.
//
// Read README.md in this folder, write TaskOf and SplitByTask, then check
// your work from the repository root:
//   python3 tools/learn.py check 7.2
#include "split_by_task.h"

#include "minitf/tensor/errors.h"

namespace minitf::exercises {

StatusOr<std::string> TaskOf(std::string_view device_name) {
  // ==== EXERCISE 02_split_by_task: replace this with your code ====
  // Parse the name (DeviceSpec::Parse), check its job and task, and build
  // "/job:<job>/replica:<replica or 0>/task:<task>".
  (void)device_name;
  return errors::Unimplemented("exercise 02_split_by_task: write TaskOf");
}

StatusOr<TaskSplit> SplitByTask(const Graph& graph) {
  // ==== EXERCISE 02_split_by_task: replace this with your code ====
  // One pass over graph.nodes(): the node's task into `nodes`; then each
  // input (and each control input) whose node is on another task is one
  // transfer to this node's task, counted once.
  (void)graph;
  return errors::Unimplemented("exercise 02_split_by_task: write SplitByTask");
}

}  // namespace minitf::exercises
