// WorkerService.DeregisterGraph. An empty graph handle names a graph the
// fuzzer registers for it.
#include "fuzzing.h"
#include "minitf/distributed/runtime/worker.h"
#include "service_fuzzing.h"

namespace tf = minitf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tf::proto::DeregisterGraphRequest request;
  if (!tf::fuzzing::Parse(data, size, &request)) return 0;
  tf::Worker& worker = tf::fuzzing::Server().worker();
  const std::string graph = tf::fuzzing::RegisterSessionGraph();
  if (request.graph_handle().empty()) request.set_graph_handle(graph);
  (void)worker.DeregisterGraph(request);
  tf::proto::DeregisterGraphRequest remove;
  remove.set_graph_handle(graph);
  (void)worker.DeregisterGraph(remove);
  return 0;
}
