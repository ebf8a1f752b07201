// WorkerService.GetStatus: the task's devices.
#include "fuzzing.h"
#include "minitf/distributed/runtime/worker.h"
#include "service_fuzzing.h"

namespace tf = minitf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tf::proto::GetStatusRequest request;
  if (!tf::fuzzing::Parse(data, size, &request)) return 0;
  tf::proto::GetStatusResponse response;
  (void)tf::fuzzing::Server().worker().GetStatus(request, &response);
  return 0;
}
