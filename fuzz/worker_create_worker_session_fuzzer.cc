// WorkerService.CreateWorkerSession, and the DeleteWorkerSession of the
// same handle after it.
#include "fuzzing.h"
#include "minitf/distributed/runtime/worker.h"
#include "service_fuzzing.h"

namespace tf = minitf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tf::proto::CreateWorkerSessionRequest request;
  if (!tf::fuzzing::Parse(data, size, &request)) return 0;
  tf::Worker& worker = tf::fuzzing::Server().worker();
  (void)worker.CreateWorkerSession(request);
  tf::proto::DeleteWorkerSessionRequest remove;
  remove.set_session_handle(request.session_handle());
  (void)worker.DeleteWorkerSession(remove);
  return 0;
}
