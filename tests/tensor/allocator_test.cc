#include "minitf/tensor/allocator.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <limits>
#include <set>
#include <thread>
#include <vector>

#include "minitf/tensor/kernels/cwise_ops.h"
#include "minitf/tensor/kernels/matmul.h"
#include "minitf/tensor/kernels/reduction_ops.h"
#include "minitf/tensor/tensor.h"

namespace minitf {
namespace {

constexpr size_t kMiB = size_t{1} << 20;

bool IsAligned(const void* p, size_t alignment) {
  return reinterpret_cast<uintptr_t>(p) % alignment == 0;
}

// --- Reuse ------------------------------------------------------------------

// --8<-- [start:reuse]
TEST(CpuAllocatorTest, AFreedBlockIsHandedOutAgainForTheSameSize) {
  CpuAllocator allocator;
  for (size_t bytes : {size_t{4}, size_t{1000}, 3 * kMiB, 64 * kMiB}) {
    const size_t cached = allocator.CachedBytes();
    void* first = allocator.AllocateRaw(Allocator::kAlignment, bytes);
    ASSERT_NE(first, nullptr);
    allocator.DeallocateRaw(first);  // kept, header included
    EXPECT_GT(allocator.CachedBytes(), cached + bytes) << bytes;
    void* second = allocator.AllocateRaw(Allocator::kAlignment, bytes);
    EXPECT_EQ(second, first) << bytes;
    EXPECT_EQ(allocator.CachedBytes(), cached) << bytes;
    allocator.DeallocateRaw(second);
  }
}
// --8<-- [end:reuse]

TEST(CpuAllocatorTest, SmallSizesShareAPowerOfTwoClass) {
  CpuAllocator allocator;
  void* p = allocator.AllocateRaw(Allocator::kAlignment, 100);  // class 256
  allocator.DeallocateRaw(p);
  EXPECT_EQ(allocator.CachedBytes(), 256u);
  EXPECT_EQ(allocator.AllocateRaw(Allocator::kAlignment, 150), p);
  allocator.DeallocateRaw(p);
}

TEST(CpuAllocatorTest, LargeBlocksAreWholeHugePagesAndReusedBySize) {
  CpuAllocator allocator;
  void* p = allocator.AllocateRaw(Allocator::kAlignment, 3 * kMiB);
  allocator.DeallocateRaw(p);
  EXPECT_EQ(allocator.CachedBytes(), 4 * kMiB);
  // 3.5 MiB also fits in the cached 4 MiB block.
  EXPECT_EQ(allocator.AllocateRaw(Allocator::kAlignment, 3 * kMiB + kMiB / 2),
            p);
  allocator.DeallocateRaw(p);
}

TEST(CpuAllocatorTest, ALargeBlockIsNotSpentOnARequestUnderHalfItsSize) {
  CpuAllocator allocator;
  void* big = allocator.AllocateRaw(Allocator::kAlignment, 64 * kMiB);
  allocator.DeallocateRaw(big);
  const size_t cached = allocator.CachedBytes();
  void* small = allocator.AllocateRaw(Allocator::kAlignment, 2 * kMiB);
  EXPECT_NE(small, big);
  EXPECT_EQ(allocator.CachedBytes(), cached);
  allocator.DeallocateRaw(small);
}

TEST(CpuAllocatorTest, MediumBlocksAreNotCached) {
  CpuAllocator allocator;
  void* p = allocator.AllocateRaw(Allocator::kAlignment, 100000);
  ASSERT_NE(p, nullptr);
  std::memset(p, 1, 100000);
  allocator.DeallocateRaw(p);
  EXPECT_EQ(allocator.CachedBytes(), 0u);
}

TEST(CpuAllocatorTest, ReleaseCacheEmptiesTheBins) {
  CpuAllocator allocator;
  void* small = allocator.AllocateRaw(Allocator::kAlignment, 8);
  void* large = allocator.AllocateRaw(Allocator::kAlignment, 2 * kMiB);
  allocator.DeallocateRaw(small);
  allocator.DeallocateRaw(large);
  EXPECT_GT(allocator.CachedBytes(), 0u);
  allocator.ReleaseCache();
  EXPECT_EQ(allocator.CachedBytes(), 0u);
}

// --- The cap ----------------------------------------------------------------

TEST(CpuAllocatorTest, CachedBytesNeverExceedTheCap) {
  CpuAllocator allocator(/*max_cached_bytes=*/10 * kMiB);
  std::vector<void*> blocks;
  for (int i = 0; i < 4; ++i) {  // four blocks of 4 MiB: 16 MiB in use
    blocks.push_back(allocator.AllocateRaw(Allocator::kAlignment, 3 * kMiB));
  }
  for (void* p : blocks) {
    allocator.DeallocateRaw(p);
    EXPECT_LE(allocator.CachedBytes(), 10 * kMiB);
  }
  EXPECT_EQ(allocator.CachedBytes(), 8 * kMiB);
}

TEST(CpuAllocatorTest, ABlockLargerThanTheCapIsReturnedAtOnce) {
  CpuAllocator allocator(/*max_cached_bytes=*/4 * kMiB);
  allocator.DeallocateRaw(
      allocator.AllocateRaw(Allocator::kAlignment, 8 * kMiB));
  EXPECT_EQ(allocator.CachedBytes(), 0u);
}

TEST(CpuAllocatorTest, ANewLargeBlockEvictsCachedOnesToFit) {
  CpuAllocator allocator(/*max_cached_bytes=*/8 * kMiB);
  void* a = allocator.AllocateRaw(Allocator::kAlignment, 5 * kMiB);  // 6 MiB
  void* b = allocator.AllocateRaw(Allocator::kAlignment, 3 * kMiB);  // 4 MiB
  allocator.DeallocateRaw(a);  // 6 MiB cached
  allocator.DeallocateRaw(b);  // 10 MiB would not fit: a goes, b stays
  EXPECT_EQ(allocator.CachedBytes(), 4 * kMiB);
  EXPECT_EQ(allocator.AllocateRaw(Allocator::kAlignment, 3 * kMiB), b);
  allocator.DeallocateRaw(b);
}

TEST(CpuAllocatorTest, ACapOfZeroCachesNothing) {
  CpuAllocator allocator(/*max_cached_bytes=*/0);
  for (size_t bytes : {size_t{0}, size_t{64}, 2 * kMiB}) {
    allocator.DeallocateRaw(
        allocator.AllocateRaw(Allocator::kAlignment, bytes));
    EXPECT_EQ(allocator.CachedBytes(), 0u) << bytes;
  }
}

// --- Alignment, zero bytes, out of memory -----------------------------------

TEST(CpuAllocatorTest, EveryBlockIsAlignedAndWritable) {
  CpuAllocator allocator;
  for (size_t alignment : {size_t{1}, size_t{16}, size_t{64}, size_t{128},
                           size_t{4096}, 2 * kMiB}) {
    for (size_t bytes :
         {size_t{0}, size_t{1}, size_t{63}, size_t{64}, size_t{65},
          size_t{4000}, size_t{5000}, size_t{100000}, 2 * kMiB, 5 * kMiB + 3}) {
      void* p = allocator.AllocateRaw(alignment, bytes);
      ASSERT_NE(p, nullptr) << alignment << " " << bytes;
      EXPECT_TRUE(IsAligned(p, std::max(alignment, Allocator::kAlignment)))
          << alignment << " " << bytes;
      std::memset(p, 0xab, bytes);
      allocator.DeallocateRaw(p);
    }
  }
}

TEST(CpuAllocatorTest, AnAlignmentThatIsNotAPowerOfTwoIsRefused) {
  CpuAllocator allocator;
  EXPECT_EQ(allocator.AllocateRaw(0, 16), nullptr);
  EXPECT_EQ(allocator.AllocateRaw(48, 16), nullptr);
}

TEST(CpuAllocatorTest, ZeroByteRequestsGetDistinctPointers) {
  CpuAllocator allocator;
  std::set<void*> seen;
  std::vector<void*> blocks;
  for (int i = 0; i < 100; ++i) {
    void* p = allocator.AllocateRaw(Allocator::kAlignment, 0);
    ASSERT_NE(p, nullptr);
    EXPECT_TRUE(seen.insert(p).second);
    blocks.push_back(p);
  }
  for (void* p : blocks) allocator.DeallocateRaw(p);
  allocator.DeallocateRaw(nullptr);  // a no-op, as free(nullptr)
}

TEST(CpuAllocatorTest, OutOfMemoryReturnsNull) {
  CpuAllocator allocator;
  constexpr size_t kMax = std::numeric_limits<size_t>::max();
  // Sizes whose header and rounding would overflow, and one (1 PiB) that
  // fits in size_t but not in any machine's address space.
  for (size_t bytes : {kMax, kMax - 64, kMax - 3 * kMiB, size_t{1} << 50}) {
    EXPECT_EQ(allocator.AllocateRaw(Allocator::kAlignment, bytes), nullptr)
        << bytes;
    EXPECT_EQ(allocator.AllocateRaw(4096, bytes), nullptr) << bytes;
  }
  // The allocator still works afterwards.
  void* p = allocator.AllocateRaw(Allocator::kAlignment, 16);
  EXPECT_NE(p, nullptr);
  allocator.DeallocateRaw(p);
}

// --- Threads ----------------------------------------------------------------

// Each thread allocates blocks of mixed sizes, fills each with its own
// byte, checks the byte is still there before freeing: two threads handed
// the same block would overwrite each other's.
TEST(CpuAllocatorTest, ManyThreadsNeverShareABlock) {
  CpuAllocator allocator(/*max_cached_bytes=*/16 * kMiB);
  constexpr int kThreads = 4;
  std::atomic<int> corrupted{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&allocator, &corrupted, t] {
      const size_t sizes[] = {0, 8, 100, 1000, 3000, 20000, 2 * kMiB};
      const auto mark = static_cast<unsigned char>(t + 1);
      std::vector<std::pair<unsigned char*, size_t>> live;
      for (int i = 0; i < 4000; ++i) {
        const size_t bytes = sizes[(i + t) % 7];
        auto* p = static_cast<unsigned char*>(
            allocator.AllocateRaw(Allocator::kAlignment, bytes));
        if (p == nullptr) {
          ++corrupted;
          continue;
        }
        std::memset(p, mark, bytes);
        live.emplace_back(p, bytes);
        if (live.size() > 8 || i % 3 == 0) {
          auto [q, n] = live.front();
          live.erase(live.begin());
          for (size_t k = 0; k < n; k += 97) {
            if (q[k] != mark) ++corrupted;
          }
          allocator.DeallocateRaw(q);
        }
      }
      for (auto [q, n] : live) allocator.DeallocateRaw(q);
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(corrupted.load(), 0);
  EXPECT_LE(allocator.CachedBytes(), 16 * kMiB);
}

TEST(CpuAllocatorTest, ABlockMayBeFreedOnAnotherThread) {
  CpuAllocator allocator;
  std::vector<void*> blocks;
  for (int i = 0; i < 100; ++i) {
    blocks.push_back(allocator.AllocateRaw(Allocator::kAlignment, 64 * i));
  }
  std::thread([&] {
    for (void* p : blocks) allocator.DeallocateRaw(p);
  }).join();
  EXPECT_GT(allocator.CachedBytes(), 0u);
}

// --- Buffers ----------------------------------------------------------------

// Counts the calls it passes on to the CPU allocator.
class CountingAllocator final : public Allocator {
 public:
  explicit CountingAllocator(bool host_accessible)
      : host_accessible_(host_accessible) {}
  std::string Name() const override { return "counting"; }
  void* AllocateRaw(size_t alignment, size_t num_bytes) override {
    ++allocations;
    return cpu_allocator()->AllocateRaw(alignment, num_bytes);
  }
  void DeallocateRaw(void* ptr) override {
    ++deallocations;
    cpu_allocator()->DeallocateRaw(ptr);
  }
  bool HostAccessible() const override { return host_accessible_; }

  int allocations = 0;
  int deallocations = 0;

 private:
  const bool host_accessible_;
};

TEST(BufferTest, AHostTensorIsOneAllocation) {
  CountingAllocator allocator(/*host_accessible=*/true);
  {
    Tensor t(&allocator, DT_FLOAT, {2, 3});
    EXPECT_EQ(allocator.allocations, 1);
    EXPECT_EQ(t.TotalBytes(), 24u);
    EXPECT_TRUE(IsAligned(t.data<float>(), Allocator::kAlignment));
    Tensor copy = t;  // shares the block
    EXPECT_EQ(allocator.allocations, 1);
  }
  EXPECT_EQ(allocator.deallocations, 1);
}

TEST(BufferTest, DeviceMemoryKeepsItsDataApart) {
  // The control block cannot live in memory the CPU may not touch.
  CountingAllocator allocator(/*host_accessible=*/false);
  {
    const Tensor t(&allocator, DT_FLOAT, {5});
    EXPECT_EQ(t.TotalBytes(), 20u);
    EXPECT_EQ(allocator.allocations, 1);
  }
  EXPECT_EQ(allocator.deallocations, 1);
}

TEST(BufferTest, CreateReturnsNullWhenOutOfMemory) {
  EXPECT_EQ(Buffer::Create(cpu_allocator(), size_t{1} << 50), nullptr);
  EXPECT_EQ(Buffer::Create(cpu_allocator(), std::numeric_limits<size_t>::max()),
            nullptr);
  CountingAllocator device(/*host_accessible=*/false);
  EXPECT_EQ(Buffer::Create(&device, size_t{1} << 50), nullptr);
}

// --- The default allocator --------------------------------------------------

// Grants its first `allowed` requests (from the CPU allocator), then refuses
// every one, as a device whose memory has filled up.
class FillingAllocator final : public Allocator {
 public:
  explicit FillingAllocator(int allowed) : allowed_(allowed) {}
  std::string Name() const override { return "filling"; }
  void* AllocateRaw(size_t alignment, size_t num_bytes) override {
    if (allowed_ == 0) return nullptr;
    --allowed_;
    return cpu_allocator()->AllocateRaw(alignment, num_bytes);
  }
  void DeallocateRaw(void* ptr) override {
    cpu_allocator()->DeallocateRaw(ptr);
  }

 private:
  int allowed_;
};

TEST(DefaultAllocatorTest, IsTheCpuAllocatorWithoutAScope) {
  EXPECT_EQ(DefaultAllocator(), cpu_allocator());
  EXPECT_EQ(Tensor(DT_FLOAT, {2}).allocator(), cpu_allocator());
}

// --8<-- [start:default_allocator_scope]
TEST(DefaultAllocatorTest, AScopeDecidesWhereNewTensorsGo) {
  CountingAllocator device(/*host_accessible=*/true);
  {
    ScopedDefaultAllocator on_device(&device);
    EXPECT_EQ(DefaultAllocator(), &device);
    const Tensor made(DT_FLOAT, {2, 3});
    const Tensor literal({1.f, 2.f});
    const Tensor scalar(3.f);
    EXPECT_EQ(made.allocator(), &device);
    EXPECT_EQ(literal.allocator(), &device);
    EXPECT_EQ(scalar.allocator(), &device);
    EXPECT_EQ(Tensor::Allocate(DT_INT32, {4}).value().allocator(), &device);
    // Layer 1's functions make their results there too.
    const Tensor sum = kernels::Add(literal, literal).value();
    EXPECT_EQ(sum.allocator(), &device);
    EXPECT_EQ(sum.ToVector<float>(), (std::vector<float>{2.f, 4.f}));
    // An explicit allocator still wins.
    EXPECT_EQ(Tensor(cpu_allocator(), DT_FLOAT, {2}).allocator(),
              cpu_allocator());
    EXPECT_EQ(device.allocations, 5);
  }
  EXPECT_EQ(device.deallocations, 5);
  EXPECT_EQ(DefaultAllocator(), cpu_allocator());
}
// --8<-- [end:default_allocator_scope]

TEST(DefaultAllocatorTest, ANestedScopeRestoresThePreviousAllocator) {
  CountingAllocator outer(/*host_accessible=*/true);
  CountingAllocator inner(/*host_accessible=*/true);
  {
    ScopedDefaultAllocator a(&outer);
    {
      ScopedDefaultAllocator b(&inner);
      EXPECT_EQ(DefaultAllocator(), &inner);
      {
        ScopedDefaultAllocator c(cpu_allocator());
        EXPECT_EQ(DefaultAllocator(), cpu_allocator());
      }
      EXPECT_EQ(DefaultAllocator(), &inner);
    }
    EXPECT_EQ(DefaultAllocator(), &outer);
  }
  EXPECT_EQ(DefaultAllocator(), cpu_allocator());
}

TEST(DefaultAllocatorTest, BelongsToTheThreadThatOpenedTheScope) {
  CountingAllocator device(/*host_accessible=*/true);
  ScopedDefaultAllocator on_device(&device);
  Allocator* seen = nullptr;
  Allocator* made_with = nullptr;
  std::thread([&] {
    seen = DefaultAllocator();
    made_with = Tensor(DT_FLOAT, {8}).allocator();
  }).join();
  EXPECT_EQ(seen, cpu_allocator());
  EXPECT_EQ(made_with, cpu_allocator());
  EXPECT_EQ(DefaultAllocator(), &device);
  EXPECT_EQ(device.allocations, 0);
}

TEST(DefaultAllocatorTest, AFullDefaultIsAnErrorForAllocateAndForKernels) {
  const Tensor x({{1.f, 2.f}, {3.f, 4.f}});
  const Tensor cube({{{1.f, 2.f}, {3.f, 4.f}}, {{5.f, 6.f}, {7.f, 8.f}}});
  {
    FillingAllocator full(0);
    ScopedDefaultAllocator on_full(&full);
    const Status s = Tensor::Allocate(DT_FLOAT, {2, 3}).status();
    EXPECT_EQ(s.code(), error::RESOURCE_EXHAUSTED);
    EXPECT_EQ(s.message(),
              "OOM when allocating tensor with shape[2,3] and type float on "
              "filling");
    EXPECT_EQ(kernels::MatMul(x, x).status().code(), error::RESOURCE_EXHAUSTED);
  }
  // Reducing axes 0 and 2 of [2,2,2] takes two passes through a scratch
  // tensor: when only the output fits, the scratch is refused, not a crash.
  FillingAllocator one(1);
  ScopedDefaultAllocator on_one(&one);
  EXPECT_EQ(
      kernels::ReduceSum(cube, std::vector<int>{0, 2}, false).status().code(),
      error::RESOURCE_EXHAUSTED);
}

}  // namespace
}  // namespace minitf
