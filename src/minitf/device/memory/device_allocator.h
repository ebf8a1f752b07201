// DeviceAllocator: the allocator that owns a device's memory.
//
// Layer 1's Allocator hands out bytes. A device needs a little more from the
// allocator of its memory: TensorFlow's statistics (what is in use, the peak,
// the largest request, the limit), and a lifetime of its own, since a tensor
// may outlive the device that made it. DeviceAllocator adds both. This layer
// has one kind, the TrackingAllocator (tracking_allocator.h), which counts
// and caps another allocator; chapter 5 adds TensorFlow's BFC allocator,
// which manages a GPU's memory itself, and gives it to virtual GPUs through
// the hook in virtual_gpu_device.h.
//
//   tf::DeviceAllocator* a = device->allocator();
//   void* p = a->AllocateRaw(64, 1000);
//   a->GetStats().bytes_in_use;   // 1000 for a TrackingAllocator
//   a->DeallocateRaw(p);
#pragma once

#include <cstdint>
#include <mutex>
#include <string>

#include "minitf/tensor/allocator.h"

namespace minitf {

/// tensorflow::AllocatorStats, with TensorFlow 1.x's field names
/// (TensorFlow 2 calls the peak peak_bytes_in_use and the largest request
/// largest_alloc_size).
struct AllocatorStats {
  int64_t num_allocs = 0;        ///< Allocations made, refused ones not.
  int64_t bytes_in_use = 0;      ///< Bytes allocated and not yet freed.
  int64_t max_bytes_in_use = 0;  ///< The peak of bytes_in_use.
  int64_t max_alloc_size = 0;    ///< The largest single allocation.
  int64_t bytes_limit = 0;       ///< The cap; 0 when there is none.
  int64_t num_refused = 0;       ///< minitf's own: requests refused.

  /// TensorFlow's five lines, numbers right-aligned in 20 columns:
  /// "Limit:        " ... "MaxAllocSize: ".
  std::string DebugString() const;
};

/// An allocator that owns a device's memory, counts it, and may outlive the
/// device.
///
/// Lifetime: the device does not delete its allocator but calls
/// DestroyWhenIdle() once, and the allocator deletes itself when its last
/// block comes back (at once when none is out).
///
/// Thread safety: every method may be called from any thread.
class DeviceAllocator : public Allocator {
 public:
  /// What the allocator counts; the meaning of "bytes" is the kind's own
  /// (requested bytes for a TrackingAllocator, whole chunks for a BFC
  /// allocator, as in TensorFlow).
  AllocatorStats GetStats() const;
  /// Starts a new measurement: the peak and largest allocation become what
  /// is in use now, the counts 0 (AllocatorStats::ClearStats).
  void ClearStats();
  /// Gives up ownership: deletes the allocator now if nothing is in use,
  /// else when the last block is returned. Call once, instead of delete.
  void DestroyWhenIdle();

 protected:
  /// `bytes_limit` is the cap the statistics report; 0 when there is none.
  explicit DeviceAllocator(int64_t bytes_limit) {
    stats_.bytes_limit = bytes_limit;
  }
  ~DeviceAllocator() override = default;  // see DestroyWhenIdle

  /// The one lock of the allocator: it guards the statistics here and the
  /// kind's own bookkeeping, so that both change together.
  std::mutex& mu() const { return mu_; }
  /// The statistics, which the kind keeps up to date. REQUIRES: mu() held.
  AllocatorStats& stats() { return stats_; }
  const AllocatorStats& stats() const { return stats_; }
  /// Whether DestroyWhenIdle() was called and no block is out any more: a
  /// kind's DeallocateRaw then deletes the allocator, once mu() is
  /// released. REQUIRES: mu() held.
  bool OrphanedAndIdle() const { return orphaned_ && IdleLocked(); }

 private:
  /// Whether no block is out. REQUIRES: mu() held.
  virtual bool IdleLocked() const = 0;

  mutable std::mutex mu_;
  AllocatorStats stats_;   // guarded by mu_
  bool orphaned_ = false;  // guarded by mu_
};

}  // namespace minitf
