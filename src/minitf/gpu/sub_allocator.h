// SubAllocator: where an allocator that manages memory itself gets it from.
//
// TensorFlow's BFC allocator (bfc_allocator.h) does not allocate each tensor
// from the system. It asks for a few large *regions* and carves them up
// itself. The SubAllocator is the thing it asks: on a GPU it is cudaMalloc
// (TensorFlow's GPUMemAllocator), and here, for the BFC allocator's tests and
// for virtual GPUs, it is the host's memory (HostSubAllocator). Regions are
// large and few, so a sub-allocator may be slow; it is never on the path of
// an ordinary tensor allocation.
//
//   tf::HostSubAllocator host;
//   void* region = host.Alloc(256, 64 << 20);   // 64 MiB, 256-byte aligned
//   host.Free(region, 64 << 20);
#pragma once

#include <cstddef>

namespace minitf {

/// tensorflow::SubAllocator (TensorFlow 1.14 and later): large blocks,
/// returned with their size.
///
/// Thread safety: an implementation may assume its caller serialises calls
/// (the BFC allocator calls it under its lock).
class SubAllocator {
 public:
  virtual ~SubAllocator() = default;
  /// `num_bytes` bytes aligned to `alignment` (a power of two), or nullptr
  /// when the memory has no room.
  virtual void* Alloc(size_t alignment, size_t num_bytes) = 0;
  /// REQUIRES: `ptr` came from Alloc on this sub-allocator with `num_bytes`.
  virtual void Free(void* ptr, size_t num_bytes) = 0;
  /// minitf's own: true when the CPU may read and write the memory, which
  /// makes the allocator above it host-accessible (allocator.h).
  virtual bool HostAccessible() const = 0;
};

/// Regions of host memory, mapped from the operating system (mmap), as a
/// virtual GPU's "device memory".
///
/// A region is address space: its pages are mapped and zeroed only when
/// first touched. So a BFC allocator that takes a virtual GPU's whole memory
/// at its first allocation, as TensorFlow's takes a real GPU's, costs the
/// process no memory it does not use. Regions are page-aligned.
class HostSubAllocator final : public SubAllocator {
 public:
  /// nullptr for 0 bytes, for an alignment above the page size, and when
  /// the operating system refuses.
  void* Alloc(size_t alignment, size_t num_bytes) override;
  void Free(void* ptr, size_t num_bytes) override;
  bool HostAccessible() const override { return true; }
};

}  // namespace minitf
