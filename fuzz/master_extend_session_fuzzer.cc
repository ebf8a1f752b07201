// MasterService.ExtendSession: nodes a client adds to its session's graph.
// An empty session handle names a fresh session on the fuzzers' graph.
#include "fuzzing.h"
#include "minitf/distributed/runtime/master.h"
#include "service_fuzzing.h"

namespace tf = minitf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tf::proto::ExtendSessionRequest request;
  if (!tf::fuzzing::Parse(data, size, &request)) return 0;
  tf::fuzzing::Session session;
  if (request.session_handle().empty()) {
    request.set_session_handle(session.handle());
  }
  tf::proto::ExtendSessionResponse response;
  (void)tf::fuzzing::Server().master().ExtendSession(request, &response);
  return 0;
}
