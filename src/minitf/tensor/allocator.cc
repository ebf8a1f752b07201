#include "minitf/tensor/allocator.h"

#include <sys/mman.h>

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <utility>
#include <vector>

#include "minitf/tensor/status.h"

namespace minitf {

// --8<-- [start:block_header]
// The first 64 bytes of every block; the caller's bytes follow it. While the
// block is cached, `next` links it into its size class's free list.
struct alignas(Allocator::kAlignment) CpuAllocator::BlockHeader {
  size_t block_bytes;  // the whole block, this header included
  size_t offset;       // 0, or for an over-aligned request's second header
                       // the distance back to the block's real header
  BlockHeader* next;
};
// --8<-- [end:block_header]

namespace {

constexpr size_t kMaxSize = std::numeric_limits<size_t>::max();

constexpr size_t RoundUp(size_t n, size_t multiple) {
  return (n + multiple - 1) / multiple * multiple;
}

// The index of the smallest power-of-two class (128 << index) that holds
// `block_bytes`.
int SmallClass(size_t block_bytes) {
  const int bits = std::bit_width(block_bytes - 1);  // 2^bits >= block_bytes
  return bits <= 7 ? 0 : bits - 7;
}

// `num_bytes` (a multiple of the huge page size) of fresh memory starting on
// a huge-page boundary, marked for transparent huge pages; nullptr when the
// operating system has none. mmap only promises 4 KiB alignment, so this maps
// one huge page more than needed and unmaps the unaligned ends.
void* MapHugePages(size_t num_bytes) {
  constexpr size_t kHuge = CpuAllocator::kHugePageBytes;
  const size_t mapped = num_bytes + kHuge;
  void* raw = mmap(nullptr, mapped, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const auto start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = RoundUp(start, kHuge);
  if (aligned > start) munmap(raw, aligned - start);
  const size_t tail = start + mapped - (aligned + num_bytes);
  if (tail > 0) munmap(reinterpret_cast<void*>(aligned + num_bytes), tail);
  void* block = reinterpret_cast<void*>(aligned);
  // Advice only: where huge pages are off, the block still works.
  madvise(block, num_bytes, MADV_HUGEPAGE);
  return block;
}

}  // namespace

CpuAllocator::CpuAllocator(size_t max_cached_bytes)
    : max_cached_bytes_(max_cached_bytes) {
  static_assert(sizeof(BlockHeader) == kAlignment);
}

CpuAllocator::~CpuAllocator() { ReleaseCache(); }

void* CpuAllocator::AllocateRaw(size_t alignment, size_t num_bytes) {
  if (!std::has_single_bit(alignment)) return nullptr;
  if (alignment > kAlignment) {
    // Over-aligned: take `alignment` spare bytes and put a second header
    // just before the aligned address, pointing back to the block's own.
    if (num_bytes > kMaxSize - alignment) return nullptr;
    char* p =
        static_cast<char*>(AllocateRaw(kAlignment, num_bytes + alignment));
    if (p == nullptr) return nullptr;
    char* aligned = p + (RoundUp(reinterpret_cast<uintptr_t>(p), alignment) -
                         reinterpret_cast<uintptr_t>(p));
    if (aligned != p) {
      BlockHeader* second = reinterpret_cast<BlockHeader*>(aligned) - 1;
      second->block_bytes = 0;
      second->offset = static_cast<size_t>(aligned - p);
    }
    return aligned;
  }
  // The largest request whose block, rounded to whole huge pages, fits.
  if (num_bytes > kMaxSize - kAlignment - 2 * kHugePageBytes) return nullptr;
  BlockHeader* block = static_cast<BlockHeader*>(
      AllocateBlock(RoundUp(kAlignment + num_bytes, kAlignment)));
  return block == nullptr ? nullptr : block + 1;
}

void CpuAllocator::DeallocateRaw(void* ptr) {
  if (ptr == nullptr) return;
  char* header = reinterpret_cast<char*>(static_cast<BlockHeader*>(ptr) - 1);
  header -= reinterpret_cast<BlockHeader*>(header)->offset;
  DeallocateBlock(reinterpret_cast<BlockHeader*>(header));
}

// --8<-- [start:allocate_block]
void* CpuAllocator::AllocateBlock(size_t block_bytes) {
  size_t bytes;
  if (block_bytes <= kMaxSmallBlockBytes) {
    const int size_class = SmallClass(block_bytes);
    bytes = size_t{128} << size_class;
    std::lock_guard<std::mutex> lock(mu_);
    if (BlockHeader* block = small_free_[size_class]; block != nullptr) {
      small_free_[size_class] = block->next;
      cached_bytes_ -= bytes;
      return block;
    }
  } else if (block_bytes >= kMinLargeBlockBytes) {
    bytes = RoundUp(block_bytes, kHugePageBytes);
    std::lock_guard<std::mutex> lock(mu_);
    // The smallest cached block that fits, unless it would waste over half.
    auto it = large_free_.lower_bound(bytes);
    if (it != large_free_.end() && it->first - bytes <= bytes) {
      auto* block = static_cast<BlockHeader*>(it->second);
      cached_bytes_ -= it->first;
      large_free_.erase(it);
      return block;
    }
  } else {
    bytes = block_bytes;
  }
  // Nothing cached fits: ask the operating system, and if it has nothing
  // left, give back what the cache holds and ask once more.
  auto fresh = [&]() -> void* {
    return bytes >= kMinLargeBlockBytes ? MapHugePages(bytes)
                                        : std::aligned_alloc(kAlignment, bytes);
  };
  void* memory = fresh();
  if (memory == nullptr) {
    ReleaseCache();
    memory = fresh();
    if (memory == nullptr) return nullptr;
  }
  auto* block = static_cast<BlockHeader*>(memory);
  block->block_bytes = bytes;
  block->offset = 0;
  return block;
}
// --8<-- [end:allocate_block]

// --8<-- [start:deallocate_block]
void CpuAllocator::DeallocateBlock(BlockHeader* block) {
  const size_t bytes = block->block_bytes;
  if (bytes <= kMaxSmallBlockBytes) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (cached_bytes_ + bytes <= max_cached_bytes_) {
        const int size_class = SmallClass(bytes);
        block->next = small_free_[size_class];
        small_free_[size_class] = block;
        cached_bytes_ += bytes;
        return;
      }
    }
    std::free(block);
    return;
  }
  if (bytes < kMinLargeBlockBytes) {
    std::free(block);
    return;
  }
  std::multimap<size_t, void*> victims;
  bool kept = false;
  if (bytes <= max_cached_bytes_) {
    std::lock_guard<std::mutex> lock(mu_);
    EvictLargeLocked(bytes, &victims);
    if (cached_bytes_ + bytes <= max_cached_bytes_) {
      large_free_.emplace(bytes, block);
      cached_bytes_ += bytes;
      kept = true;
    }
  }
  // Unmapping can take a while; it runs outside the lock.
  if (!kept) munmap(block, bytes);
  for (const auto& [size, victim] : victims) munmap(victim, size);
}
// --8<-- [end:deallocate_block]

