// ClusterSpec: the processes of a distributed program, by job and task.
//
// A TensorFlow cluster is a set of tasks, each a process at a "host:port",
// grouped into named jobs: the parameter servers ("ps") that hold the
// variables, the workers ("worker") that compute. Every process is given the
// same ClusterSpec, and its own job name and task index, so that each knows
// where every other one is. A job's tasks are listed densely (task i is the
// i-th address) or sparsely, as a map from task index to address, when a
// process should know only some of them (a worker that needs the PS and
// itself).
//
//   tf::train::ClusterSpec cluster({{"ps", {"localhost:2222"}},
//                                   {"worker", {"localhost:2223",
//                                               "localhost:2224"}}});
//   cluster.num_tasks("worker");              // 2
//   cluster.task_address("worker", 1);       // "localhost:2224"
//   tf::train::ClusterSpec sparse({{"worker", {{1, "localhost:2224"}}}});
#pragma once

#include <initializer_list>
#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace minitf::train {

/// The tasks of one job: task index -> "host:port". Built from a list
/// (dense: the i-th address is task i) or from pairs (sparse).
class JobTasks {
 public:
  JobTasks() = default;
  /// Dense: {"w0:2222", "w1:2222"} is task 0 and task 1.
  JobTasks(std::initializer_list<std::string> addresses);  // NOLINT: implicit
  JobTasks(const std::vector<std::string>& addresses);     // NOLINT: implicit
  /// Sparse: {{1, "w1:2222"}, {3, "w3:2222"}}. Throws InvalidArgumentError
  /// when an index is given twice (a Python dict cannot say it at all).
  JobTasks(std::initializer_list<std::pair<int, std::string>> tasks);  // NOLINT
  JobTasks(const std::map<int, std::string>& tasks);  // NOLINT: implicit

  const std::map<int, std::string>& tasks() const { return tasks_; }
  /// True when the indices are 0..n-1 for n > 0: what as_dict() gives back
  /// as a list. An empty job is not dense (TensorFlow shows it as {}).
  bool is_dense() const;
  /// Python's repr of the job in as_dict(): "['w0:2222', 'w1:2222']" when
  /// dense, "{1: 'w1:2222', 3: 'w3:2222'}" otherwise.
  std::string DebugString() const;

  friend bool operator==(const JobTasks&, const JobTasks&) = default;

 private:
  std::map<int, std::string> tasks_;
};

/// tf.train.ClusterSpec.
///
/// Invariant: job names are unique; jobs() keeps the order they were given
/// in, as a Python dict does, while the ClusterDef written from it (and the
/// printed form) sorts them by name, as TensorFlow does so that the same
/// cluster always gives the same bytes.
///
/// The accessors throw InvalidArgumentError where TensorFlow raises
/// ValueError, with its text: "No such job in cluster: 'chief'", "No task
/// with index 5 in job 'worker'".
class ClusterSpec {
 public:
  /// The empty cluster, which a single process runs in.
  ClusterSpec() = default;
  /// {{"ps", {"ps0:2222"}}, {"worker", {{1, "w1:2222"}}}}. Throws
  /// InvalidArgumentError when a job is named twice.
  ClusterSpec(std::initializer_list<std::pair<std::string, JobTasks>> jobs);
  explicit ClusterSpec(std::vector<std::pair<std::string, JobTasks>> jobs);

  /// The job names, in the order given.
  std::vector<std::string> jobs() const;
  /// The number of tasks `job_name` has (its addresses, not its largest
  /// index plus one).
  int num_tasks(const std::string& job_name) const;
  /// The task indices of `job_name`, in increasing order.
  std::vector<int> task_indices(const std::string& job_name) const;
  /// The address of task `task_index` of `job_name`.
  std::string task_address(const std::string& job_name, int task_index) const;
  /// The addresses of `job_name` indexed by task: position i is task i's
  /// address, and "" where a sparse job has no task i (TensorFlow's None).
  /// The list ends at the largest index.
  std::vector<std::string> job_tasks(const std::string& job_name) const;
  /// Every job with its tasks, in the order given; a job whose indices are
  /// 0..n-1 is_dense(), as TensorFlow gives it back a list.
  const std::vector<std::pair<std::string, JobTasks>>& as_dict() const {
    return jobs_;
  }

  /// False for the empty cluster, as Python's bool(ClusterSpec({})).
  explicit operator bool() const { return !jobs_.empty(); }
  /// Equal when the same jobs have the same tasks, in any order.
  friend bool operator==(const ClusterSpec& a, const ClusterSpec& b);

  /// Python's str(): "ClusterSpec({'ps': ['ps0:2222'], 'worker':
  /// {1: 'w1:2222'}})", jobs sorted by name.
  std::string DebugString() const;

 private:
  const JobTasks& Job(const std::string& job_name) const;

  std::vector<std::pair<std::string, JobTasks>> jobs_;
};

std::ostream& operator<<(std::ostream& os, const ClusterSpec& cluster);

namespace internal {
/// Python's repr() of a string: 'text' in single quotes, or in double
/// quotes when it holds a single quote and no double one; backslashes and
/// the chosen quote escaped.
std::string PyRepr(const std::string& s);
}  // namespace internal

}  // namespace minitf::train
