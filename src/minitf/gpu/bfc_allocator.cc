#include "minitf/gpu/bfc_allocator.h"

#include <algorithm>
#include <bit>
#include <utility>

#include "minitf/tensor/status.h"

namespace minitf {

BFCAllocator::BFCAllocator(std::unique_ptr<SubAllocator> sub_allocator,
                           size_t total_memory, bool allow_growth,
                           std::string name)
    : DeviceAllocator(static_cast<int64_t>(total_memory)),
      sub_allocator_(std::move(sub_allocator)),
      name_(std::move(name)),
      memory_limit_(total_memory),
      curr_region_allocation_bytes_(RoundedBytes(
          allow_growth ? std::min(total_memory, kInitialGrowthBytes)
                       : total_memory)) {}

BFCAllocator::~BFCAllocator() {
  for (const Region& region : regions_) {
    sub_allocator_->Free(region.ptr, region.size);
  }
}

bool BFCAllocator::HostAccessible() const {
  return sub_allocator_->HostAccessible();
}

size_t BFCAllocator::RoundedBytes(size_t bytes) {
  return (bytes + kMinAllocationSize - 1) / kMinAllocationSize *
         kMinAllocationSize;
}

int BFCAllocator::BinNumForSize(size_t bytes) {
  // floor(log2(units)) is the index of the highest bit set.
  const size_t units =
      std::max(bytes, kMinAllocationSize) >> kMinAllocationBits;
  return std::min(kNumBins - 1, static_cast<int>(std::bit_width(units)) - 1);
}

// --8<-- [start:allocate]
void* BFCAllocator::AllocateRaw(size_t alignment, size_t num_bytes) {
  // Chunks start at multiples of 256 from a region's start, and regions are
  // at least that aligned: any smaller alignment comes free.
  MINITF_CHECK(alignment <= kMinAllocationSize);
  std::lock_guard<std::mutex> lock(mu());
  // A request past the limit can never fit (and must not overflow below).
  if (num_bytes > memory_limit_) {
    ++stats().num_refused;
    return nullptr;
  }
  const size_t rounded_bytes = RoundedBytes(std::max<size_t>(num_bytes, 1));
  const int bin = BinNumForSize(rounded_bytes);
  void* ptr = FindChunkPtr(bin, rounded_bytes, num_bytes);
  // Nothing free fits: ask the sub-allocator for a new region, then look
  // again (the new region is one free chunk, in the last bins).
  if (ptr == nullptr && Extend(rounded_bytes)) {
    ptr = FindChunkPtr(bin, rounded_bytes, num_bytes);
  }
  if (ptr == nullptr) ++stats().num_refused;
  return ptr;
}

void* BFCAllocator::FindChunkPtr(int bin, size_t rounded_bytes,
                                 size_t num_bytes) {
  // The request's own bin may hold chunks too small for it (a bin spans a
  // factor of two); every bin above holds only chunks that fit.
  for (; bin < kNumBins; ++bin) {
    auto fit = bins_[bin].lower_bound(BinEntry{rounded_bytes, nullptr, 0});
    if (fit == bins_[bin].end()) continue;
    const ChunkHandle h = fit->handle;
    RemoveFreeChunkFromBin(h);
    // Split off the rest when it is at least as large as the request, or
    // when keeping it would waste kMaxInternalFragmentation or more.
    const size_t size = chunks_[h].size;
    if (size >= 2 * rounded_bytes ||
        size - rounded_bytes >= kMaxInternalFragmentation) {
      SplitChunk(h, rounded_bytes);
    }
    Chunk& chunk = chunks_[h];
    chunk.requested_size = num_bytes;
    chunk.allocation_id = next_allocation_id_++;
    const auto chunk_bytes = static_cast<int64_t>(chunk.size);
    ++stats().num_allocs;
    stats().bytes_in_use += chunk_bytes;
    stats().max_bytes_in_use =
        std::max(stats().max_bytes_in_use, stats().bytes_in_use);
    stats().max_alloc_size = std::max(stats().max_alloc_size, chunk_bytes);
    return chunk.ptr;
  }
  return nullptr;
}

void BFCAllocator::SplitChunk(ChunkHandle h, size_t num_bytes) {
  const ChunkHandle rest = NewChunk();  // may move chunks_: index after it
  Chunk& c = chunks_[h];
  Chunk& r = chunks_[rest];
  r.ptr = c.ptr + num_bytes;
  r.size = c.size - num_bytes;
  c.size = num_bytes;
  // c <-> next becomes c <-> rest <-> next.
  r.prev = h;
  r.next = c.next;
  if (c.next != kInvalidChunkHandle) chunks_[c.next].prev = rest;
  c.next = rest;
  HandleSlot(r.ptr) = rest;
  InsertFreeChunkIntoBin(rest);
}
// --8<-- [end:allocate]

// --8<-- [start:extend]
bool BFCAllocator::Extend(size_t rounded_bytes) {
  const size_t available_bytes =
      (memory_limit_ - total_region_allocated_bytes_) / kMinAllocationSize *
      kMinAllocationSize;
  if (rounded_bytes > available_bytes) return false;
  // Regions grow geometrically: double until the request fits, and double
  // again after a region that did not have to grow for its request, so that
  // a process that keeps asking makes few regions.
  bool increased_allocation = false;
  while (rounded_bytes > curr_region_allocation_bytes_) {
    curr_region_allocation_bytes_ *= 2;
    increased_allocation = true;
  }
  size_t bytes = std::min(curr_region_allocation_bytes_, available_bytes);
  void* mem = sub_allocator_->Alloc(kMinAllocationSize, bytes);
  // The memory may hold less than the limit says (another process has some
  // of it): the first time, back off by 10% at a time down to the request.
  if (mem == nullptr && !started_backpedal_) {
    started_backpedal_ = true;
    constexpr float kBackpedalFactor = 0.9f;  // TensorFlow's, a float
    while (mem == nullptr) {
      bytes = RoundedBytes(static_cast<size_t>(bytes * kBackpedalFactor));
      if (bytes < rounded_bytes) break;
      mem = sub_allocator_->Alloc(kMinAllocationSize, bytes);
    }
  }
  if (mem == nullptr) return false;
  if (!increased_allocation) curr_region_allocation_bytes_ *= 2;
  total_region_allocated_bytes_ += bytes;

  Region region{static_cast<char*>(mem), bytes,
                std::vector<ChunkHandle>(bytes / kMinAllocationSize,
                                         kInvalidChunkHandle)};
  auto at = std::upper_bound(
      regions_.begin(), regions_.end(), region.end(),
      [](const char* end, const Region& r) { return end < r.end(); });
  regions_.insert(at, std::move(region));
  regions_by_age_.push_back(static_cast<char*>(mem));

  // The whole region is one free chunk, to be cut up by later requests.
  const ChunkHandle h = NewChunk();
  chunks_[h].ptr = static_cast<char*>(mem);
  chunks_[h].size = bytes;
  HandleSlot(mem) = h;
  InsertFreeChunkIntoBin(h);
  return true;
}
// --8<-- [end:extend]

// --8<-- [start:deallocate]
void BFCAllocator::DeallocateRaw(void* ptr) {
  if (ptr == nullptr) return;
  bool destroy;
  {
    std::lock_guard<std::mutex> lock(mu());
    const ChunkHandle h = HandleFor(ptr);
    // A pointer that is no chunk of ours, or one freed twice.
    MINITF_CHECK(h != kInvalidChunkHandle && chunks_[h].in_use());
    Chunk& c = chunks_[h];
    c.allocation_id = -1;
    c.requested_size = 0;
    stats().bytes_in_use -= static_cast<int64_t>(c.size);
    InsertFreeChunkIntoBin(TryToCoalesce(h));
    destroy = OrphanedAndIdle();
  }
  if (destroy) delete this;
}

BFCAllocator::ChunkHandle BFCAllocator::TryToCoalesce(ChunkHandle h) {
  ChunkHandle coalesced = h;
  // The next chunk, if free, is merged into this one...
  const ChunkHandle next = chunks_[h].next;
  if (next != kInvalidChunkHandle && !chunks_[next].in_use()) {
    RemoveFreeChunkFromBin(next);
    Merge(h, next);
  }
  // ...and this one, if the previous chunk is free, into that.
  const ChunkHandle prev = chunks_[h].prev;
  if (prev != kInvalidChunkHandle && !chunks_[prev].in_use()) {
    RemoveFreeChunkFromBin(prev);
    Merge(prev, h);
    coalesced = prev;
  }
  return coalesced;
}

void BFCAllocator::Merge(ChunkHandle first, ChunkHandle second) {
  Chunk& a = chunks_[first];
  const Chunk& b = chunks_[second];
  MINITF_CHECK(a.next == second && b.prev == first);
  a.size += b.size;
  a.next = b.next;
  if (b.next != kInvalidChunkHandle) chunks_[b.next].prev = first;
  DeleteChunk(second);
}
// --8<-- [end:deallocate]

void BFCAllocator::InsertFreeChunkIntoBin(ChunkHandle h) {
  Chunk& c = chunks_[h];
  MINITF_CHECK(!c.in_use() && c.bin == -1);
  c.bin = BinNumForSize(c.size);
  bins_[c.bin].insert(BinEntry{c.size, c.ptr, h});
}

void BFCAllocator::RemoveFreeChunkFromBin(ChunkHandle h) {
  Chunk& c = chunks_[h];
  MINITF_CHECK(!c.in_use() && c.bin != -1);
  MINITF_CHECK(bins_[c.bin].erase(BinEntry{c.size, c.ptr, h}) == 1);
  c.bin = -1;
}

BFCAllocator::ChunkHandle BFCAllocator::NewChunk() {
  // Handles of deleted chunks are kept in a list threaded through `next`.
  if (free_chunks_list_ != kInvalidChunkHandle) {
    const ChunkHandle h = free_chunks_list_;
    free_chunks_list_ = chunks_[h].next;
    chunks_[h] = Chunk{};
    return h;
  }
  chunks_.emplace_back();
  return static_cast<ChunkHandle>(chunks_.size() - 1);
}

void BFCAllocator::DeleteChunk(ChunkHandle h) {
  HandleSlot(chunks_[h].ptr) = kInvalidChunkHandle;
  chunks_[h] = Chunk{};
  chunks_[h].next = free_chunks_list_;
  free_chunks_list_ = h;
}

const BFCAllocator::Region* BFCAllocator::RegionFor(const void* ptr) const {
  const char* p = static_cast<const char*>(ptr);
  // The first region that ends after p is the only one that may hold it.
  auto it = std::upper_bound(
      regions_.begin(), regions_.end(), p,
      [](const char* q, const Region& r) { return q < r.end(); });
  if (it == regions_.end() || p < it->ptr) return nullptr;
  return &*it;
}

BFCAllocator::ChunkHandle& BFCAllocator::HandleSlot(const void* ptr) {
  const Region* region = RegionFor(ptr);
  MINITF_CHECK(region != nullptr);
  const size_t index =
      (static_cast<const char*>(ptr) - region->ptr) / kMinAllocationSize;
  return const_cast<Region*>(region)->handles[index];
}

BFCAllocator::ChunkHandle BFCAllocator::HandleFor(const void* ptr) const {
  const Region* region = RegionFor(ptr);
  if (region == nullptr) return kInvalidChunkHandle;
  const size_t offset = static_cast<const char*>(ptr) - region->ptr;
  if (offset % kMinAllocationSize != 0) return kInvalidChunkHandle;
  return region->handles[offset / kMinAllocationSize];
}

size_t BFCAllocator::AllocatedSize(const void* ptr) const {
  std::lock_guard<std::mutex> lock(mu());
  const ChunkHandle h = HandleFor(ptr);
  MINITF_CHECK(h != kInvalidChunkHandle && chunks_[h].in_use());
  return chunks_[h].size;
}

std::vector<std::vector<BFCAllocator::ChunkInfo>> BFCAllocator::ChunkMap()
    const {
  std::lock_guard<std::mutex> lock(mu());
  std::vector<std::vector<ChunkInfo>> map;
  for (const char* start : regions_by_age_) {
    const Region* region = RegionFor(start);
    std::vector<ChunkInfo>& chunks = map.emplace_back();
    for (ChunkHandle h = region->handles[0]; h != kInvalidChunkHandle;
         h = chunks_[h].next) {
      const Chunk& c = chunks_[h];
      chunks.push_back(ChunkInfo{static_cast<size_t>(c.ptr - region->ptr),
                                 c.size, c.requested_size, c.in_use(), c.bin});
    }
  }
  return map;
}

std::vector<size_t> BFCAllocator::RegionSizes() const {
  std::lock_guard<std::mutex> lock(mu());
  std::vector<size_t> sizes;
  for (const char* start : regions_by_age_)
    sizes.push_back(RegionFor(start)->size);
  return sizes;
}

}  // namespace minitf
