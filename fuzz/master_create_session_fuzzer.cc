// MasterService.CreateSession: a client's graph and config. A session the
// request makes is closed again.
#include "fuzzing.h"
#include "minitf/distributed/runtime/master.h"
#include "service_fuzzing.h"

namespace tf = minitf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tf::proto::CreateSessionRequest request;
  if (!tf::fuzzing::Parse(data, size, &request)) return 0;
  tf::Master& master = tf::fuzzing::Server().master();
  tf::proto::CreateSessionResponse response;
  if (!master.CreateSession(request, &response).ok()) return 0;
  tf::proto::CloseSessionRequest close;
  close.set_session_handle(response.session_handle());
  (void)master.CloseSession(close);
  return 0;
}
