// Allocator: where a tensor's bytes come from, and why they are kept.
//
// Every tensor buffer is obtained from an Allocator and returned to the same
// one. Later chapters add allocators for other memories (a virtual GPU's
// memory space, CUDA device memory) behind this interface; a Tensor remembers
// which allocator owns its buffer. Layer 1 has the CPU's, aligned to 64 bytes
// so Eigen can use its widest vector loads.
//
// The CPU allocator is a *caching* allocator, as TensorFlow's are. An eager
// program allocates a fresh output for every op and frees it soon after, so
// the same sizes come back again and again. Asking the operating system each
// time is slow at both ends of the size range:
//   - a small block (a scalar, a [2,2] matrix) costs more to allocate with
//     64-byte alignment than the op costs to compute;
//   - a large block (megabytes) comes as fresh pages, and the first write to
//     each 4 KiB page traps into the kernel, which maps and zeroes it. For a
//     64 MiB output that is 16384 traps: several times the cost of the
//     arithmetic, which then runs far below the memory's bandwidth.
// So freed blocks are not returned but kept, binned by size, and handed out
// again to the next request of that size: small ones in free lists of
// power-of-two size classes, large ones (1 MiB and up) in a map ordered by
// size. A reused block has its pages mapped already. Large blocks are also
// mapped on 2 MiB boundaries and marked for transparent huge pages
// (madvise(MADV_HUGEPAGE)), so even their first touch traps once per 2 MiB
// instead of once per 4 KiB. The bytes kept are capped; a freed block that
// would exceed the cap makes room or goes back to the operating system.
//
// Which allocator a new tensor takes its bytes from, when the code that makes
// it names none (Tensor(dtype, shape), and every layer-1 function that
// returns a new tensor), is the calling thread's *default allocator*:
// cpu_allocator(), unless a ScopedDefaultAllocator on that thread says
// otherwise. That is the hook through which chapter 4 charges what a kernel
// makes to the device the kernel runs on (see ScopedDefaultAllocator).
//
//   tf::Allocator* a = tf::cpu_allocator();
//   void* p = a->AllocateRaw(tf::Allocator::kAlignment, 1024);
//   a->DeallocateRaw(p);   // kept: the next 1024-byte request gets it back
//   { tf::ScopedDefaultAllocator on_device(device_allocator);
//     tf::Tensor t(tf::DT_FLOAT, {2, 3}); }  // t's bytes: device_allocator's
#pragma once

#include <cstddef>
#include <map>
#include <mutex>
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
  /// Returns `num_bytes` bytes aligned to `alignment` (a power of two), or
  /// nullptr when out of memory. A request of 0 bytes returns a valid,
  /// distinct pointer.
  virtual void* AllocateRaw(size_t alignment, size_t num_bytes) = 0;
  /// REQUIRES: `ptr` came from AllocateRaw on this allocator.
  virtual void DeallocateRaw(void* ptr) = 0;
  /// True when the CPU may read and write the memory directly.
  virtual bool HostAccessible() const { return true; }
};

/// The caching allocator for the CPU's memory described at the top of this
/// file. Each block starts with a 64-byte header that records its size, so
/// DeallocateRaw knows which bin a block belongs to.
///
/// Thread safety: every method may be called from any thread; one mutex
/// guards the bins (the operating system is called outside it).
class CpuAllocator final : public Allocator {
 public:
  /// Blocks up to this size (header included) are small: power-of-two size
  /// classes of 128 ... 4096 bytes, each with its own free list.
  static constexpr size_t kMaxSmallBlockBytes = 4096;
  /// Blocks of at least this size are large: mapped from the operating system
  /// in whole huge pages and cached by size. Sizes in between come from
  /// malloc, which already reuses them well, and are not cached.
  static constexpr size_t kMinLargeBlockBytes = size_t{1} << 20;
  /// The size of a transparent huge page on x86-64.
  static constexpr size_t kHugePageBytes = size_t{2} << 20;
  /// The default cap on the bytes of freed blocks kept for reuse.
  static constexpr size_t kDefaultMaxCachedBytes = size_t{256} << 20;

