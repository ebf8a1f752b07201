// TF_CONFIG: the JSON a cluster manager gives each task, with the cluster's
// jobs (lists or objects of addresses) and the task's type and index. The
// documented failure is InvalidArgumentError; any other exception escapes
// and libFuzzer reports it.
#include "fuzzing.h"
#include "minitf/distributed/runtime/tf_config.h"
#include "minitf/tensor/errors.h"

namespace tf = minitf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    tf::train::TFConfig config =
        tf::train::ParseTFConfig(tf::fuzzing::Bytes(data, size));
    (void)config.cluster.DebugString();
    for (const std::string& job : config.cluster.jobs()) {
      (void)config.cluster.task_indices(job);
    }
  } catch (const tf::errors::InvalidArgumentError&) {
  }
  return 0;
}
