// The BFC allocator under threads that allocate and free at once: no chunk
// is handed out twice, nothing is lost, and the counts add up. CI runs this
// binary again under ThreadSanitizer (label tsan).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "minitf/gpu/bfc_allocator.h"

namespace minitf {
namespace {

TEST(BfcAllocatorConcurrencyTest, ThreadsAllocatingAndFreingShareItSafely) {
  constexpr int kThreads = 4;
  constexpr int kRounds = 2000;
  BFCAllocator bfc(std::make_unique<HostSubAllocator>(), 8 << 20,
                   /*allow_growth=*/true, "GPU_0_bfc");
  std::vector<std::thread> threads;
  std::vector<int> refused(kThreads, 0);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&bfc, &refused, t] {
      std::vector<std::pair<unsigned char*, size_t>> held;
      for (int i = 0; i < kRounds; ++i) {
        // Sizes from 1 byte to 16 KiB, different on each thread.
        const size_t size = 1 + (i * 7919 + t * 104729) % (16 << 10);
        auto* p = static_cast<unsigned char*>(bfc.AllocateRaw(64, size));
        if (p == nullptr) {
          ++refused[t];
        } else {
          // Mark every byte with the thread: a chunk handed to two threads
          // at once would show another thread's mark below.
          std::memset(p, t + 1, size);
          held.emplace_back(p, size);
        }
        if (held.size() > 8 || (i % 3 == 0 && !held.empty())) {
          auto [q, n] = held.front();
          const unsigned char mark = t + 1;
          ASSERT_EQ(std::find_if(q, q + n,
                                 [mark](unsigned char c) { return c != mark; }),
                    q + n);
          bfc.DeallocateRaw(q);
          held.erase(held.begin());
        }
      }
      for (auto [q, n] : held) bfc.DeallocateRaw(q);
    });
  }
  for (std::thread& thread : threads) thread.join();

  const AllocatorStats s = bfc.GetStats();
  EXPECT_EQ(s.bytes_in_use, 0);
  int total_refused = 0;
  for (int r : refused) total_refused += r;
  EXPECT_EQ(s.num_allocs + s.num_refused, int64_t{kThreads} * kRounds);
  EXPECT_EQ(s.num_refused, total_refused);
  // Everything freed coalesces back: one free chunk per region.
  for (const auto& region : bfc.ChunkMap()) {
    ASSERT_EQ(region.size(), 1u);
    EXPECT_FALSE(region[0].in_use);
  }
}

}  // namespace
}  // namespace minitf
