#include "minitf/distributed/training/replica_device_setter.h"

#include <algorithm>
#include <set>
#include <sstream>
#include <utility>

#include "minitf/device/placement/device_spec.h"
#include "minitf/tensor/errors.h"

namespace minitf::train {

RoundRobinStrategy::RoundRobinStrategy(int num_tasks)
    : num_tasks_(num_tasks), next_task_(std::make_shared<int>(0)) {
  if (num_tasks < 1) {
    throw errors::InvalidArgumentError(
        "RoundRobinStrategy needs at least one task, got num_tasks=" +
        std::to_string(num_tasks));
  }
}

int RoundRobinStrategy::operator()(const Node& /*op*/) const {
  const int task = *next_task_;
  *next_task_ = (task + 1) % num_tasks_;
  return task;
}

GreedyLoadBalancingStrategy::GreedyLoadBalancingStrategy(int num_tasks,
                                                         LoadFn load_fn)
    : load_fn_(std::move(load_fn)) {
  if (num_tasks < 1) {
    throw errors::InvalidArgumentError(
        "GreedyLoadBalancingStrategy needs at least one task, got "
        "num_tasks=" +
        std::to_string(num_tasks));
  }
  if (!load_fn_) {
    throw errors::InvalidArgumentError(
        "GreedyLoadBalancingStrategy needs a load_fn");
  }
  loads_ = std::make_shared<std::vector<double>>(num_tasks, 0.0);
}

// --8<-- [start:greedy]
int GreedyLoadBalancingStrategy::operator()(const Node& op) const {
  // std::min_element returns the first of equal loads, as numpy's argmin.
  const auto least = std::min_element(loads_->begin(), loads_->end());
  const double load = load_fn_(op);
  *least += load;
  return static_cast<int>(least - loads_->begin());
}
// --8<-- [end:greedy]

int64_t byte_size_load_fn(const Node& op) {
  if (op.num_outputs() != 1) {
    std::ostringstream text;
    // TensorFlow prints the op, as str(op): its NodeDef.
    text << "Op " << Operation(op.graph()->node(op.id()))
         << " must have a single output";
    throw errors::InvalidArgumentError(text.str());
  }
  TensorShape shape = op.output_shape(0);
  if (!shape.IsFullyDefined()) {
    // A scalar VariableV2 once had an unknown output shape when a device
    // function saw it, so TensorFlow reads the attr the shape came from.
    auto attr = op.attrs().find("shape");
    if (attr != op.attrs().end() && attr->second.holds<TensorShape>()) {
      shape = attr->second.get<TensorShape>();
    }
  }
  if (!shape.IsFullyDefined()) {
    throw errors::InvalidArgumentError("Shape " + PythonShapeString(shape) +
                                       " is not fully defined");
  }
  return shape.num_elements() * DataTypeSize(op.output_type(0));
}

namespace {

// TensorFlow's _ReplicaDeviceChooser: the settings, parsed once.
class ReplicaDeviceChooser {
 public:
  ReplicaDeviceChooser(int ps_tasks, const std::string& ps_device,
                       const std::string& worker_device, bool merge_devices,
                       std::set<std::string> ps_ops, PsStrategy ps_strategy)
      : ps_tasks_(ps_tasks),
        has_ps_device_(!ps_device.empty()),
        ps_device_(DeviceSpec::from_string(ps_device)),
        worker_device_(DeviceSpec::from_string(worker_device)),
        merge_devices_(merge_devices),
        ps_ops_(std::move(ps_ops)),
        ps_strategy_(std::move(ps_strategy)) {}

  // --8<-- [start:device_function]
  std::string DeviceFor(const Node& op) const {
    // Without merging, a device the op already asks for stands as it is.
    if (!merge_devices_ && !op.requested_device().empty()) {
      return op.requested_device();
    }
    const DeviceSpec current = DeviceSpec::from_string(op.requested_device());
    if (ps_tasks_ > 0 && has_ps_device_ && ps_ops_.count(op.type_string())) {
      DeviceSpec ps = ps_device_;
      // The strategy picks a task only where the task will be in the ps
      // job: an op that asks for another job keeps it (and its task).
      if (ps.job && (!current.job || current.job == ps.job)) {
        ps.task = PickTask(op);
      }
      return ps.make_merged_spec(current).to_string();
    }
    return worker_device_.make_merged_spec(current).to_string();
  }
  // --8<-- [end:device_function]

 private:
  int PickTask(const Node& op) const {
    const int task = ps_strategy_(op);
    if (task < 0) {
      throw errors::InvalidArgumentError(
          "ps_strategy chose task " + std::to_string(task) + " for op '" +
          op.name() + "'; a task index is not negative");
    }
    return task;
  }

  int ps_tasks_;
  bool has_ps_device_;
  DeviceSpec ps_device_;
  DeviceSpec worker_device_;
  bool merge_devices_;
  std::set<std::string> ps_ops_;
  PsStrategy ps_strategy_;
};

}  // namespace

DeviceFunction replica_device_setter(
    const ReplicaDeviceSetterOptions& options) {
  int ps_tasks = options.ps_tasks;
  if (options.cluster) {
    // The ps job's name is ps_device's job; a cluster without it, or a
    // ps_device naming none, has no ps tasks.
    const std::optional<std::string> ps_job =
        DeviceSpec::from_string(options.ps_device).job;
    const std::vector<std::string> jobs = options.cluster->jobs();
    if (!ps_job || std::find(jobs.begin(), jobs.end(), *ps_job) == jobs.end()) {
      return nullptr;
    }
    ps_tasks = options.cluster->num_tasks(*ps_job);
  }
  if (ps_tasks < 0) {
    throw errors::InvalidArgumentError("ps_tasks must not be negative, got " +
                                       std::to_string(ps_tasks));
  }
  if (ps_tasks == 0) return nullptr;

  std::set<std::string> ps_ops;
  if (options.ps_ops) {
    ps_ops.insert(options.ps_ops->begin(), options.ps_ops->end());
  } else {
    ps_ops.insert(STANDARD_PS_OPS.begin(), STANDARD_PS_OPS.end());
  }
  PsStrategy strategy = options.ps_strategy
                            ? options.ps_strategy
                            : PsStrategy(RoundRobinStrategy(ps_tasks));
  // One chooser behind every copy of the function, so copies share the
  // strategy's state as Python's references to one bound method do.
  auto chooser = std::make_shared<const ReplicaDeviceChooser>(
      ps_tasks, options.ps_device, options.worker_device, options.merge_devices,
      std::move(ps_ops), std::move(strategy));
  return [chooser](const Node& op) { return chooser->DeviceFor(op); };
}

}  // namespace minitf::train
