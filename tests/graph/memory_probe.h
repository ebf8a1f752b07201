// Probes for the tests (graph and train) that feed readers lengths a file
// cannot back ("2^60 bytes follow"): did the reader allocate for them anyway?
//
// A std::string or std::vector a reader sizes from a length is zero-filled,
// so its pages count in the process's resident set; a Tensor's bytes come
// from the thread's default allocator, which a test can replace.
//
//   const int64_t before = PeakResidentBytes();
//   LargestRequest allocator;
//   { ScopedDefaultAllocator use(&allocator); ReadTheFile(); }
//   EXPECT_LT(PeakResidentBytes() - before, kHugeBytes);
//   EXPECT_LT(allocator.largest(), kHugeBytes);
#pragma once

#include <sys/resource.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "minitf/tensor/allocator.h"

namespace minitf::testing {

/// Above what any of these small test files needs, far below the lengths
/// the tests write (2^31 and up).
inline constexpr int64_t kHugeBytes = int64_t{256} << 20;

/// The most memory this process has held so far (Linux: ru_maxrss, KiB).
inline int64_t PeakResidentBytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return int64_t{usage.ru_maxrss} * 1024;
}

/// Forwards to the CPU allocator and records the largest request.
class LargestRequest final : public Allocator {
 public:
  std::string Name() const override { return "largest_request"; }
  void* AllocateRaw(size_t alignment, size_t num_bytes) override {
    largest_ = std::max(largest_, num_bytes);
    return cpu_allocator()->AllocateRaw(alignment, num_bytes);
  }
  void DeallocateRaw(void* ptr) override {
    cpu_allocator()->DeallocateRaw(ptr);
  }
  size_t largest() const { return largest_; }

 private:
  size_t largest_ = 0;
};

}  // namespace minitf::testing
