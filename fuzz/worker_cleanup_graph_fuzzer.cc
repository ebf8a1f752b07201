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
  tf::proto::RunGraphRequest step =
      tf::fuzzing::RecordedWorkerRequests().run_graph;
  step.clear_recv_key();
  (void)tf::fuzzing::RunGraph(step);
  tf::Worker& worker = tf::fuzzing::Server().worker();
  if (request.step_id() == 0) request.set_step_id(step.step_id());
  (void)worker.CleanupGraph(request);
  tf::proto::CleanupGraphRequest cleanup;
  cleanup.set_step_id(step.step_id());
  (void)worker.CleanupGraph(cleanup);
  return 0;
}
