// Exercise 01_round_robin_ps: one answer.
#include "round_robin_ps.h"

#include <algorithm>
#include <memory>
#include <string>

#include "minitf/device/placement/device_spec.h"
#include "minitf/distributed/training/replica_device_setter.h"
#include "minitf/tensor/errors.h"

namespace minitf::exercises {

DeviceFunction RoundRobinReplicaSetter(int ps_tasks,
                                       const std::string& worker_device) {
  if (ps_tasks < 0) {
    throw errors::InvalidArgumentError("ps_tasks must not be negative, got " +
                                       std::to_string(ps_tasks));
  }
  if (ps_tasks == 0) return nullptr;
  const DeviceSpec worker = DeviceSpec::from_string(worker_device);
  // One counter for every copy of the function.
  auto next_task = std::make_shared<int>(0);
  return [ps_tasks, worker, next_task](const Node& op) {
    const DeviceSpec current = DeviceSpec::from_string(op.requested_device());
    const bool ps_op =
        std::find(train::STANDARD_PS_OPS.begin(), train::STANDARD_PS_OPS.end(),
                  op.type_string()) != train::STANDARD_PS_OPS.end();
    if (!ps_op) return worker.make_merged_spec(current).to_string();
    DeviceSpec ps;
    ps.job = "ps";
    if (!current.job || *current.job == "ps") {
      ps.task = *next_task;
      *next_task = (*next_task + 1) % ps_tasks;
    }
    return ps.make_merged_spec(current).to_string();
  };
}

}  // namespace minitf::exercises
