// IntraProcessRendezvous: the rendezvous of one step of a local session.
//
// Between devices of one process a Send and its Recv meet in a plain table
// (LocalRendezvous), but the value may still have to change memory: a
// tensor made on a GPU cannot be read by a kernel on the CPU. So when a
// receiver picks a value up, this rendezvous compares the two sides'
// devices and, when their memories differ (CPU and virtual GPU, or two
// GPUs), copies the tensor into the receiver's memory through the devices'
// DeviceContexts (CopyTensorBetweenDevices) before handing it over. Between
// two CPU devices the tensor itself is handed over: they share the host's
// memory. Every value that passes is counted per (sender, receiver) pair,
// which is how a program sees what its placement costs in transfers.
//
// A DirectSession makes one for each step and gives it to every executor
// of the step; the first error aborts it, which fails every Recv still
// waiting on any device.
//
//   tf::IntraProcessRendezvous r;
//   r.Send(key, {.device = gpu0}, on_gpu, false);
//   tf::Tensor t;  bool dead;
//   r.Recv(key, {.device = cpu0}, &t, &dead);   // t: a copy in host memory
//   r.GetTransferStats();   // {{gpu0, cpu0}: 1 tensor, 1 copy ...}
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "minitf/device/partition/rendezvous.h"

namespace minitf {

/// What passed from one device to another through a rendezvous.
struct TransferRecord {
  int64_t tensors = 0;       ///< Values handed over.
  int64_t bytes = 0;         ///< Their bytes.
  int64_t copies = 0;        ///< Values that had to change memory.
  int64_t bytes_copied = 0;  ///< Bytes copied between memories.

  TransferRecord& operator+=(const TransferRecord& other);
};

/// Transfers by (sending device, receiving device) full names.
using TransferTable =
    std::map<std::pair<std::string, std::string>, TransferRecord>;
/// The same by the devices themselves (null for a side that named none):
/// cheap to keep up to date on every step.
using DeviceTransferTable =
    std::map<std::pair<const Device*, const Device*>, TransferRecord>;

/// `table` by device names ("" for none).
TransferTable ByDeviceName(const DeviceTransferTable& table);

/// A LocalRendezvous that copies between device memories and counts.
///
/// Invariants: a value reaches the receiver in the receiver's memory (when
/// both sides named their device); the table counts every value handed to
/// a receiver, copied or not.
///
/// Algorithm: Send and StartAbort are the table's. RecvAsync asks the
/// table, and wraps the callback: on arrival, if the two devices' memories
/// differ, the value is copied with CopyTensorBetweenDevices (which
/// allocates in the receiver's memory, so a full device fails the Recv with
/// its OOM error) and the callback gets the copy. A value without a tensor
/// (an uninitialized variable read across devices) passes uncopied, so
/// that its reader reports it.
///
/// Thread safety: as Rendezvous.
class IntraProcessRendezvous : public Rendezvous {
 public:
  IntraProcessRendezvous() = default;

  Status Send(const ParsedKey& key, const Args& send_args, const Tensor& value,
              bool is_dead) override;
  void RecvAsync(const ParsedKey& key, const Args& recv_args,
                 DoneCallback done) override;
  void StartAbort(const Status& status) override;

  /// The values handed over so far, by device pair.
  DeviceTransferTable GetTransferStats() const;

 private:
  void Count(const Args& send_args, const Args& recv_args,
             const TransferRecord& record);

  LocalRendezvous local_;
  mutable std::mutex mu_;
  DeviceTransferTable transfers_;  // guarded by mu_
};

}  // namespace minitf
