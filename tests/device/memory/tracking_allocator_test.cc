#include "minitf/device/memory/tracking_allocator.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace minitf {
namespace {

// Made on the heap and released with DestroyWhenIdle, as devices do.
struct AllocatorHandle {
  explicit AllocatorHandle(int64_t limit)
      : a(new TrackingAllocator("test_allocator", cpu_allocator(), limit)) {}
  ~AllocatorHandle() { a->DestroyWhenIdle(); }
  TrackingAllocator* a;
};

TEST(TrackingAllocatorTest, CountsWhatIsInUseThePeakAndTheLargest) {
  AllocatorHandle h(0);
  void* p = h.a->AllocateRaw(Allocator::kAlignment, 1000);
  void* q = h.a->AllocateRaw(Allocator::kAlignment, 24);
  ASSERT_NE(p, nullptr);
  ASSERT_NE(q, nullptr);
  AllocatorStats s = h.a->GetStats();
  EXPECT_EQ(s.num_allocs, 2);
  EXPECT_EQ(s.bytes_in_use, 1024);
  EXPECT_EQ(s.max_bytes_in_use, 1024);
  EXPECT_EQ(s.max_alloc_size, 1000);
  EXPECT_EQ(s.bytes_limit, 0);
  h.a->DeallocateRaw(p);
  s = h.a->GetStats();
  EXPECT_EQ(s.bytes_in_use, 24);
  EXPECT_EQ(s.max_bytes_in_use, 1024);
  h.a->DeallocateRaw(q);
  EXPECT_EQ(h.a->GetStats().bytes_in_use, 0);
  EXPECT_EQ(h.a->Name(), "test_allocator");
}

TEST(TrackingAllocatorTest, RefusesPastItsLimitAndNotBefore) {
  AllocatorHandle h(1024);
  void* p = h.a->AllocateRaw(Allocator::kAlignment, 1000);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(h.a->AllocateRaw(Allocator::kAlignment, 25), nullptr);
  void* q = h.a->AllocateRaw(Allocator::kAlignment, 24);  // exactly full
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(h.a->AllocateRaw(Allocator::kAlignment, 1), nullptr);
  AllocatorStats s = h.a->GetStats();
  EXPECT_EQ(s.bytes_in_use, 1024);
  EXPECT_EQ(s.num_allocs, 2);
  EXPECT_EQ(s.num_refused, 2);
  h.a->DeallocateRaw(p);
  void* r = h.a->AllocateRaw(Allocator::kAlignment, 1000);  // room again
  EXPECT_NE(r, nullptr);
  h.a->DeallocateRaw(q);
  h.a->DeallocateRaw(r);
}

TEST(TrackingAllocatorTest, AHugeRequestIsRefusedNotWrapped) {
  AllocatorHandle h(1 << 20);
  EXPECT_EQ(h.a->AllocateRaw(Allocator::kAlignment, SIZE_MAX), nullptr);
  EXPECT_EQ(h.a->GetStats().bytes_in_use, 0);
}

// TensorFlow's AllocatorStats::DebugString, to the column.
TEST(TrackingAllocatorTest, StatsPrintAsTensorFlowPrintsThem) {
  AllocatorStats s;
  s.bytes_limit = 1073741824;
  s.bytes_in_use = 4096;
  s.max_bytes_in_use = 8192;
  s.num_allocs = 3;
  s.max_alloc_size = 4096;
  EXPECT_EQ(s.DebugString(),
            "Limit:                  1073741824\n"
            "InUse:                        4096\n"
            "MaxInUse:                     8192\n"
            "NumAllocs:                       3\n"
            "MaxAllocSize:                 4096\n");
}

TEST(TrackingAllocatorTest, ClearStatsStartsANewMeasurement) {
  AllocatorHandle h(0);
  void* p = h.a->AllocateRaw(Allocator::kAlignment, 100);
  void* q = h.a->AllocateRaw(Allocator::kAlignment, 300);
  h.a->DeallocateRaw(q);
  h.a->ClearStats();
  AllocatorStats s = h.a->GetStats();
  EXPECT_EQ(s.num_allocs, 0);
  EXPECT_EQ(s.bytes_in_use, 100);
  EXPECT_EQ(s.max_bytes_in_use, 100);
  EXPECT_EQ(s.max_alloc_size, 0);
  h.a->DeallocateRaw(p);
}

TEST(TrackingAllocatorTest, OutlivesItsOwnerUntilTheLastBlockReturns) {
  auto* a = new TrackingAllocator("orphan", cpu_allocator(), 0);
  void* p = a->AllocateRaw(Allocator::kAlignment, 64);
  a->DestroyWhenIdle();  // the owner is gone; the block is not
  a->DeallocateRaw(p);   // the allocator deletes itself here
}

TEST(TrackingAllocatorTest, ManyThreadsNeverPassTheLimit) {
  constexpr int64_t kLimit = 64 * 1024;
  AllocatorHandle h(kLimit);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&h] {
      for (int i = 0; i < 2000; ++i) {
        void* p = h.a->AllocateRaw(Allocator::kAlignment, 4096);
        if (p != nullptr) h.a->DeallocateRaw(p);
      }
    });
  }
  for (auto& t : threads) t.join();
  AllocatorStats s = h.a->GetStats();
  EXPECT_EQ(s.bytes_in_use, 0);
  EXPECT_LE(s.max_bytes_in_use, kLimit);
  EXPECT_EQ(s.num_allocs + s.num_refused, 8000);
}

}  // namespace
}  // namespace minitf
