// WorkerService.RunGraph: one step of a registered graph, with the values
// the master sends and the keys it fetches. An empty graph handle names
// the fuzzers' graph (service_fuzzing.h); the step's leftovers are cleaned
// up after it, as the master's CleanupGraph does.
#include "fuzzing.h"
#include "minitf/distributed/runtime/worker.h"
#include "service_fuzzing.h"

namespace tf = minitf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tf::proto::RunGraphRequest request;
  if (!tf::fuzzing::Parse(data, size, &request)) return 0;
  (void)tf::fuzzing::RunGraph(request);
  tf::fuzzing::EndStep(request.step_id());
  return 0;
}
