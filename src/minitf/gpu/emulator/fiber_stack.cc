#include "minitf/gpu/emulator/fiber_stack.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif

namespace minitf::gpu::emulator {

FiberStack::FiberStack(std::size_t bytes) {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  size_ = (bytes + page - 1) / page * page;
  mapping_bytes_ = size_ + page;
  mapping_ = mmap(nullptr, mapping_bytes_, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapping_ == MAP_FAILED) {
    std::fprintf(stderr, "cuda emulator: cannot map a %zu-byte fiber stack\n",
                 mapping_bytes_);
    std::abort();
  }
  // Stacks grow down: the guard page is the lowest one.
  mprotect(mapping_, page, PROT_NONE);
  bottom_ = static_cast<char*>(mapping_) + page;
}

FiberStack::~FiberStack() { munmap(mapping_, mapping_bytes_); }

#if defined(__SANITIZE_ADDRESS__)
void announce_switch(void** fake_stack, const void* bottom, std::size_t size) {
  __sanitizer_start_switch_fiber(fake_stack, bottom, size);
}
void announce_arrival(void* fake_stack, const void** from_bottom,
                      std::size_t* from_size) {
  __sanitizer_finish_switch_fiber(fake_stack, from_bottom, from_size);
}
#endif

}  // namespace minitf::gpu::emulator
