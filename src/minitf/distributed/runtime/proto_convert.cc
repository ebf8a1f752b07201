#include "minitf/distributed/runtime/proto_convert.h"

#include <map>
#include <set>

#include "minitf/device/placement/device_spec.h"
#include "minitf/tensor/errors.h"

namespace minitf {

proto::DeviceAttributes DeviceAttributesToProto(const DeviceAttributes& a) {
  proto::DeviceAttributes out;
  out.set_name(a.name);
  out.set_device_type(a.device_type);
  out.set_memory_limit(a.memory_limit);
  auto* locality = out.mutable_locality();
  locality->set_bus_id(a.locality.bus_id);
  locality->set_numa_node(a.locality.numa_node);
  if (a.locality.links) {
    auto* links = locality->mutable_links();
    for (const InterconnectLink& l : a.locality.links->link) {
      auto* link = links->add_link();
      link->set_device_id(l.device_id);
      link->set_type(l.type);
      link->set_strength(l.strength);
    }
  }
  out.set_incarnation(a.incarnation);
  out.set_physical_device_desc(a.physical_device_desc);
  return out;
}

StatusOr<DeviceAttributes> DeviceAttributesFromProto(
    const proto::DeviceAttributes& a) {
  StatusOr<DeviceSpec> spec = DeviceSpec::Parse(a.name());
  if (!spec.ok() || !spec->job || !spec->task || !spec->device_type ||
      !spec->device_index) {
    return errors::InvalidArgument("Not a full device name: '", a.name(), "'");
  }
  if (a.incarnation() == 0) {
    return errors::InvalidArgument("Device ", a.name(), " has no incarnation");
  }
  DeviceAttributes out;
  out.name = a.name();
  out.device_type = a.device_type();
  out.memory_limit = a.memory_limit();
  out.locality.bus_id = a.locality().bus_id();
  out.locality.numa_node = a.locality().numa_node();
  out.incarnation = a.incarnation();
  out.physical_device_desc = a.physical_device_desc();
  return out;
}

proto::ClusterDef ClusterSpecToProto(const train::ClusterSpec& cluster) {
  std::map<std::string, const train::JobTasks*> sorted;
  for (const auto& [name, tasks] : cluster.as_dict()) sorted[name] = &tasks;
  proto::ClusterDef def;
  for (const auto& [name, tasks] : sorted) {
    proto::JobDef* job = def.add_job();
    job->set_name(name);
    for (const auto& [index, address] : tasks->tasks()) {
      (*job->mutable_tasks())[index] = address;
    }
  }
  return def;
}

StatusOr<train::ClusterSpec> ClusterSpecFromProto(
    const proto::ClusterDef& def) {
  std::vector<std::pair<std::string, train::JobTasks>> jobs;
  std::set<std::string> seen;
  for (const proto::JobDef& job : def.job()) {
    if (!seen.insert(job.name()).second) {
      return errors::InvalidArgument(
          "Job ", train::internal::PyRepr(job.name()), " is given twice");
    }
    std::map<int, std::string> tasks(job.tasks().begin(), job.tasks().end());
    jobs.emplace_back(job.name(), train::JobTasks(tasks));
  }
  return train::ClusterSpec(std::move(jobs));
}

proto::ConfigProto ConfigProtoToProto(const ConfigProto& config) {
  proto::ConfigProto out;
  for (const auto& [type, count] : config.device_count) {
    (*out.mutable_device_count())[type] = count;
  }
  out.set_intra_op_parallelism_threads(config.intra_op_parallelism_threads);
  out.set_inter_op_parallelism_threads(config.inter_op_parallelism_threads);
  for (const std::string& filter : config.device_filters) {
    out.add_device_filters(filter);
  }
  auto* gpu = out.mutable_gpu_options();
  gpu->set_per_process_gpu_memory_fraction(
      config.gpu_options.per_process_gpu_memory_fraction);
  gpu->set_allow_growth(config.gpu_options.allow_growth);
  gpu->set_visible_device_list(config.gpu_options.visible_device_list);
  out.set_allow_soft_placement(config.allow_soft_placement);
  out.set_log_device_placement(config.log_device_placement);
  out.set_operation_timeout_in_ms(config.operation_timeout_in_ms);
  out.mutable_graph_options()->mutable_rewrite_options()->set_remapping(
      static_cast<proto::RewriterConfig::Toggle>(
          config.graph_options.rewrite_options.remapping));
  return out;
}

ConfigProto ConfigProtoFromProto(const proto::ConfigProto& config) {
  ConfigProto out;
  out.allow_soft_placement = config.allow_soft_placement();
  out.log_device_placement = config.log_device_placement();
  out.operation_timeout_in_ms = config.operation_timeout_in_ms();
  out.device_count.insert(config.device_count().begin(),
                          config.device_count().end());
  out.intra_op_parallelism_threads = config.intra_op_parallelism_threads();
  out.inter_op_parallelism_threads = config.inter_op_parallelism_threads();
  out.device_filters.assign(config.device_filters().begin(),
                            config.device_filters().end());
  out.gpu_options.visible_device_list =
      config.gpu_options().visible_device_list();
  out.gpu_options.allow_growth = config.gpu_options().allow_growth();
  out.gpu_options.per_process_gpu_memory_fraction =
      config.gpu_options().per_process_gpu_memory_fraction();
  // TensorFlow's other toggles (AGGRESSIVE, the MLIR ones) run the remapper
  // too; this engine has one remapper, so they read as ON.
  switch (config.graph_options().rewrite_options().remapping()) {
    case proto::RewriterConfig::DEFAULT:
      break;
    case proto::RewriterConfig::OFF:
      out.graph_options.rewrite_options.remapping = RewriterConfig::OFF;
      break;
    default:
      out.graph_options.rewrite_options.remapping = RewriterConfig::ON;
  }
  return out;
}

}  // namespace minitf
