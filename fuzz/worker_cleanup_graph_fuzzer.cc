// WorkerService.CleanupGraph: the end of a step. A step of the fuzzers'
// graph (the recorded one, its value still waiting for the master; step id
// 0 names it) is there to be cleaned up, and is cleaned up after in any
// case.
#include "fuzzing.h"
#include "minitf/distributed/runtime/worker.h"
#include "service_fuzzing.h"

namespace tf = minitf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tf::proto::CleanupGraphRequest request;
  if (!tf::fuzzing::Parse(data, size, &request)) return 0;
  const int64_t step = tf::fuzzing::RunRecordedStep();
  if (request.step_id() == 0) request.set_step_id(step);
  (void)tf::fuzzing::Server().worker().CleanupGraph(request);
  tf::fuzzing::EndStep(step);
  return 0;
}