  /// An allocator that keeps at most `max_cached_bytes` of freed blocks.
  explicit CpuAllocator(size_t max_cached_bytes = kDefaultMaxCachedBytes);
  /// Returns every cached block. REQUIRES: no block is still in use.
  ~CpuAllocator() override;
  CpuAllocator(const CpuAllocator&) = delete;
  CpuAllocator& operator=(const CpuAllocator&) = delete;

  std::string Name() const override { return "cpu"; }
  void* AllocateRaw(size_t alignment, size_t num_bytes) override;
  void DeallocateRaw(void* ptr) override;

  /// The bytes of freed blocks now kept for reuse (whole blocks, headers
  /// included); never more than the cap.
  size_t CachedBytes() const;
  /// Returns every cached block to the operating system.
  void ReleaseCache();

 private:
  struct BlockHeader;
  static constexpr int kNumSmallClasses = 6;  // 128, 256, ..., 4096 bytes

  // A block of at least `block_bytes` (header included) with its header
  // filled in, or nullptr when out of memory.
  void* AllocateBlock(size_t block_bytes);
  // Keeps a block in its bin, or returns it to the operating system when the
  // cap leaves no room.
  void DeallocateBlock(BlockHeader* block);
  // Removes cached large blocks, largest first, until `needed` more bytes
  // fit under the cap; `victims` receives them (to be unmapped unlocked).
  void EvictLargeLocked(size_t needed, std::multimap<size_t, void*>* victims);

  const size_t max_cached_bytes_;
  mutable std::mutex mu_;
  BlockHeader* small_free_[kNumSmallClasses] = {};  // guarded by mu_
  std::multimap<size_t, void*> large_free_;         // guarded by mu_
  size_t cached_bytes_ = 0;                         // guarded by mu_
};

/// The process-wide allocator for the CPU's memory: a CpuAllocator with the
/// default cap. Never null; never freed.
Allocator* cpu_allocator();

/// The calling thread's default allocator: that of its innermost live
/// ScopedDefaultAllocator, or cpu_allocator() when it has none. Never null.
/// Tensors made without an explicit allocator take their bytes from it.
Allocator* DefaultAllocator();

// --8<-- [start:scoped_default_allocator]
/// Makes `allocator` the calling thread's default allocator for as long as
/// this object lives, then restores the one before it. Scopes nest.
///
/// Why minitf has this where TensorFlow has OpKernelContext::allocate_output:
/// in TensorFlow a kernel asks its context for every output, and the context
/// takes the bytes from the kernel's device. minitf's kernels mostly compute
/// through layer 1's tensor functions (kernels::MatMul, kernels::Add ...),
/// which make their own results and know nothing of devices. Threading an
/// allocator through every one of those calls would clutter the whole of
/// layer 1 for the sake of chapter 4; a scope reaches them all without. So
/// chapter 4's executor opens one around each kernel it runs, with the
/// allocator of the kernel's device, and a virtual GPU's limit and
/// statistics then cover whatever the kernel makes on that thread: its
/// outputs and its temporaries alike. This is a deliberate difference from
/// TensorFlow, with two consequences a kernel writer should know:
///   - the scope belongs to a thread: a tensor made on another thread (an
///     intra-op pool's worker, the callback of an asynchronous kernel) takes
///     the default of that thread, the CPU's unless it opens a scope of its
///     own. minitf's kernels make their tensors before they share out work;
///   - code that must not charge the device names its allocator explicitly
///     (Tensor(allocator, dtype, shape), Tensor::Allocate(..., allocator)).
///
/// Invariants: scopes end on the thread that opened them, innermost first.
/// The allocator must outlive every tensor made from it (chapter 4's
/// TrackingAllocator outlives its device for that reason).
///
/// Thread safety: each thread has its own default; a scope affects only the
/// thread that opened it.
class ScopedDefaultAllocator {
 public:
  /// REQUIRES: `allocator` is not null.
  explicit ScopedDefaultAllocator(Allocator* allocator);
  ~ScopedDefaultAllocator();
  ScopedDefaultAllocator(const ScopedDefaultAllocator&) = delete;
  ScopedDefaultAllocator& operator=(const ScopedDefaultAllocator&) = delete;

 private:
  Allocator* const allocator_;
  Allocator* const previous_;  // nullptr: the thread had no scope
};
// --8<-- [end:scoped_default_allocator]

}  // namespace minitf
