// WorkerService.RecvTensor: a value of a step, by rendezvous key. A step of
// the fuzzers' graph runs first (step id 0 names it, and the recorded key of
// its fetch y is the seed). The key is parsed and checked against the task's
// devices and their incarnation; a wait for a value ends with the step's
// CleanupGraph, as when its master ends the step. A value that arrives is
// encoded as the service sends it: the seed's key finds y, which the step
// left in its rendezvous, since it ran without asking for it.
#include <future>

#include "fuzzing.h"
#include "minitf/distributed/runtime/rpc/tensor_coding.h"
#include "minitf/distributed/runtime/worker.h"
#include "service_fuzzing.h"

namespace tf = minitf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tf::proto::RecvTensorRequest request;
  if (!tf::fuzzing::Parse(data, size, &request)) return 0;
  const int64_t step = tf::fuzzing::RunRecordedStep();
  // Step 0 is the step just run; the key is made live (service_fuzzing.h).
  if (request.step_id() == 0) request.set_step_id(step);
  request.set_rendezvous_key(tf::fuzzing::LiveKey(request.rendezvous_key()));
  std::promise<void> answered;
  tf::CallOptions opts;
  tf::TensorResponse response;
  tf::fuzzing::Server().worker().RecvTensorAsync(
      &opts, &request, &response, [&](const tf::Status& s) {
        if (s.ok()) {
          grpc::ByteBuffer bytes;
          (void)tf::EncodeRecvTensorResponse(response.tensor, response.is_dead,
                                             &bytes);
        }
        answered.set_value();
      });
  tf::fuzzing::EndStep(request.step_id());
  tf::fuzzing::EndStep(step);
  answered.get_future().wait();
  return 0;
}
