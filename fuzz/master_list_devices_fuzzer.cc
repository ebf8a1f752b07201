// MasterService.ListDevices.
#include "fuzzing.h"
#include "minitf/distributed/runtime/master.h"
#include "service_fuzzing.h"

namespace tf = minitf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tf::proto::ListDevicesRequest request;
  if (!tf::fuzzing::Parse(data, size, &request)) return 0;
  tf::proto::ListDevicesResponse response;
  (void)tf::fuzzing::Server().master().ListDevices(request, &response);
  return 0;
}
