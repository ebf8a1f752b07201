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

}  // namespace minitf
