#include "minitf/gpu/sub_allocator.h"

#include <sys/mman.h>
#include <unistd.h>

namespace minitf {

void* HostSubAllocator::Alloc(size_t alignment, size_t num_bytes) {
  static const size_t kPageBytes = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  if (num_bytes == 0 || alignment > kPageBytes) return nullptr;
  // MAP_NORESERVE: the region is a promise of address space, not of memory;
  // a page the allocator never hands out is never paid for.
  void* ptr = mmap(nullptr, num_bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return ptr == MAP_FAILED ? nullptr : ptr;
}

void HostSubAllocator::Free(void* ptr, size_t num_bytes) {
  if (ptr != nullptr) munmap(ptr, num_bytes);
}

}  // namespace minitf
