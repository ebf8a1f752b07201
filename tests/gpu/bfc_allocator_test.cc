// The BFC allocator over host memory: rounding, bins, best fit, splitting,
// coalescing, growth, statistics and fragmentation, with TensorFlow's
// numbers.
#include "minitf/gpu/bfc_allocator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <vector>

#include "minitf/tensor/tensor.h"

namespace minitf {
namespace {

constexpr size_t kKiB = size_t{1} << 10;
constexpr size_t kMiB = size_t{1} << 20;

// Host memory that remembers what it was asked for, may refuse blocks above
// a size (a card with less free memory than the limit), and counts the
// regions it still has out.
class RecordingSubAllocator final : public SubAllocator {
 public:
  explicit RecordingSubAllocator(size_t largest = ~size_t{0},
                                 int* regions_out = nullptr)
      : largest_(largest), regions_out_(regions_out) {}
  void* Alloc(size_t alignment, size_t num_bytes) override {
    requests.push_back(num_bytes);
    if (num_bytes > largest_) return nullptr;
    void* ptr = host_.Alloc(alignment, num_bytes);
    if (ptr != nullptr && regions_out_ != nullptr) ++*regions_out_;
    return ptr;
  }
  void Free(void* ptr, size_t num_bytes) override {
    host_.Free(ptr, num_bytes);
    if (regions_out_ != nullptr) --*regions_out_;
  }
  bool HostAccessible() const override { return true; }

  std::vector<size_t> requests;

