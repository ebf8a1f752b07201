#include "minitf/device/partition/sendrecv_ops.h"

#include <string>
#include <utility>

#include "minitf/device/executor/async_op_kernel.h"
#include "minitf/graph/op_def.h"
#include "minitf/graph/shape_inference.h"

namespace minitf {

namespace {

// The attrs both halves carry, from which each builds the rendezvous key.
OpDefBuilder WithTransferAttrs(OpDefBuilder op) {
  return op.Attr("tensor_name: string")
      .Attr("send_device: string")
      .Attr("send_device_incarnation: int")
      .Attr("recv_device: string")
      .Attr("client_terminated: bool = false")
      .SetIsStateful();
}

// The ops take no part in shape inference: the partitioner builds them with
// the shapes of the edge they replace. A _Send may carry a value that holds
// nothing yet (a variable read before it is initialized), so that the op
// that reads it on the other side reports it as it would unpartitioned.
const internal::OpDefRegistration send_op =
    WithTransferAttrs(OpDefBuilder("_Send").Input("tensor: T").Attr("T: type"))
        .SetAllowsUninitializedInput()
        .SetShapeFn(shape_fns::NoOutputs);
const internal::OpDefRegistration recv_op =
    WithTransferAttrs(OpDefBuilder("_Recv")
                          .Output("tensor: tensor_type")
                          .Attr("tensor_type: type"))
        .SetMayOutputUninitialized()
        .SetShapeFn(shape_fns::UnknownShape);

}  // namespace

StatusOr<std::string> SendRecvKey(const Node& node) {
  TF_ASSIGN_OR_RETURN(std::string send_device,
                      GetAttr<std::string>(node.attrs(), "send_device"));
  TF_ASSIGN_OR_RETURN(
      int64_t incarnation,
      GetAttr<int64_t>(node.attrs(), "send_device_incarnation"));
  TF_ASSIGN_OR_RETURN(std::string recv_device,
                      GetAttr<std::string>(node.attrs(), "recv_device"));
  TF_ASSIGN_OR_RETURN(std::string tensor_name,
                      GetAttr<std::string>(node.attrs(), "tensor_name"));
  return Rendezvous::CreateKey(send_device, static_cast<uint64_t>(incarnation),
                               recv_device, tensor_name, FrameAndIter{0, 0});
}

namespace {

// The parsed key of a _Send or _Recv node, made once when its kernel is;
// a kernel constructor cannot fail, so a bad key is kept and reported when
// the kernel runs.
class SendRecvKernelBase {
 protected:
  explicit SendRecvKernelBase(const Node& node) {
    StatusOr<std::string> key = SendRecvKey(node);
    StatusOr<Rendezvous::ParsedKey> parsed =
        key.ok() ? Rendezvous::ParseKey(key.value())
                 : StatusOr<Rendezvous::ParsedKey>(key.status());
    if (parsed.ok()) {
      key_ = std::move(parsed).value();
    } else {
      bad_key_ = parsed.status();
    }
  }

  // The step's extension, or FailedPrecondition when the executor running
  // the kernel gives none (chapter 2's session, which has no devices).
  StatusOr<RendezvousStepExtension*> Extension(OpKernelContext* ctx,
                                               const std::string& op) const {
    TF_RETURN_IF_ERROR(bad_key_);
    auto* ext = dynamic_cast<RendezvousStepExtension*>(ctx->step_extension());
    if (ext == nullptr) {
      return errors::FailedPrecondition(
          op, " needs the rendezvous of a session with devices");
    }
    return ext;
  }

  Rendezvous::ParsedKey key_;
  Status bad_key_;
};

// --8<-- [start:send_kernel]
class SendOp : public OpKernel, SendRecvKernelBase {
 public:
  explicit SendOp(const OpKernelConstruction& c)
      : OpKernel(c), SendRecvKernelBase(c.node()) {}
  Status Compute(OpKernelContext* ctx) override {
    TF_ASSIGN_OR_RETURN(RendezvousStepExtension * ext,
                        Extension(ctx, type_string()));
    // minitf has no control flow, so no value is ever dead.
    return ext->rendezvous()->Send(key_, {ext->device()}, ctx->input(0),
                                   /*is_dead=*/false);
  }
};
// --8<-- [end:send_kernel]

// --8<-- [start:recv_kernel]
class RecvOp : public AsyncOpKernel, SendRecvKernelBase {
 public:
  explicit RecvOp(const OpKernelConstruction& c)
      : AsyncOpKernel(c), SendRecvKernelBase(c.node()) {}
  void ComputeAsync(OpKernelContext* ctx, StatusCallback done) override {
    StatusOr<RendezvousStepExtension*> ext = Extension(ctx, type_string());
    if (!ext.ok()) return done(ext.status());
    ext.value()->rendezvous()->RecvAsync(
        key_, {ext.value()->device()},
        [ctx, done = std::move(done)](const Status& s, const Rendezvous::Args&,
                                      const Rendezvous::Args&,
                                      const Tensor& value, bool) {
          if (s.ok()) ctx->set_output(0, value);
          done(s);
        });
  }
};
// --8<-- [end:recv_kernel]

MINITF_REGISTER_KERNEL("_Send", DEVICE_CPU, SendOp);
MINITF_REGISTER_KERNEL("_Send", DEVICE_GPU, SendOp);
MINITF_REGISTER_KERNEL("_Recv", DEVICE_CPU, RecvOp);
MINITF_REGISTER_KERNEL("_Recv", DEVICE_GPU, RecvOp);

}  // namespace
}  // namespace minitf
