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
  virtual AllocatorStats GetStats() const = 0;
  /// Starts a new measurement: the peak and largest allocation become what
  /// is in use now, the counts 0 (AllocatorStats::ClearStats).
  virtual void ClearStats() = 0;
  /// Gives up ownership: deletes the allocator now if nothing is in use,
  /// else when the last block is returned. Call once, instead of delete.
  virtual void DestroyWhenIdle() = 0;

 protected:
  ~DeviceAllocator() override = default;  // see DestroyWhenIdle
};

}  // namespace minitf
