// Rendezvous: where a tensor sent by one device meets the device that waits
// for it.
//
// Once a graph is cut into one subgraph per device (graph_partition.h), every
// edge that crossed devices has become a pair of nodes: a _Send on the
// producer's device and a _Recv on the consumer's. The two never see each
// other; they agree on a key, and a rendezvous is the table where the value
// is left under that key and picked up. Whoever comes first waits: a Send
// with no receiver yet leaves the tensor in the table, a Recv with no tensor
// yet leaves a callback, which the matching Send calls. Nothing blocks, so an
// executor thread never sits waiting for another device.
//
// The key names both ends and the tensor, in TensorFlow's format:
//   <src_device>;<src_incarnation>;<dst_device>;<tensor_name>;<frame>:<iter>
// e.g. "/job:localhost/replica:0/task:0/device:CPU:0;00000000075bcd15;
// /job:localhost/replica:0/task:0/device:GPU:0;a:0;0:0". The incarnation is
// the sending device's random number as 16 hexadecimal digits, so a value
// from a device that has since been recreated is never taken for a current
// one; frame and iteration are always 0:0 here, since minitf has no control
// flow. A rendezvous lives for one step (one Session::run): StartAbort fails
// every waiter and every later call, which is how the first error of a step
// stops the other devices.
//
// This file holds the interface and LocalRendezvous, the bare table. The
// session's rendezvous, which also copies between device memories, is
// IntraProcessRendezvous (intra_process_rendezvous.h); chapter 7 adds one
// that reaches other processes, behind the same interface.
//
//   tf::LocalRendezvous r;
//   auto key = tf::Rendezvous::ParseKey(tf::Rendezvous::CreateKey(
//       cpu0, 1, gpu0, "a:0", tf::FrameAndIter{0, 0})).value();
//   r.RecvAsync(key, {}, [](const tf::Status& s, const auto&, const auto&,
//                           const tf::Tensor& t, bool) { /* use t */ });
//   r.Send(key, {}, tensor, /*is_dead=*/false);   // calls the callback
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "minitf/device/placement/device_spec.h"
#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor.h"

namespace minitf {

class Device;

/// The frame and iteration of a value inside control-flow loops. minitf has
/// no control flow, so every value is in frame 0, iteration 0; the pair is
/// kept so that keys read as TensorFlow's.
struct FrameAndIter {
  int64_t frame_id = 0;
  int64_t iter_id = 0;
};

/// The interface every rendezvous implements.
///
/// Invariants: a key's values are matched first in, first out: the n-th
/// Send under a key meets the n-th RecvAsync under it. Once StartAbort has
/// been called, the rendezvous stays aborted.
///
/// Thread safety: every method may be called from any thread.
class Rendezvous {
 public:
  /// What each side says about itself: its device, which the in-process
  /// rendezvous needs to copy between memories. May be null for a side that
  /// needs no copy (tests, the bare LocalRendezvous).
  struct Args {
    Device* device = nullptr;
  };

  /// A key split into its parts, which all refer into `full_key`.
  struct ParsedKey {
    std::string full_key;
    std::string_view src_device;
    DeviceSpec src;
    uint64_t src_incarnation = 0;
    std::string_view dst_device;
    DeviceSpec dst;
    std::string_view edge_name;

    ParsedKey() = default;
    ParsedKey(const ParsedKey& other) { *this = other; }
    /// Copies the key and re-points the views into the copy.
    ParsedKey& operator=(const ParsedKey& other);
  };

  /// Called once per RecvAsync: with the value and what both sides said, or
  /// with an error (the abort status) and an empty tensor.
  using DoneCallback = std::function<void(
      const Status& status, const Args& send_args, const Args& recv_args,
      const Tensor& value, bool is_dead)>;

  virtual ~Rendezvous() = default;

  /// TensorFlow's key: the five parts joined by ';', the incarnation as 16
  /// lowercase hexadecimal digits, frame and iteration as "frame:iter".
  static std::string CreateKey(std::string_view src_device,
                               uint64_t src_incarnation,
                               std::string_view dst_device,
                               std::string_view name,
                               const FrameAndIter& frame_iter);
  /// Splits a key made by CreateKey; InvalidArgument in TensorFlow's words
  /// ("Invalid  rendezvous key: ..." with its two spaces) when it has not
  /// five parts, a part is empty, a device name is not a full name or the
  /// incarnation is not hexadecimal.
  static StatusOr<ParsedKey> ParseKey(std::string_view key);

  /// Leaves `value` under `key`, or hands it to a waiting receiver (whose
  /// callback runs in this thread, before Send returns). `is_dead` travels
  /// with the value. Fails with the abort status once aborted.
  virtual Status Send(const ParsedKey& key, const Args& send_args,
                      const Tensor& value, bool is_dead) = 0;
  /// Calls `done` once with the value sent under `key`: at once when it is
  /// already here, else from the thread of the matching Send (or of
  /// StartAbort). Once aborted, calls `done` at once with the abort status.
  virtual void RecvAsync(const ParsedKey& key, const Args& recv_args,
                         DoneCallback done) = 0;
  /// Fails every waiting receiver with `status`, drops the values nobody
  /// took, and makes every later Send and RecvAsync fail with it. Only the
  /// first call's status is kept. REQUIRES: !status.ok().
  virtual void StartAbort(const Status& status) = 0;

  /// RecvAsync for callers that wait: blocks until the value is sent, or
  /// the rendezvous is aborted.
  Status Recv(const ParsedKey& key, const Args& recv_args, Tensor* value,
              bool* is_dead);
};

/// TensorFlow's LocalRendezvousImpl: a table of queues by key.
///
/// Invariants: the queue of a key holds only sent values or only waiting
/// receivers, never both (a match empties one of them); after an abort the
/// table is empty and stays so.
///
/// Algorithm: Send looks at the key's queue; if a receiver waits it is
/// taken and called outside the lock, else the value is appended. RecvAsync
/// does the mirror image. Callbacks never run under the lock, so a callback
/// may call into the rendezvous again.
///
/// Thread safety: as Rendezvous; one mutex guards the table.
class LocalRendezvous : public Rendezvous {
 public:
  LocalRendezvous() = default;
  /// Fails any receiver still waiting with Cancelled, so that no callback
  /// is lost.
  ~LocalRendezvous() override;
  LocalRendezvous(const LocalRendezvous&) = delete;
  LocalRendezvous& operator=(const LocalRendezvous&) = delete;

  Status Send(const ParsedKey& key, const Args& send_args, const Tensor& value,
              bool is_dead) override;
  void RecvAsync(const ParsedKey& key, const Args& recv_args,
                 DoneCallback done) override;
  void StartAbort(const Status& status) override;

 private:
  struct Item {
    DoneCallback waiter;  // set for a waiting receiver, empty for a value
    Tensor value;
    bool is_dead = false;
    Args send_args;
    Args recv_args;
  };
  using Queue = std::deque<Item>;

  std::mutex mu_;
  std::unordered_map<std::string, Queue> table_;  // guarded by mu_
  Status status_;                                 // guarded by mu_
};

}  // namespace minitf
