#include "minitf/device/memory/tracking_allocator.h"

#include <algorithm>
#include <mutex>

#include "minitf/tensor/status.h"

namespace minitf {

TrackingAllocator::TrackingAllocator(std::string name, Allocator* base,
                                     int64_t bytes_limit)
    : DeviceAllocator(bytes_limit), name_(std::move(name)), base_(base) {}

// --8<-- [start:allocate]
void* TrackingAllocator::AllocateRaw(size_t alignment, size_t num_bytes) {
  const auto n = static_cast<int64_t>(num_bytes);
  {
    // Reserve first, so that two threads cannot both pass the limit check
    // with the last free bytes.
    std::lock_guard<std::mutex> lock(mu());
    if (n < 0 || (stats().bytes_limit > 0 &&
                  n > stats().bytes_limit - stats().bytes_in_use)) {
      ++stats().num_refused;
      return nullptr;
    }
    stats().bytes_in_use += n;
  }
  void* ptr = base_->AllocateRaw(alignment, num_bytes);
  std::lock_guard<std::mutex> lock(mu());
  if (ptr == nullptr) {
    stats().bytes_in_use -= n;
    ++stats().num_refused;
    return nullptr;
  }
  sizes_.emplace(ptr, num_bytes);
  ++stats().num_allocs;
  stats().max_bytes_in_use =
      std::max(stats().max_bytes_in_use, stats().bytes_in_use);
  stats().max_alloc_size = std::max(stats().max_alloc_size, n);
  return ptr;
}
// --8<-- [end:allocate]

void TrackingAllocator::DeallocateRaw(void* ptr) {
  if (ptr == nullptr) return;
  bool destroy;
  {
    // Forgotten before it is returned: once the base allocator has the
    // block, another thread may be handed the same address.
    std::lock_guard<std::mutex> lock(mu());
    auto it = sizes_.find(ptr);
    MINITF_CHECK(it != sizes_.end());  // a block from another allocator
    stats().bytes_in_use -= static_cast<int64_t>(it->second);
    sizes_.erase(it);
    destroy = OrphanedAndIdle();
  }
  base_->DeallocateRaw(ptr);
  if (destroy) delete this;
}

}  // namespace minitf
