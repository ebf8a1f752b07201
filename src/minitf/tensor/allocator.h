// Allocator: where a tensor's bytes come from.
//
// Every tensor buffer is obtained from an Allocator and returned to the same
// one. Layer 1 has a single allocator, for the CPU's memory, aligned to 64
// bytes so Eigen can use its widest vector loads. Later chapters add others
// (a virtual GPU's memory space, CUDA device memory) behind this interface;
// a Tensor remembers which allocator owns its buffer.
//
//   tf::Allocator* a = tf::cpu_allocator();
//   void* p = a->AllocateRaw(tf::Allocator::kAlignment, 1024);
//   a->DeallocateRaw(p);
#pragma once

#include <cstddef>
#include <string>

namespace minitf {

/// Thread safety: implementations must be safe to call from any thread.
class Allocator {
 public:
  /// Alignment of every buffer: one cache line, and enough for AVX-512.
  static constexpr size_t kAlignment = 64;

  virtual ~Allocator() = default;
  /// A short name for messages, e.g. "cpu".
  virtual std::string Name() const = 0;
  /// Returns `num_bytes` bytes aligned to `alignment`, or nullptr when out of
  /// memory. A request of 0 bytes returns a valid, distinct pointer.
  virtual void* AllocateRaw(size_t alignment, size_t num_bytes) = 0;
  /// REQUIRES: `ptr` came from AllocateRaw on this allocator.
  virtual void DeallocateRaw(void* ptr) = 0;
  /// True when the CPU may read and write the memory directly.
  virtual bool HostAccessible() const { return true; }
};

/// The process-wide allocator for the CPU's memory. Never null; never freed.
Allocator* cpu_allocator();

}  // namespace minitf
