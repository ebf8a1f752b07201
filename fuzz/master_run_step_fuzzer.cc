// MasterService.RunStep: feeds, fetches and targets of one step. An empty
// session handle names a fresh session on the fuzzers' graph, whose steps
// end within the operation timeout (service_fuzzing.h).
#include "fuzzing.h"
#include "minitf/distributed/runtime/master.h"
#include "service_fuzzing.h"

namespace tf = minitf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tf::proto::RunStepRequest request;
  if (!tf::fuzzing::Parse(data, size, &request)) return 0;
  tf::fuzzing::Session session;
  if (request.session_handle().empty()) {
    request.set_session_handle(session.handle());
  }
  tf::proto::RunStepResponse response;
  (void)tf::fuzzing::Server().master().RunStep(request, &response);
  return 0;
}
