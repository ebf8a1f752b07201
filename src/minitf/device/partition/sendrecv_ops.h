// _Send and _Recv: the two halves of an edge cut between devices.
//
// When the partitioner (graph_partition.h) cuts an edge a -> b whose ends
// run on different devices, it puts a _Send after a on a's device and a
// _Recv before b on b's device. The two ops carry the same attrs, so each
// can build the same rendezvous key (rendezvous.h) without knowing of the
// other:
//   tensor_name              what travels ("a:0"; "^a" for a control edge)
//   send_device              the full name of the sending device
//   send_device_incarnation  that device's incarnation number
//   recv_device              the full name of the receiving device
//   client_terminated        true when one end is the session itself: the
//                            _Recv of a feed, the _Send of a fetch
// plus the dtype (T on _Send, tensor_type on _Recv). _Send puts its input
// into the step's rendezvous; _Recv is an asynchronous kernel
// (async_op_kernel.h) whose output is set when the value arrives.
//
// Both kernels find the step's rendezvous, and the device they run on,
// through the kernel context's step extension, which the parallel executor
// sets to a RendezvousStepExtension. They are registered for CPU and GPU
// devices: a transfer has an end on every kind of device.
//
//   tf::IntraProcessRendezvous rendezvous;
//   tf::RendezvousStepExtension ext(&rendezvous, device);
//   params.step_extension = &ext;     // then run the partition's kernels
#pragma once

#include <cstdint>

#include "minitf/device/partition/rendezvous.h"
#include "minitf/graph/kernel.h"

namespace minitf {

inline constexpr const char* kSendOp = "_Send";
inline constexpr const char* kRecvOp = "_Recv";

/// What one step gives the kernels of one device: the rendezvous of the
/// step, the device itself (which the rendezvous needs to copy between
/// memories), and the session's deadline for ops that block. Not owned;
/// both pointers outlive the step.
class RendezvousStepExtension : public StepExtension {
 public:
  RendezvousStepExtension(Rendezvous* rendezvous, Device* device,
                          int64_t operation_timeout_in_ms = 0)
      : rendezvous_(rendezvous),
        device_(device),
        operation_timeout_in_ms_(operation_timeout_in_ms) {}
  Rendezvous* rendezvous() const { return rendezvous_; }
  Device* device() const { return device_; }
  /// The session's ConfigProto::operation_timeout_in_ms (0: none set), for
  /// kernels that wait for other kernels outside the rendezvous.
  int64_t operation_timeout_in_ms() const { return operation_timeout_in_ms_; }

 private:
  Rendezvous* rendezvous_;
  Device* device_;
  int64_t operation_timeout_in_ms_;
};

/// The rendezvous key a _Send or _Recv node uses in frame 0, iteration 0,
/// from its attrs. InvalidArgument when an attr is missing.
StatusOr<std::string> SendRecvKey(const Node& node);

}  // namespace minitf
