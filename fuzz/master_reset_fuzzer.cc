// MasterService.Reset: closes every session and frees the named containers.
// A session is open when it comes.
#include "fuzzing.h"
#include "minitf/distributed/runtime/master.h"
#include "service_fuzzing.h"

namespace tf = minitf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tf::proto::ResetRequest request;
  if (!tf::fuzzing::Parse(data, size, &request)) return 0;
  tf::fuzzing::Session session;
  (void)tf::fuzzing::Server().master().Reset(request);
  return 0;
}