 private:
  HostSubAllocator host_;
  const size_t largest_;
  int* const regions_out_;
};

std::unique_ptr<BFCAllocator> MakeBfc(size_t total, bool allow_growth = false,
                                      size_t largest = ~size_t{0}) {
  return std::make_unique<BFCAllocator>(
      std::make_unique<RecordingSubAllocator>(largest), total, allow_growth,
      "GPU_0_bfc");
}

// The (size, in_use) of each chunk of the first region, in address order.
std::vector<std::pair<size_t, bool>> Layout(const BFCAllocator& bfc) {
  std::vector<std::pair<size_t, bool>> layout;
  const auto map = bfc.ChunkMap();
  for (const BFCAllocator::ChunkInfo& c : map.at(0)) {
    layout.emplace_back(c.size, c.in_use);
  }
  return layout;
}

// The allocator's invariants, checked from outside: chunks tile each
// region, free chunks are in their size's bin, and no two are neighbours.
void ExpectConsistent(const BFCAllocator& bfc) {
  const std::vector<size_t> regions = bfc.RegionSizes();
  const auto map = bfc.ChunkMap();
  ASSERT_EQ(map.size(), regions.size());
  int64_t in_use = 0;
  for (size_t r = 0; r < map.size(); ++r) {
    size_t offset = 0;
    bool previous_free = false;
    for (const BFCAllocator::ChunkInfo& c : map[r]) {
      EXPECT_EQ(c.offset, offset);
      EXPECT_EQ(c.size % 256, 0u);
      EXPECT_EQ(c.bin, c.in_use ? -1 : BFCAllocator::BinNumForSize(c.size));
      EXPECT_FALSE(previous_free && !c.in_use)
          << "free neighbours at " << offset;
      previous_free = !c.in_use;
      if (c.in_use) in_use += static_cast<int64_t>(c.size);
      offset += c.size;
    }
    EXPECT_EQ(offset, regions[r]);
  }
  EXPECT_EQ(bfc.GetStats().bytes_in_use, in_use);
}

TEST(BfcAllocatorTest, RoundsEveryRequestUpTo256Bytes) {
  EXPECT_EQ(BFCAllocator::RoundedBytes(0), 0u);
  EXPECT_EQ(BFCAllocator::RoundedBytes(1), 256u);
  EXPECT_EQ(BFCAllocator::RoundedBytes(256), 256u);
  EXPECT_EQ(BFCAllocator::RoundedBytes(257), 512u);
  EXPECT_EQ(BFCAllocator::RoundedBytes(1000), 1024u);

  auto bfc = MakeBfc(kMiB);
  void* small = bfc->AllocateRaw(64, 1);
  void* empty = bfc->AllocateRaw(64, 0);  // still a distinct chunk
  void* odd = bfc->AllocateRaw(64, 1000);
  EXPECT_EQ(bfc->AllocatedSize(small), 256u);
  EXPECT_EQ(bfc->AllocatedSize(empty), 256u);
  EXPECT_NE(small, empty);
  EXPECT_EQ(bfc->AllocatedSize(odd), 1024u);
  for (void* p : {small, empty, odd}) {
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 256, 0u);
    bfc->DeallocateRaw(p);
  }
}

TEST(BfcAllocatorTest, TwentyOneBinsOfDoublingSizes) {
  EXPECT_EQ(BFCAllocator::kNumBins, 21);
  EXPECT_EQ(BFCAllocator::BinNumToSize(0), 256u);
  EXPECT_EQ(BFCAllocator::BinNumToSize(20), 256 * kMiB);
  // TensorFlow's constructor checks the same: bin b holds [s, 2s).
  for (int b = 0; b < BFCAllocator::kNumBins; ++b) {
    const size_t s = BFCAllocator::BinNumToSize(b);
    EXPECT_EQ(BFCAllocator::BinNumForSize(s), b);
    EXPECT_EQ(BFCAllocator::BinNumForSize(s + 255), b);
    EXPECT_EQ(BFCAllocator::BinNumForSize(2 * s - 1), b);
    if (b + 1 < BFCAllocator::kNumBins) {
      EXPECT_EQ(BFCAllocator::BinNumForSize(2 * s), b + 1);
    }
  }
  EXPECT_EQ(BFCAllocator::BinNumForSize(0), 0);
  EXPECT_EQ(BFCAllocator::BinNumForSize(1024), 2);
  EXPECT_EQ(BFCAllocator::BinNumForSize(size_t{1} << 40), 20);  // the last
}

// Free chunks of 1024, 2048 and 512 bytes, kept apart by chunks in use: a
// request goes to the smallest that fits, wherever it is.
TEST(BfcAllocatorTest, TakesTheBestFitNotTheFirst) {
  auto bfc = MakeBfc(kMiB);
  std::vector<void*> p;
  for (size_t size : {1024, 256, 2048, 256, 512, 256}) {
    p.push_back(bfc->AllocateRaw(64, size));
  }
  bfc->DeallocateRaw(p[0]);  // 1024
  bfc->DeallocateRaw(p[2]);  // 2048
  bfc->DeallocateRaw(p[4]);  // 512
  ExpectConsistent(*bfc);
  EXPECT_EQ(bfc->AllocateRaw(64, 500), p[4]);   // 512 fits exactly
  EXPECT_EQ(bfc->AllocateRaw(64, 1000), p[0]);  // 1024, not 2048
  EXPECT_EQ(bfc->AllocateRaw(64, 1500), p[2]);  // only 2048 is left
  ExpectConsistent(*bfc);
}

TEST(BfcAllocatorTest, SplitsAChunkAtLeastTwiceTheRequest) {
  auto bfc = MakeBfc(kMiB);
  void* a = bfc->AllocateRaw(64, 1024);
  void* guard = bfc->AllocateRaw(64, 256);
  bfc->DeallocateRaw(a);  // a free chunk of 1024 between guard and the start
  // 1024 >= 2 * 512: split; the other 512 stays free.
  void* half = bfc->AllocateRaw(64, 512);
  EXPECT_EQ(half, a);
  EXPECT_EQ(bfc->AllocatedSize(half), 512u);
  EXPECT_EQ(Layout(*bfc)[1], std::make_pair(size_t{512}, false));
  bfc->DeallocateRaw(half);
  // 1024 < 2 * 768: the whole chunk is handed out, and counted.
  const int64_t before = bfc->GetStats().bytes_in_use;
  void* most = bfc->AllocateRaw(64, 768);
  EXPECT_EQ(most, a);
  EXPECT_EQ(bfc->AllocatedSize(most), 1024u);
  EXPECT_EQ(bfc->GetStats().bytes_in_use - before, 1024);
  bfc->DeallocateRaw(most);
  bfc->DeallocateRaw(guard);
  ExpectConsistent(*bfc);
}

// A chunk less than twice the request is still split when the rest would be
// 128 MiB or more: no request wastes that much.
TEST(BfcAllocatorTest, NeverWastes128MiBOnOneRequest) {
  auto bfc = MakeBfc(400 * kMiB);
  void* big = bfc->AllocateRaw(64, 250 * kMiB);  // rest: 150 MiB, split
  EXPECT_EQ(bfc->AllocatedSize(big), 250 * kMiB);
  void* rest = bfc->AllocateRaw(64, 130 * kMiB);  // rest: 20 MiB, kept
  EXPECT_EQ(bfc->AllocatedSize(rest), 150 * kMiB);
  bfc->DeallocateRaw(big);
  bfc->DeallocateRaw(rest);
  EXPECT_EQ(Layout(*bfc),
            (std::vector<std::pair<size_t, bool>>{{400 * kMiB, false}}));
}

// Three neighbours A, B, C freed in each of the six orders always end as one
// free chunk, and never leave two free chunks side by side on the way.
TEST(BfcAllocatorTest, CoalescesFreeNeighboursInEveryOrder) {
  std::array<int, 3> order = {0, 1, 2};
  do {
    auto bfc = MakeBfc(kMiB);
    void* chunk[3] = {bfc->AllocateRaw(64, 256), bfc->AllocateRaw(64, 512),
                      bfc->AllocateRaw(64, 1024)};
    void* guard = bfc->AllocateRaw(64, 256);  // keeps C from the free tail
    for (int i : order) {
      bfc->DeallocateRaw(chunk[i]);
      ExpectConsistent(*bfc);
    }
    const auto layout = Layout(*bfc);
    ASSERT_EQ(layout.size(), 3u);
    EXPECT_EQ(layout[0], std::make_pair(size_t{1792}, false));
    EXPECT_EQ(layout[1], std::make_pair(size_t{256}, true));
    bfc->DeallocateRaw(guard);
    EXPECT_EQ(Layout(*bfc),
              (std::vector<std::pair<size_t, bool>>{{kMiB, false}}));
  } while (std::next_permutation(order.begin(), order.end()));
}

TEST(BfcAllocatorTest, WithoutAllowGrowthTakesAllOfItsMemoryAtOnce) {
  auto bfc = MakeBfc(64 * kMiB);
  EXPECT_TRUE(bfc->RegionSizes().empty());  // nothing before the first
  void* p = bfc->AllocateRaw(64, 1000);
  EXPECT_EQ(bfc->RegionSizes(), std::vector<size_t>{64 * kMiB});
  bfc->DeallocateRaw(p);
}

// Regions start at 1 MiB and double: again after a region that did not
// have to grow for its request, and as often as a large request needs.
TEST(BfcAllocatorTest, WithAllowGrowthRegionsGrowGeometrically) {
  auto bfc = MakeBfc(64 * kMiB, /*allow_growth=*/true);
  std::vector<void*> held;
  held.push_back(bfc->AllocateRaw(64, 1000));
  EXPECT_EQ(bfc->RegionSizes(), std::vector<size_t>{kMiB});
  held.push_back(bfc->AllocateRaw(64, kMiB));       // does not fit: 2 MiB more
  held.push_back(bfc->AllocateRaw(64, 3 * kMiB));   // 4 MiB
  held.push_back(bfc->AllocateRaw(64, 20 * kMiB));  // 8 -> 16 -> 32 MiB
  EXPECT_EQ(bfc->RegionSizes(),
            (std::vector<size_t>{kMiB, 2 * kMiB, 4 * kMiB, 32 * kMiB}));
  // 25 MiB of the limit are left: the next region is cut to them.
  held.push_back(bfc->AllocateRaw(64, 20 * kMiB));
  EXPECT_EQ(bfc->RegionSizes().back(), 25 * kMiB);
  // And then nothing more fits.
  EXPECT_EQ(bfc->AllocateRaw(64, 20 * kMiB), nullptr);
  for (void* p : held) {
    ASSERT_NE(p, nullptr);
    bfc->DeallocateRaw(p);
  }
  ExpectConsistent(*bfc);
}

TEST(BfcAllocatorTest, AllowGrowthOnASmallLimitStartsWithTheLimit) {
  auto bfc = MakeBfc(300 * kKiB, /*allow_growth=*/true);
  void* p = bfc->AllocateRaw(64, 1000);
  EXPECT_EQ(bfc->RegionSizes(), std::vector<size_t>{300 * kKiB});
  bfc->DeallocateRaw(p);
}

// A card with less free memory than the limit: the first refusal makes the
// allocator ask for 10% less at a time, down to what the request needs.
TEST(BfcAllocatorTest, BacksOffWhenTheMemoryHasLessThanTheLimit) {
  auto sub = std::make_unique<RecordingSubAllocator>(/*largest=*/6 * kMiB);
  RecordingSubAllocator* recorded = sub.get();
  BFCAllocator bfc(std::move(sub), 10 * kMiB, false, "GPU_0_bfc");
  void* p = bfc.AllocateRaw(64, kMiB);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(recorded->requests,
            (std::vector<size_t>{10485760, 9437184, 8493568, 7644416, 6880000,
                                 6192128}));
  EXPECT_EQ(bfc.RegionSizes(), std::vector<size_t>{6192128});
  bfc.DeallocateRaw(p);
}

TEST(BfcAllocatorTest, KeepsTensorFlowsStatistics) {
  auto bfc = MakeBfc(kMiB);
  void* a = bfc->AllocateRaw(64, 1000);  // 1024
  void* b = bfc->AllocateRaw(64, 5000);  // 5120
  AllocatorStats s = bfc->GetStats();
  EXPECT_EQ(s.num_allocs, 2);
  EXPECT_EQ(s.bytes_in_use, 1024 + 5120);
  EXPECT_EQ(s.max_bytes_in_use, 1024 + 5120);
  EXPECT_EQ(s.max_alloc_size, 5120);
  EXPECT_EQ(s.bytes_limit, static_cast<int64_t>(kMiB));
  bfc->DeallocateRaw(b);
  EXPECT_EQ(bfc->AllocateRaw(64, 2 * kMiB), nullptr);  // past the limit
  s = bfc->GetStats();
  EXPECT_EQ(s.bytes_in_use, 1024);
  EXPECT_EQ(s.max_bytes_in_use, 1024 + 5120);  // the peak stays
  EXPECT_EQ(s.num_allocs, 2);                  // a refusal is no allocation
  EXPECT_EQ(s.num_refused, 1);
  EXPECT_EQ(s.DebugString(),
            "Limit:                     1048576\n"
            "InUse:                        1024\n"
            "MaxInUse:                     6144\n"
            "NumAllocs:                       2\n"
            "MaxAllocSize:                 5120\n");
  bfc->ClearStats();
  s = bfc->GetStats();
  EXPECT_EQ(s.num_allocs, 0);
  EXPECT_EQ(s.max_bytes_in_use, 1024);
  EXPECT_EQ(s.max_alloc_size, 0);
  bfc->DeallocateRaw(a);
}

// A tensor the allocator cannot hold is layer 1's OOM error, naming it.
TEST(BfcAllocatorTest, ATensorThatDoesNotFitIsAnOomNamingTheAllocator) {
  auto bfc = MakeBfc(kMiB);
  StatusOr<Tensor> t =
      Tensor::Allocate(DT_FLOAT, TensorShape({512, 512}), bfc.get());
  EXPECT_EQ(t.status().ToString(),
            "Resource exhausted: OOM when allocating tensor with "
            "shape[512,512] and type float on GPU_0_bfc");
  StatusOr<Tensor> fits =
      Tensor::Allocate(DT_FLOAT, TensorShape({256, 256}), bfc.get());
  ASSERT_TRUE(fits.ok()) << fits.status();
  fits.value().flat<float>().setConstant(1.f);  // the memory is writable
  EXPECT_EQ(fits.value().flat<float>()(65535), 1.f);
}

// --8<-- [start:fragmentation_test]
// Half the memory is free, but in two pieces apart: a request for half fails
// until the piece between them is freed and the three coalesce.
TEST(BfcAllocatorTest, FragmentationRefusesWhatTheFreeBytesWouldHold) {
  auto bfc = MakeBfc(kMiB);
  void* q[4];
  for (void*& p : q) p = bfc->AllocateRaw(64, 256 * kKiB);
  bfc->DeallocateRaw(q[0]);
  bfc->DeallocateRaw(q[2]);
  EXPECT_EQ(bfc->GetStats().bytes_in_use, static_cast<int64_t>(512 * kKiB));
  EXPECT_EQ(bfc->AllocateRaw(64, 512 * kKiB), nullptr);
  bfc->DeallocateRaw(q[1]);  // q0 + q1 + q2: one free chunk of 768 KiB
  EXPECT_EQ(Layout(*bfc), (std::vector<std::pair<size_t, bool>>{
                              {768 * kKiB, false}, {256 * kKiB, true}}));
  void* half = bfc->AllocateRaw(64, 512 * kKiB);
  EXPECT_EQ(half, q[0]);
  bfc->DeallocateRaw(half);
  bfc->DeallocateRaw(q[3]);
}
// --8<-- [end:fragmentation_test]

TEST(BfcAllocatorTest, OutlivesItsOwnerUntilTheLastChunkReturns) {
  int regions_out = 0;
  auto* bfc = new BFCAllocator(
      std::make_unique<RecordingSubAllocator>(~size_t{0}, &regions_out), kMiB,
      false, "GPU_0_bfc");
  void* p = bfc->AllocateRaw(64, 100);
  EXPECT_EQ(regions_out, 1);
  bfc->DestroyWhenIdle();
  EXPECT_EQ(regions_out, 1);  // still alive: p is out
  bfc->DeallocateRaw(p);
  EXPECT_EQ(regions_out, 0);  // deleted with the last chunk, regions returned
}

TEST(BfcAllocatorTest, IsHostAccessibleWhenItsMemoryIs) {
  EXPECT_TRUE(MakeBfc(kMiB)->HostAccessible());
}

}  // namespace
}  // namespace minitf
