// Reference solution of exercise 04_send_recv_insertion.
#include "send_recv_insertion.h"

#include "minitf/device/partition/sendrecv_ops.h"
#include "minitf/graph/op_def.h"

namespace minitf::exercises {
namespace {

// A _Send or _Recv of `tensor` to `dst_device`, with the attrs both halves
// carry, so that each builds the same rendezvous key on its own.
NodeSpec TransferSpec(const char* op, const Output& tensor,
                      const std::string& dst_device, Cut* cut) {
  const std::string& src_device = tensor.node()->assigned_device();
  NodeSpec spec;
  spec.name = cut->NewName(tensor.node()->name());
  spec.op_def = OpRegistry::Global()->LookUp(op).value();
  spec.attrs["tensor_name"] = tensor.name();
  spec.attrs["send_device"] = src_device;
  spec.attrs["send_device_incarnation"] =
      static_cast<int64_t>(cut->incarnation(src_device));
  spec.attrs["recv_device"] = dst_device;
  spec.attrs["client_terminated"] = false;
  return spec;
}

// The _Recv that brings `tensor` to `dst_device`, made with its _Send the
// first time: one transfer per tensor per destination device.
StatusOr<Node*> RecvFor(const Output& tensor, const std::string& dst_device,
                        Cut* cut) {
  const auto key = std::make_pair(tensor, dst_device);
  if (auto it = cut->recv_of.find(key); it != cut->recv_of.end()) {
    return it->second;
  }
  NodeSpec send = TransferSpec(kSendOp, tensor, dst_device, cut);
  send.attrs["T"] = tensor.dtype();
  send.inputs = {Output(cut->copy_of[tensor.node()->id()], tensor.index())};
  TF_RETURN_IF_ERROR(
      cut->Add(std::move(send), tensor.node()->assigned_device()).status());

  NodeSpec recv = TransferSpec(kRecvOp, tensor, dst_device, cut);
  recv.attrs["tensor_type"] = tensor.dtype();
  recv.output_types = {tensor.dtype()};
  recv.output_shapes = {tensor.shape()};
  TF_ASSIGN_OR_RETURN(Node * r, cut->Add(std::move(recv), dst_device));
  cut->recv_of.emplace(key, r);
  return r;
}

}  // namespace

Status CutInputs(const Node& consumer, Cut* cut, NodeSpec* copy) {
  const std::string& device = consumer.assigned_device();
  for (const Output& in : consumer.inputs()) {
    if (in.node()->assigned_device() == device) {
      copy->inputs.emplace_back(cut->copy_of[in.node()->id()], in.index());
    } else {
      TF_ASSIGN_OR_RETURN(Node * recv, RecvFor(in, device, cut));
      copy->inputs.emplace_back(recv, 0);
    }
  }
  return Status::OK();
}

}  // namespace minitf::exercises
