// ClusterDef: the cluster as it travels between processes, in a
// CreateWorkerSession's ServerDef. A ClusterSpec made from one prints, and
// gives its jobs' task indices. (Not job_tasks: as TensorFlow's, it lists
// every index up to the largest, and a task numbered 2^31 - 1 asks for 2^31
// addresses, TensorFlow's MemoryError.)
#include "fuzzing.h"
#include "minitf/distributed/runtime/proto/cluster.pb.h"
#include "minitf/distributed/runtime/proto_convert.h"

namespace tf = minitf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tf::proto::ClusterDef def;
  if (!tf::fuzzing::Parse(data, size, &def)) return 0;
  tf::StatusOr<tf::train::ClusterSpec> cluster = tf::ClusterSpecFromProto(def);
  if (!cluster.ok()) return 0;
  (void)cluster->DebugString();
  for (const std::string& job : cluster->jobs())
    (void)cluster->task_indices(job);
  (void)tf::ClusterSpecToProto(*cluster);
  return 0;
}
