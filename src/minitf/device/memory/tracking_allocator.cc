#include "minitf/device/memory/tracking_allocator.h"

#include <algorithm>

#include "minitf/tensor/status.h"

namespace minitf {

TrackingAllocator::TrackingAllocator(std::string name, Allocator* base,
                                     int64_t bytes_limit)
    : name_(std::move(name)), base_(base) {
  stats_.bytes_limit = bytes_limit;
}

// --8<-- [start:allocate]
void* TrackingAllocator::AllocateRaw(size_t alignment, size_t num_bytes) {
  const auto n = static_cast<int64_t>(num_bytes);
  {
    // Reserve first, so that two threads cannot both pass the limit check
    // with the last free bytes.
    std::lock_guard<std::mutex> lock(mu_);
    if (n < 0 || (stats_.bytes_limit > 0 &&
                  n > stats_.bytes_limit - stats_.bytes_in_use)) {
      ++stats_.num_refused;
      return nullptr;
    }
    stats_.bytes_in_use += n;
  }
  void* ptr = base_->AllocateRaw(alignment, num_bytes);
  std::lock_guard<std::mutex> lock(mu_);
  if (ptr == nullptr) {
    stats_.bytes_in_use -= n;
    ++stats_.num_refused;
    return nullptr;
  }
  sizes_.emplace(ptr, num_bytes);
  ++stats_.num_allocs;
  stats_.max_bytes_in_use =
      std::max(stats_.max_bytes_in_use, stats_.bytes_in_use);
  stats_.max_alloc_size = std::max(stats_.max_alloc_size, n);
  return ptr;
}
// --8<-- [end:allocate]

void TrackingAllocator::DeallocateRaw(void* ptr) {
  if (ptr == nullptr) return;
  bool destroy;
  {
    // Forgotten before it is returned: once the base allocator has the
    // block, another thread may be handed the same address.
    std::lock_guard<std::mutex> lock(mu_);
    auto it = sizes_.find(ptr);
    MINITF_CHECK(it != sizes_.end());  // a block from another allocator
    stats_.bytes_in_use -= static_cast<int64_t>(it->second);
    sizes_.erase(it);
    destroy = orphaned_ && sizes_.empty();
  }
  base_->DeallocateRaw(ptr);
  if (destroy) delete this;
}

AllocatorStats TrackingAllocator::GetStats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stats_;
}

void TrackingAllocator::ClearStats() {
  std::lock_guard<std::mutex> lock(mu_);
  stats_.num_allocs = 0;
  stats_.num_refused = 0;
  stats_.max_bytes_in_use = stats_.bytes_in_use;
  stats_.max_alloc_size = 0;
}

void TrackingAllocator::DestroyWhenIdle() {
  bool destroy;
  {
    std::lock_guard<std::mutex> lock(mu_);
    orphaned_ = true;
    destroy = sizes_.empty();
  }
  if (destroy) delete this;
}

}  // namespace minitf
