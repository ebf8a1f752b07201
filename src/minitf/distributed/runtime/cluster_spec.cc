#include "minitf/distributed/runtime/cluster_spec.h"

#include <algorithm>
#include <set>
#include <sstream>

#include "minitf/tensor/errors.h"

namespace minitf::train {

namespace internal {

std::string PyRepr(const std::string& s) {
  const bool has_single = s.find('\'') != std::string::npos;
  const bool has_double = s.find('"') != std::string::npos;
  const char quote = has_single && !has_double ? '"' : '\'';
  std::string out(1, quote);
  for (char c : s) {
    if (c == '\\' || c == quote) out += '\\';
    out += c;
  }
  out += quote;
  return out;
}

}  // namespace internal

JobTasks::JobTasks(std::initializer_list<std::string> addresses)
    : JobTasks(std::vector<std::string>(addresses)) {}

JobTasks::JobTasks(const std::vector<std::string>& addresses) {
  for (size_t i = 0; i < addresses.size(); ++i) {
    tasks_[static_cast<int>(i)] = addresses[i];
  }
}

JobTasks::JobTasks(std::initializer_list<std::pair<int, std::string>> tasks) {
  for (const auto& [index, address] : tasks) {
    if (!tasks_.emplace(index, address).second) {
      throw errors::InvalidArgumentError("Task index " + std::to_string(index) +
                                         " is given twice");
    }
  }
}

JobTasks::JobTasks(const std::map<int, std::string>& tasks) : tasks_(tasks) {}

bool JobTasks::is_dense() const {
  return !tasks_.empty() && tasks_.begin()->first == 0 &&
         tasks_.rbegin()->first + 1 == static_cast<int>(tasks_.size());
}

std::string JobTasks::DebugString() const {
  std::ostringstream os;
  const bool dense = is_dense();
  os << (dense ? "[" : "{");
  const char* separator = "";
  for (const auto& [index, address] : tasks_) {
    os << separator;
    if (!dense) os << index << ": ";
    os << internal::PyRepr(address);
    separator = ", ";
  }
  os << (dense ? "]" : "}");
  return os.str();
}

ClusterSpec::ClusterSpec(
    std::initializer_list<std::pair<std::string, JobTasks>> jobs)
    : ClusterSpec(std::vector<std::pair<std::string, JobTasks>>(jobs)) {}

ClusterSpec::ClusterSpec(std::vector<std::pair<std::string, JobTasks>> jobs) {
  std::set<std::string> seen;
  for (const auto& [name, tasks] : jobs) {
    if (!seen.insert(name).second) {
      throw errors::InvalidArgumentError("Job " + internal::PyRepr(name) +
                                         " is given twice");
    }
  }
  jobs_ = std::move(jobs);
}

const JobTasks& ClusterSpec::Job(const std::string& job_name) const {
  for (const auto& [name, tasks] : jobs_) {
    if (name == job_name) return tasks;
  }
  throw errors::InvalidArgumentError("No such job in cluster: " +
                                     internal::PyRepr(job_name));
}

std::vector<std::string> ClusterSpec::jobs() const {
  std::vector<std::string> names;
  for (const auto& [name, tasks] : jobs_) names.push_back(name);
  return names;
}

int ClusterSpec::num_tasks(const std::string& job_name) const {
  return static_cast<int>(Job(job_name).tasks().size());
}

std::vector<int> ClusterSpec::task_indices(const std::string& job_name) const {
  std::vector<int> indices;
  for (const auto& [index, address] : Job(job_name).tasks()) {
    indices.push_back(index);
  }
  return indices;
}

std::string ClusterSpec::task_address(const std::string& job_name,
                                      int task_index) const {
  const auto& tasks = Job(job_name).tasks();
  auto it = tasks.find(task_index);
  if (it == tasks.end()) {
    throw errors::InvalidArgumentError("No task with index " +
                                       std::to_string(task_index) + " in job " +
                                       internal::PyRepr(job_name));
  }
  return it->second;
}

std::vector<std::string> ClusterSpec::job_tasks(
    const std::string& job_name) const {
  const auto& tasks = Job(job_name).tasks();
  std::vector<std::string> addresses;
  // Negative indices have no place in a list; TensorFlow leaves them out too.
  if (tasks.empty() || tasks.rbegin()->first < 0) return addresses;
  addresses.resize(tasks.rbegin()->first + 1);
  for (const auto& [index, address] : tasks) {
    if (index >= 0) addresses[index] = address;
  }
  return addresses;
}

bool operator==(const ClusterSpec& a, const ClusterSpec& b) {
  auto sorted = [](const ClusterSpec& c) {
    return std::map<std::string, JobTasks>(c.jobs_.begin(), c.jobs_.end());
  };
  return sorted(a) == sorted(b);
}

std::string ClusterSpec::DebugString() const {
  std::map<std::string, const JobTasks*> sorted;
  for (const auto& [name, tasks] : jobs_) sorted[name] = &tasks;
  std::ostringstream os;
  os << "ClusterSpec({";
  const char* separator = "";
  for (const auto& [name, tasks] : sorted) {
    os << separator << internal::PyRepr(name) << ": " << tasks->DebugString();
    separator = ", ";
  }
  os << "})";
  return os.str();
}

std::ostream& operator<<(std::ostream& os, const ClusterSpec& cluster) {
  return os << cluster.DebugString();
}

}  // namespace minitf::train
