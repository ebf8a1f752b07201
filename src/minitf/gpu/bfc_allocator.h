// BFCAllocator: TensorFlow's allocator of a GPU's memory, "best-fit with
// coalescing".
//
// cudaMalloc and cudaFree are slow (cudaFree waits for the whole device), and
// a training step allocates and frees hundreds of tensors. So TensorFlow asks
// the GPU for its memory once, in a few large regions (a SubAllocator's), and
// manages them itself: a region is cut into *chunks*, each either in use or
// free; a request takes the smallest free chunk that fits (best fit), cut in
// two when it is much larger than the request (split); a freed chunk is
// merged with a free neighbour on either side (coalescing), so that memory
// freed in pieces becomes one large chunk again. The free chunks are kept in
// 21 *bins* by size class, so that the best fit is found without looking at
// every chunk. Every allocating layer of a GPU process goes through it; its
// name, GPU_0_bfc, is the one TensorFlow's out-of-memory errors end with.
//
// The logic is host code: pointers into a region are compared and offset,
// never dereferenced. So it runs, and is tested, over host memory
// (HostSubAllocator), and minitf's virtual GPUs use it too.
//
//   tf::BFCAllocator bfc(std::make_unique<tf::HostSubAllocator>(),
//                        /*total_memory=*/64 << 20, /*allow_growth=*/false,
//                        "GPU_0_bfc");
//   void* p = bfc.AllocateRaw(64, 1000);    // a chunk of 1024 bytes
//   bfc.GetStats().bytes_in_use;             // 1024
//   bfc.DeallocateRaw(p);                    // merged back into the region
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "minitf/device/memory/device_allocator.h"
#include "minitf/gpu/sub_allocator.h"

namespace minitf {

/// TensorFlow 1.x's BFCAllocator (tensorflow/core/common_runtime/
/// bfc_allocator.h), without what came later (region garbage collection,
/// timestamped chunks) and without the retry: TensorFlow waits up to 10
/// seconds for another thread to free memory before it reports an
/// out-of-memory error; minitf reports it at once.
///
/// Invariants:
///   - every chunk's size and offset in its region are multiples of
///     kMinAllocationSize, and the chunks of a region tile it exactly, in
///     address order (prev/next);
///   - a free chunk is in exactly one bin, the one BinNumForSize(size) names;
///     a chunk in use is in none;
///   - no two free chunks are neighbours: freeing coalesces them;
///   - bytes_in_use is the sum of the sizes of the chunks in use (whole
///     chunks, as in TensorFlow: an unsplit chunk counts all its bytes), and
///     the regions together never exceed the limit.
///
/// Thread safety: every method may be called from any thread; one mutex,
/// DeviceAllocator's mu(), guards all the state.
class BFCAllocator final : public DeviceAllocator {
 public:
  /// Every chunk is a multiple of 2^8 = 256 bytes (kMinAllocationBits).
  static constexpr int kMinAllocationBits = 8;
  static constexpr size_t kMinAllocationSize = size_t{1} << kMinAllocationBits;
  /// Bin i holds free chunks of [256 << i, 256 << (i+1)) bytes; the last,
  /// bin 20 (256 MiB), every larger one too.
  static constexpr int kNumBins = 21;
  /// A chunk is split when it is at least twice the request, or when the
  /// rest would be this large: never waste more than 128 MiB on one request.
  static constexpr size_t kMaxInternalFragmentation = size_t{128} << 20;
  /// With allow_growth, the first region: 1 MiB (TensorFlow 2 takes 2 MiB).
  static constexpr size_t kInitialGrowthBytes = size_t{1} << 20;

  /// An allocator of at most `total_memory` bytes of `sub_allocator`'s
  /// memory, named `name` in messages ("GPU_0_bfc"). Without
  /// `allow_growth` its first region is the whole of `total_memory`, taken
  /// at the first allocation; with it, regions start at 1 MiB and double.
  BFCAllocator(std::unique_ptr<SubAllocator> sub_allocator, size_t total_memory,
               bool allow_growth, std::string name);
  BFCAllocator(const BFCAllocator&) = delete;
  BFCAllocator& operator=(const BFCAllocator&) = delete;
  /// Returns every region. REQUIRES: no chunk is in use. Owners of an
  /// allocator that tensors may outlive call DestroyWhenIdle() instead.
  ~BFCAllocator() override;

  std::string Name() const override { return name_; }
  /// A chunk of RoundedBytes(num_bytes) bytes or more, or nullptr when no
  /// free chunk fits and the limit leaves no room for a region that would.
  /// A request of 0 bytes is one of 1 (TensorFlow's returns nullptr; the
  /// Allocator contract asks for a pointer). REQUIRES: `alignment` <= 256.
  void* AllocateRaw(size_t alignment, size_t num_bytes) override;
  /// REQUIRES: `ptr` is null or came from AllocateRaw on this allocator.
  void DeallocateRaw(void* ptr) override;
  bool HostAccessible() const override;

