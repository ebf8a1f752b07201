// WorkerService.RegisterGraph: a master's part of a graph for this task,
// imported, cut by device and made into executors. A graph it registers
// is deregistered again.
#include "fuzzing.h"
#include "minitf/distributed/runtime/worker.h"
#include "service_fuzzing.h"

namespace tf = minitf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tf::proto::RegisterGraphRequest request;
  if (!tf::fuzzing::Parse(data, size, &request)) return 0;
  tf::Worker& worker = tf::fuzzing::Server().worker();
  tf::proto::RegisterGraphResponse response;
  if (!worker.RegisterGraph(request, &response).ok()) return 0;
  tf::proto::DeregisterGraphRequest remove;
  remove.set_graph_handle(response.graph_handle());
  (void)worker.DeregisterGraph(remove);
  return 0;
}
