#include "minitf/tensor/allocator.h"

#include <cstdlib>

namespace minitf {
namespace {

class CpuAllocator final : public Allocator {
 public:
  std::string Name() const override { return "cpu"; }

  void* AllocateRaw(size_t alignment, size_t num_bytes) override {
    // aligned_alloc needs a size that is a multiple of the alignment.
    const size_t rounded = (num_bytes + alignment - 1) / alignment * alignment;
    return std::aligned_alloc(alignment, rounded == 0 ? alignment : rounded);
  }

  void DeallocateRaw(void* ptr) override { std::free(ptr); }
};

}  // namespace

Allocator* cpu_allocator() {
  static CpuAllocator* const allocator = new CpuAllocator;
  return allocator;
}

}  // namespace minitf
