// Task names: how the runtime names the tasks of a cluster.
//
// TensorFlow names a task "/job:ps/replica:0/task:0", which is also how
// every device name of that task begins
// ("/job:ps/replica:0/task:0/device:CPU:0"). The master cuts a graph by
// task with these names, the worker cache finds a task's address by them,
// and the RPC trace writes them.
//
//   std::string ps0 = TaskName("ps", 0);  // "/job:ps/replica:0/task:0"
//   TF_ASSIGN_OR_RETURN(std::string task,
//                       TaskOfDevice("/job:ps/replica:0/task:0/device:CPU:0"));
#pragma once

#include <string>
#include <string_view>

#include "minitf/tensor/status.h"

namespace minitf {

/// "/job:ps/replica:0/task:0".
std::string TaskName(std::string_view job, int task_index);
/// The task part of a full device name: "/job:ps/replica:0/task:0" for
/// "/job:ps/replica:0/task:0/device:CPU:0"; InvalidArgument when the name
/// has no job or task.
StatusOr<std::string> TaskOfDevice(std::string_view device_name);

}  // namespace minitf
