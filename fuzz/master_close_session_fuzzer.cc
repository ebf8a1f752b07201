// MasterService.CloseSession. An empty session handle names a fresh
// session on the fuzzers' graph.
#include "fuzzing.h"
#include "minitf/distributed/runtime/master.h"
#include "service_fuzzing.h"

namespace tf = minitf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tf::proto::CloseSessionRequest request;
  if (!tf::fuzzing::Parse(data, size, &request)) return 0;
  tf::fuzzing::Session session;
  if (request.session_handle().empty()) {
    request.set_session_handle(session.handle());
  }
  (void)tf::fuzzing::Server().master().CloseSession(request);
  return 0;
}
