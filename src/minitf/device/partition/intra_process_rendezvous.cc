#include "minitf/device/partition/intra_process_rendezvous.h"

#include <memory>
#include <utility>

#include "minitf/device/devices/device.h"
#include "minitf/device/devices/device_context.h"

namespace minitf {

TransferRecord& TransferRecord::operator+=(const TransferRecord& other) {
  tensors += other.tensors;
  bytes += other.bytes;
  copies += other.copies;
  bytes_copied += other.bytes_copied;
  return *this;
}

Status IntraProcessRendezvous::Send(const ParsedKey& key, const Args& send_args,
                                    const Tensor& value, bool is_dead) {
  return local_.Send(key, send_args, value, is_dead);
}

void IntraProcessRendezvous::StartAbort(const Status& status) {
  local_.StartAbort(status);
}

TransferTable ByDeviceName(const DeviceTransferTable& table) {
  TransferTable named;
  for (const auto& [pair, record] : table) {
    named[{pair.first ? pair.first->name() : "",
           pair.second ? pair.second->name() : ""}] += record;
  }
  return named;
}

void IntraProcessRendezvous::Count(const Args& send_args, const Args& recv_args,
                                   const TransferRecord& record) {
  std::lock_guard<std::mutex> lock(mu_);
  transfers_[{send_args.device, recv_args.device}] += record;
}

DeviceTransferTable IntraProcessRendezvous::GetTransferStats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return transfers_;
}

// --8<-- [start:recv_async]
void IntraProcessRendezvous::RecvAsync(const ParsedKey& key,
                                       const Args& recv_args,
                                       DoneCallback done) {
  local_.RecvAsync(
      key, recv_args,
      [this, name = std::string(key.edge_name), done = std::move(done)](
          const Status& status, const Args& send_args, const Args& recv_args,
          const Tensor& value, bool is_dead) {
        if (!status.ok())
          return done(status, send_args, recv_args, value, is_dead);
        Device* src = send_args.device;
        Device* dst = recv_args.device;
        TransferRecord record{1, static_cast<int64_t>(value.TotalBytes()), 0,
                              0};
        const bool same_memory = src == nullptr || dst == nullptr ||
                                 src == dst ||
                                 ReadableWithoutCopy(*src, *dst, value);
        if (same_memory || !value.IsInitialized()) {
          Count(send_args, recv_args, record);
          return done(status, send_args, recv_args, value, is_dead);
        }
        // Two memories: copy into the receiver's, then hand the copy over.
        // Both tensors are held until the copy is done, which on a device
        // with its own streams is after this callback returns.
        auto source = std::make_shared<Tensor>(value);
        auto copy = std::make_shared<Tensor>();
        record.copies = 1;
        record.bytes_copied = record.bytes;
        CopyTensorBetweenDevices(name, src, dst, *source, copy.get(),
                                 [this, source, copy, record, send_args,
                                  recv_args, is_dead, done](const Status& s) {
                                   if (s.ok())
                                     Count(send_args, recv_args, record);
                                   done(s, send_args, recv_args, *copy,
                                        is_dead);
                                 });
      });
}
// --8<-- [end:recv_async]

}  // namespace minitf
