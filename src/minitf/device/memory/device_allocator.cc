#include "minitf/device/memory/device_allocator.h"

#include <cinttypes>
#include <cstdio>

namespace minitf {

std::string AllocatorStats::DebugString() const {
  char buf[256];
  std::snprintf(buf, sizeof(buf),
                "Limit:        %20" PRId64
                "\n"
                "InUse:        %20" PRId64
                "\n"
                "MaxInUse:     %20" PRId64
                "\n"
                "NumAllocs:    %20" PRId64
                "\n"
                "MaxAllocSize: %20" PRId64 "\n",
                bytes_limit, bytes_in_use, max_bytes_in_use, num_allocs,
                max_alloc_size);
  return buf;
}

AllocatorStats DeviceAllocator::GetStats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stats_;
}

void DeviceAllocator::ClearStats() {
  std::lock_guard<std::mutex> lock(mu_);
  stats_.num_allocs = 0;
  stats_.num_refused = 0;
  stats_.max_bytes_in_use = stats_.bytes_in_use;
  stats_.max_alloc_size = 0;
}

void DeviceAllocator::DestroyWhenIdle() {
  bool destroy;
  {
    std::lock_guard<std::mutex> lock(mu_);
    orphaned_ = true;
    destroy = IdleLocked();
  }
  if (destroy) delete this;
}

}  // namespace minitf
