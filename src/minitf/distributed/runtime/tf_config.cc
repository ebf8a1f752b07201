#include "minitf/distributed/runtime/tf_config.h"

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>

#include "minitf/tensor/errors.h"

namespace minitf::train {
namespace {

using google::protobuf::Struct;
using google::protobuf::Value;

[[noreturn]] void Fail(const std::string& message) {
  throw errors::InvalidArgumentError(message);
}

// A JSON number as Python prints it: 1, not 1.000000.
std::string NumberText(double x) {
  std::ostringstream os;
  if (std::floor(x) == x && std::abs(x) < 1e15) {
    os << static_cast<long long>(x);
  } else {
    os << x;
  }
  return os.str();
}

// Python's int() of a JSON value, as TensorFlow applies it to a sparse job's
// keys and to the task index.
int ToInt(const Value& v) {
  if (v.kind_case() == Value::kNumberValue) {
    // Python's int() has no bound; a task index here is an int, and a
    // double outside its range has no int to convert to.
    const double x = v.number_value();
    if (!(x > std::numeric_limits<int>::min() - 1.0 &&
          x < std::numeric_limits<int>::max() + 1.0)) {
      Fail("int() of " + NumberText(x) +
           " is out of the range of a task index");
    }
    return static_cast<int>(x);
  }
  if (v.kind_case() == Value::kStringValue) {
    const std::string& s = v.string_value();
    int x = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty()) {
      Fail("invalid literal for int() with base 10: " + internal::PyRepr(s));
    }
    return x;
  }
  Fail("int() argument must be a string or a number");
}

std::string Address(const Value& v) {
  if (v.kind_case() != Value::kStringValue) {
    Fail("Task address " +
         (v.kind_case() == Value::kNumberValue ? NumberText(v.number_value())
                                               : std::string("of that kind")) +
         " must be bytes or unicode");
  }
  return v.string_value();
}

JobTasks ReadJob(const std::string& name, const Value& v) {
  if (v.kind_case() == Value::kListValue) {
    std::vector<std::string> addresses;
    for (const Value& a : v.list_value().values()) {
      addresses.push_back(Address(a));
    }
    return JobTasks(addresses);
  }
  if (v.kind_case() == Value::kStructValue) {
    std::map<int, std::string> tasks;
    for (const auto& [key, a] : v.struct_value().fields()) {
      Value k;
      k.set_string_value(key);
      tasks[ToInt(k)] = Address(a);
    }
    return JobTasks(tasks);
  }
  Fail("The tasks for job " + internal::PyRepr(name) +
       " must be a list or a dictionary from integers to strings.");
}

constexpr const char* kAllowedTaskTypes =
    "('chief', 'worker', 'evaluator', 'ps', None)";

bool IsAllowedTaskType(const std::string& type) {
  return type == "chief" || type == "worker" || type == "evaluator" ||
         type == "ps";
}

int TaskCount(const ClusterSpec& cluster, const std::string& type) {
  for (const auto& [name, tasks] : cluster.as_dict()) {
    if (name == type) return static_cast<int>(tasks.tasks().size());
  }
  return 0;
}

bool HasJob(const ClusterSpec& cluster, const std::string& type) {
  for (const auto& [name, tasks] : cluster.as_dict()) {
    if (name == type) return true;
  }
  return false;
}

}  // namespace

void ValidateClusterSpec(const ClusterSpec& cluster,
                         const std::string& task_type, int task_index) {
  for (const auto& [name, tasks] : cluster.as_dict()) {
    if (!IsAllowedTaskType(name)) {
      Fail(std::string("Disallowed task type found in cluster spec. Allowed "
                       "types are ") +
           kAllowedTaskTypes + " and the cluster spec is " +
           cluster.DebugString() + ".");
    }
  }
  if (!task_type.empty() && !IsAllowedTaskType(task_type)) {
    Fail("Unrecognized task_type: " + task_type +
         ", valid task types are: " + kAllowedTaskTypes);
  }
  if (!task_type.empty() && !HasJob(cluster, task_type) &&
      task_type != "evaluator") {
    Fail("`task_type` " + internal::PyRepr(task_type) +
         " not found in cluster_spec.");
  }
  if (TaskCount(cluster, "chief") > 1) {
    Fail("There must be at most one 'chief' job.");
  }
  if (TaskCount(cluster, "evaluator") > 1) {
    Fail("There must be at most one 'evaluator' job.");
  }
  if (HasJob(cluster, task_type) &&
      task_index >= TaskCount(cluster, task_type)) {
    Fail("The `task_id` " + std::to_string(task_index) +
         " exceeds the maximum id of " + task_type + ".");
  }
}

TFConfig ParseTFConfig(std::string_view json) {
  Struct root;
  auto status =
      google::protobuf::util::JsonStringToMessage(std::string(json), &root);
  if (!status.ok()) {
    Fail("TF_CONFIG is not a JSON object: " + std::string(status.message()));
  }
  TFConfig config;
  const auto& fields = root.fields();
  if (auto it = fields.find("cluster"); it != fields.end()) {
    if (it->second.kind_case() != Value::kStructValue) {
      Fail(
          "TF_CONFIG's \"cluster\" must be an object from job names to "
          "tasks");
    }
    std::vector<std::pair<std::string, JobTasks>> jobs;
    // protobuf's map has no order; TensorFlow's dict keeps the JSON's. The
    // job names sorted are as good as any order a reader can rely on.
    std::map<std::string, const Value*> sorted;
    for (const auto& [name, tasks] : it->second.struct_value().fields()) {
      sorted[name] = &tasks;
    }
    for (const auto& [name, tasks] : sorted) {
      jobs.emplace_back(name, ReadJob(name, *tasks));
    }
    config.cluster = ClusterSpec(std::move(jobs));
  }
  if (auto it = fields.find("task"); it != fields.end()) {
    if (it->second.kind_case() != Value::kStructValue) {
      Fail(
          "TF_CONFIG's \"task\" must be an object with \"type\" and "
          "\"index\"");
    }
    const auto& task = it->second.struct_value().fields();
    if (auto type = task.find("type"); type != task.end()) {
      if (type->second.kind_case() != Value::kStringValue) {
        Fail("TF_CONFIG's task \"type\" must be a string");
      }
      config.task_type = type->second.string_value();
    }
    if (auto index = task.find("index"); index != task.end()) {
      config.task_index = ToInt(index->second);
    }
  }
  if (auto it = fields.find("rpc_layer"); it != fields.end()) {
    if (it->second.kind_case() != Value::kStringValue) {
      Fail("TF_CONFIG's \"rpc_layer\" must be a string");
    }
    config.rpc_layer = it->second.string_value();
  }
  if (!config.task_type.empty()) {
    ValidateClusterSpec(config.cluster, config.task_type,
                        config.task_index.value_or(0));
  }
  return config;
}

std::optional<TFConfig> TFConfigFromEnvironment() {
  const char* value = std::getenv("TF_CONFIG");
  if (value == nullptr || *value == '\0') return std::nullopt;
  return ParseTFConfig(value);
}

}  // namespace minitf::train
