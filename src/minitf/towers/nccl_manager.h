// NcclManager: where the participants of one NCCL all-reduce meet.
//
// tf.contrib.nccl's all_sum puts one NcclAllReduce node on each GPU, all
// with the same shared_name. Each node's kernel runs when its executor gets
// to it, on its own thread, at its own time; the reduction itself must see
// all of them at once: NCCL's ncclAllReduce is called once per GPU, inside
// one ncclGroupStart/ncclGroupEnd. So, as TensorFlow's NcclManager does, each
// kernel hands its input to the manager and returns (an asynchronous kernel,
// which holds no thread while it waits), and the last of the num_devices
// participants of a collective (one shared_name in one step) runs it for
// everyone and calls every participant back:
// - on GPUs whose memory the CPU cannot read (real GPUs), with NCCL, when
//   the layer was built with CUDA (nccl_communicators.h);
// - on chapter 4's virtual GPUs and chapter 5's emulated GPUs, whose memory
//   the CPU can read, by summing on the host, so that the rendezvous of the
//   participants runs, and is tested, on every machine.
// - on GPUs of the emulator whose memory the CPU may not read (chapter 5's
//   stand-in for a real GPU), by the GPUs' own add kernels, each reading
//   the others' memory as NCCL's kernels do.
//
// TensorFlow's participants wait for ever: its documentation warns that
// evaluating only some of all_sum's outputs hangs. Here a collective that
// has not seen all its participants by its deadline fails every participant
// that came with DeadlineExceeded, naming the shared_name and how many of
// num_devices arrived.
//
//   NcclManager::Get()->AddToAllReduce(
//       {.shared_name = "c0", .step_id = 7, .step = rendezvous},
//       /*num_devices=*/2, /*timeout_ms=*/60000, std::move(participant));
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor.h"
#include "minitf/towers/nccl_participant.h"

namespace minitf {

/// How long a participant waits for the others when the session sets no
/// ConfigProto::operation_timeout_in_ms: one minute. A correct step brings
/// every participant within the time its slowest tower takes to compute
/// its input, which in this course is well under a second (seconds on the
/// CPU emulator of CUDA); a minute is far past that, and still short
/// enough that a program that fetched only some outputs says why within a
/// minute instead of hanging as TensorFlow's does.
inline constexpr int64_t kDefaultNcclTimeoutMs = 60'000;

/// Which collective a participant belongs to: one shared_name in one step
/// of one session. `step` tells apart two sessions whose step ids
/// coincide (any address unique to the step while it runs: its
/// rendezvous).
struct NcclCollectiveKey {
  std::string shared_name;
  int64_t step_id = 0;
  const void* step = nullptr;

  auto operator<=>(const NcclCollectiveKey&) const = default;
};

/// The meeting place of all-reduce participants, one per process.
///
/// Invariants: a pending collective has fewer participants than its
/// num_devices, all of one dtype and shape; it is removed from the table
/// before it runs or fails, so each participant is called back exactly
/// once.
///
/// Thread safety: AddToAllReduce may be called from any thread. The
/// reduction runs on the thread of the last participant to arrive; a
/// deadline fails its collective on the manager's watchdog thread.
class NcclManager {
 public:
  /// The process's manager (created on first use, never destroyed, so that
  /// its watchdog thread outlives every session).
  static NcclManager* Get();

  /// Adds `participant` to the collective `key` of `num_devices`
  /// participants. The first one sets the deadline, `timeout_ms` from now.
  /// Errors, through the participants' callbacks: InvalidArgument when a
  /// participant disagrees with the first on num_devices, dtype or shape, or
  /// comes twice from one device; DeadlineExceeded when the deadline passes
  /// first; Unimplemented for real GPUs in a build without CUDA, or a
  /// collective that mixes real GPUs with devices the CPU can read.
  void AddToAllReduce(const NcclCollectiveKey& key, int num_devices,
                      int64_t timeout_ms, NcclParticipant participant);

  /// How many collectives are waiting for participants; for tests.
  int num_pending() const;

 private:
  struct Collective {
    int num_devices = 0;
    std::chrono::steady_clock::time_point deadline;
    int64_t timeout_ms = 0;
    std::vector<NcclParticipant> participants;
  };

  NcclManager();
  // Fails the collectives whose deadline has passed; runs for ever.
  void Watchdog();
  // Sums a full collective and calls its participants back.
  static void Run(const NcclCollectiveKey& key, Collective collective);

  mutable std::mutex mu_;
  std::condition_variable deadline_changed_;
  std::map<NcclCollectiveKey, Collective> pending_;  // guarded by mu_
  std::thread watchdog_;
};

}  // namespace minitf