  /// `bytes` rounded up to a multiple of 256.
  static size_t RoundedBytes(size_t bytes);
  /// The bin of a free chunk of `bytes`: floor(log2(max(bytes, 256) / 256)),
  /// at most 20.
  static int BinNumForSize(size_t bytes);
  /// The smallest size bin `bin` holds: 256 << bin.
  static size_t BinNumToSize(int bin) { return kMinAllocationSize << bin; }

  /// The size of the chunk handed out at `ptr` (at least what was asked).
  /// REQUIRES: `ptr` is in use.
  size_t AllocatedSize(const void* ptr) const;

  /// One chunk, as ChunkMap() reports it.
  struct ChunkInfo {
    size_t offset = 0;          ///< From the start of its region.
    size_t size = 0;            ///< Bytes, a multiple of 256.
    size_t requested_size = 0;  ///< What AllocateRaw was asked; 0 if free.
    bool in_use = false;
    int bin = -1;  ///< The bin of a free chunk; -1 for one in use.
  };
  /// Every region's chunks in address order, regions in the order they were
  /// allocated: what TensorFlow prints when it runs out of memory.
  std::vector<std::vector<ChunkInfo>> ChunkMap() const;
  /// The size of each region, in the order they were allocated.
  std::vector<size_t> RegionSizes() const;

 private:
  using ChunkHandle = int;
  static constexpr ChunkHandle kInvalidChunkHandle = -1;

  // A piece of a region. allocation_id is -1 while free.
  struct Chunk {
    char* ptr = nullptr;
    size_t size = 0;
    size_t requested_size = 0;
    int64_t allocation_id = -1;
    ChunkHandle prev = kInvalidChunkHandle;  // the chunk just before, or -1
    ChunkHandle next = kInvalidChunkHandle;  // the chunk just after, or -1
    int bin = -1;                            // -1 unless free and binned
    bool in_use() const { return allocation_id != -1; }
  };

  // A free chunk's place in its bin: bins are ordered by size, then by
  // address, so the first chunk that fits is the best fit, and of equal fits
  // the lowest in memory.
  struct BinEntry {
    size_t size;
    const char* ptr;
    ChunkHandle handle;
    bool operator<(const BinEntry& other) const {
      if (size != other.size) return size < other.size;
      return std::less<const char*>()(ptr, other.ptr);
    }
  };

  // One block from the sub-allocator. handles[i] is the chunk that starts at
  // ptr + 256 * i (-1 where none starts), so a pointer finds its chunk in
  // O(1) once its region is known.
  struct Region {
    char* ptr;
    size_t size;
    std::vector<ChunkHandle> handles;
    char* end() const { return ptr + size; }
  };

  // Every chunk counts at least 256 bytes: none is out when none count.
  bool IdleLocked() const override { return stats().bytes_in_use == 0; }
  void* FindChunkPtr(int bin, size_t rounded_bytes, size_t num_bytes);
  bool Extend(size_t rounded_bytes);
  void SplitChunk(ChunkHandle h, size_t num_bytes);
  ChunkHandle TryToCoalesce(ChunkHandle h);
  void Merge(ChunkHandle first, ChunkHandle second);
  void InsertFreeChunkIntoBin(ChunkHandle h);
  void RemoveFreeChunkFromBin(ChunkHandle h);
  ChunkHandle NewChunk();
  void DeleteChunk(ChunkHandle h);
  // The region that holds `ptr`, or nullptr.
  const Region* RegionFor(const void* ptr) const;
  ChunkHandle& HandleSlot(const void* ptr);
  ChunkHandle HandleFor(const void* ptr) const;

  const std::unique_ptr<SubAllocator> sub_allocator_;
  const std::string name_;
  const size_t memory_limit_;

  // The size of the next region; doubles as regions are added.
  size_t curr_region_allocation_bytes_;      // guarded by mu()
  size_t total_region_allocated_bytes_ = 0;  // guarded by mu()
  // Set once the sub-allocator has refused: TensorFlow then asks for 10%
  // less, repeatedly, but only the first time.
  bool started_backpedal_ = false;                      // guarded by mu()
  std::vector<Chunk> chunks_;                           // guarded by mu()
  ChunkHandle free_chunks_list_ = kInvalidChunkHandle;  // guarded by mu()
  std::set<BinEntry> bins_[kNumBins];                   // guarded by mu()
  // Sorted by end address, for RegionFor's binary search; see
  // regions_by_age_ for the order they were made in.
  std::vector<Region> regions_;              // guarded by mu()
  std::vector<const char*> regions_by_age_;  // guarded by mu()
  int64_t next_allocation_id_ = 1;           // guarded by mu()
};

}  // namespace minitf
