#include "minitf/distributed/runtime/task_name.h"

#include "minitf/device/placement/device_spec.h"
#include "minitf/tensor/errors.h"

namespace minitf {

std::string TaskName(std::string_view job, int task_index) {
  return StrCat("/job:", job, "/replica:0/task:", task_index);
}

StatusOr<std::string> TaskOfDevice(std::string_view device_name) {
  TF_ASSIGN_OR_RETURN(DeviceSpec spec, DeviceSpec::Parse(device_name));
  if (!spec.job || !spec.task) {
    return errors::InvalidArgument("Device name '", device_name,
                                   "' names no job and task");
  }
  return StrCat("/job:", *spec.job, "/replica:", spec.replica.value_or(0),
                "/task:", *spec.task);
}

}  // namespace minitf
