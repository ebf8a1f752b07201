#include "minitf/towers/nccl_ops.h"

#include <atomic>
#include <sstream>
#include <string>
#include <utility>

#include "minitf/device/devices/device.h"
#include "minitf/device/executor/async_op_kernel.h"
#include "minitf/device/partition/sendrecv_ops.h"
#include "minitf/gpu/gpu_device.h"
#include "minitf/graph/node_builder.h"
#include "minitf/graph/op_def.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/shape_inference.h"
#include "minitf/tensor/errors.h"
#include "minitf/towers/nccl_manager.h"

namespace minitf {
namespace {

// TensorFlow's op (tensorflow/core/ops/nccl_ops.cc), less DT_HALF, which
// minitf does not have; reduction is one of "min", "max", "prod", "sum" in
// TensorFlow, and only "sum" here (the kernel refuses the others).
MINITF_REGISTER_OP("NcclAllReduce")
    .Input("input: T")
    .Output("data: T")
    .Attr("reduction: string")
    .Attr("T: {float, double, int32, int64}")
    .Attr("num_devices: int")
    .Attr("shared_name: string")
    .SetIsStateful()
    .SetShapeFn(shape_fns::UnchangedShape);

// --8<-- [start:kernel]
/// One participant: hands its input and a new output to the NcclManager
/// and finishes when the manager calls back.
class NcclAllReduceOp : public AsyncOpKernel {
 public:
  explicit NcclAllReduceOp(const OpKernelConstruction& c)
      : AsyncOpKernel(c),
        num_devices_(c.GetAttr<int64_t>("num_devices").value()),
        shared_name_(c.GetAttr<std::string>("shared_name").value()),
        reduction_(c.GetAttr<std::string>("reduction").value()) {}

  void ComputeAsync(OpKernelContext* ctx, StatusCallback done) override {
    auto* step = dynamic_cast<RendezvousStepExtension*>(ctx->step_extension());
    if (step == nullptr) {
      return done(errors::FailedPrecondition(
          "NcclAllReduce runs only in a session with devices"));
    }
    if (reduction_ != "sum") {
      return done(errors::Unimplemented("NcclAllReduce with reduction '",
                                        reduction_, "': only 'sum' is"));
    }
    if (num_devices_ < 1) {
      return done(errors::InvalidArgument(
          "NcclAllReduce: num_devices must be at least 1, got ", num_devices_));
    }
    const Tensor& input = ctx->input(0);
    StatusOr<Tensor> output =
        Tensor::Allocate(input.dtype(), input.shape(), ctx->allocator());
    if (!output.ok()) return done(output.status());
    NcclParticipant participant;
    participant.device = step->device()->name();
    participant.input = &input;
    participant.output = std::move(output).value();
    participant.gpu =
        dynamic_cast<const gpu::GpuDeviceContext*>(ctx->op_device_context());
    participant.done = [ctx, done](const Status& s, const Tensor& out) {
      if (s.ok()) ctx->set_output(0, out);
      done(s);
    };
    const int64_t timeout = step->operation_timeout_in_ms() > 0
                                ? step->operation_timeout_in_ms()
                                : kDefaultNcclTimeoutMs;
    NcclManager::Get()->AddToAllReduce(
        {shared_name_, ctx->step_id(), step->rendezvous()},
        static_cast<int>(num_devices_), timeout, std::move(participant));
  }

 private:
  const int64_t num_devices_;
  const std::string shared_name_;
  const std::string reduction_;
};
// --8<-- [end:kernel]

// GPU only, as in TensorFlow: real, emulated and chapter 4's virtual GPUs.
MINITF_REGISTER_KERNEL("NcclAllReduce", DEVICE_GPU, NcclAllReduceOp);

// TensorFlow's _get_shared_name: "c0", "c1", ... for the process.
std::string NextSharedName() {
  static std::atomic<int64_t> counter{0};
  std::string name = "c";
  name += std::to_string(counter.fetch_add(1));
  return name;
}

}  // namespace

// --8<-- [start:all_sum]
std::vector<Output> nccl_all_sum(const std::vector<Output>& tensors) {
  if (tensors.empty()) {
    errors::ThrowIfError(errors::InvalidArgument(
        "Must pass >0 tensors to all reduce operations"));
  }
  for (const Output& t : tensors) {
    if (t.op().device().empty()) {
      std::ostringstream repr;
      repr << t;
      errors::ThrowIfError(
          errors::InvalidArgument("Device assignment for tensor=", repr.str(),
                                  " required for nccl collective ops"));
    }
  }
  const std::string shared_name = NextSharedName();
  graph_scope use(*tensors[0].graph());
  std::vector<Output> outputs;
  for (const Output& t : tensors) {
    device_scope on(t.op().device());
    outputs.push_back(ops::AddOp(
        NodeBuilder("NcclAllReduce", "")
            .Input(t)
            .Attr("reduction", "sum")
            .Attr("num_devices", static_cast<int64_t>(tensors.size()))
            .Attr("shared_name", shared_name),
        {t}));
  }
  return outputs;
}
// --8<-- [end:all_sum]

}  // namespace minitf