void CpuAllocator::EvictLargeLocked(size_t needed,
                                    std::multimap<size_t, void*>* victims) {
  while (cached_bytes_ + needed > max_cached_bytes_ && !large_free_.empty()) {
    auto largest = std::prev(large_free_.end());
    cached_bytes_ -= largest->first;
    victims->insert(victims->end(), *largest);
    large_free_.erase(largest);
  }
}

size_t CpuAllocator::CachedBytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return cached_bytes_;
}

void CpuAllocator::ReleaseCache() {
  std::vector<BlockHeader*> small;
  std::multimap<size_t, void*> large;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (BlockHeader*& head : small_free_) {
      for (BlockHeader* b = head; b != nullptr; b = b->next) small.push_back(b);
      head = nullptr;
    }
    large.swap(large_free_);
    cached_bytes_ = 0;
  }
  for (BlockHeader* b : small) std::free(b);
  for (const auto& [size, block] : large) munmap(block, size);
}

Allocator* cpu_allocator() {
  static CpuAllocator* const allocator = new CpuAllocator;
  return allocator;
}

namespace {
// The innermost live ScopedDefaultAllocator's allocator on this thread, or
// nullptr for none. A plain pointer, so reading it costs one load.
thread_local Allocator* current_default = nullptr;
}  // namespace

Allocator* DefaultAllocator() {
  Allocator* a = current_default;
  return a != nullptr ? a : cpu_allocator();
}

ScopedDefaultAllocator::ScopedDefaultAllocator(Allocator* allocator)
    : allocator_(allocator), previous_(current_default) {
  MINITF_CHECK(allocator != nullptr);
  current_default = allocator;
}

ScopedDefaultAllocator::~ScopedDefaultAllocator() {
  // Ended out of order, or on another thread: minitf's bug.
  MINITF_CHECK(current_default == allocator_);
  current_default = previous_;
}

}  // namespace minitf
