// TrackingAllocator: a device's memory, counted and capped.
//
// Each device allocates its tensors through an allocator of its own. On a
// GPU that allocator owns the card's memory and, once it is full, refuses:
// the op fails with TensorFlow's "OOM when allocating tensor ...", a
// ResourceExhaustedError. A TrackingAllocator gives every device of this
// layer that behaviour on top of another allocator (the CPU's caching one,
// layer 1): it counts what is in use, remembers the peak and the largest
// request, and refuses any request that would pass its limit. Virtual GPUs
// have a limit; CPU devices, as in TensorFlow, only count.
//
//   tf::TrackingAllocator a("GPU_0_virtual", tf::cpu_allocator(), 1 << 20);
//   void* p = a.AllocateRaw(64, 1000);      // in use: 1000 bytes
//   a.AllocateRaw(64, 1 << 20);              // nullptr: past the limit
//   std::cout << a.GetStats().DebugString(); // Limit: 1048576 InUse: 1000 ...
//   a.DeallocateRaw(p);
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>

#include "minitf/device/memory/device_allocator.h"

namespace minitf {

/// Counts, caps and forwards allocations to a base allocator.
///
/// Invariants: bytes_in_use is the sum of the sizes of the blocks handed
/// out and not yet returned, and never exceeds bytes_limit when there is
/// one; max_bytes_in_use >= bytes_in_use.
///
/// Sizes counted are the sizes requested from this allocator. A tensor's
/// buffer asks for its bytes plus a small header that holds the buffer's
/// bookkeeping (tensor.h), so a tensor of 24 bytes counts a little more.
///
/// Lifetime: a DeviceAllocator's. Tensors may outlive the device that made
/// them (a fetched value kept by the program), so the owner calls
/// DestroyWhenIdle() instead of delete.
///
/// Thread safety: every method may be called from any thread.
class TrackingAllocator final : public DeviceAllocator {
 public:
  /// `base` provides the bytes and must outlive this allocator (the CPU's
  /// allocator lives forever). `bytes_limit` 0 means no limit.
  TrackingAllocator(std::string name, Allocator* base, int64_t bytes_limit);
  TrackingAllocator(const TrackingAllocator&) = delete;
  TrackingAllocator& operator=(const TrackingAllocator&) = delete;

  std::string Name() const override { return name_; }
  /// nullptr when `num_bytes` would take bytes_in_use past the limit, or
  /// when the base allocator has no memory left.
  void* AllocateRaw(size_t alignment, size_t num_bytes) override;
  void DeallocateRaw(void* ptr) override;
  bool HostAccessible() const override { return base_->HostAccessible(); }

 private:
  ~TrackingAllocator() override = default;  // see DestroyWhenIdle
  bool IdleLocked() const override { return sizes_.empty(); }

  const std::string name_;
  Allocator* const base_;
  std::unordered_map<void*, size_t> sizes_;  // guarded by mu()
};

}  // namespace minitf
