// The CPU emulator of CUDA runs kernels written in CUDA C++: indices in three
// dimensions, shared memory and barriers, atomics between blocks that run at
// once, warp primitives in lock-step, and the runtime API with CUDA's errors.
#include <gtest/gtest.h>

#include <chrono>
#include <numeric>
#include <thread>
#include <vector>

#include "minitf/gpu/emulator/sanitizer.h"
#include "test_kernels.cuh"

namespace minitf::gpu::emulator {
namespace {

// A device copy of a host vector, freed at the end of the scope.
template <class T>
class DeviceVector {
 public:
  explicit DeviceVector(const std::vector<T>& host) : size_(host.size()) {
    EXPECT_EQ(cudaMalloc(&data_, bytes()), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(data_, host.data(), bytes(), cudaMemcpyHostToDevice),
              cudaSuccess);
  }
  explicit DeviceVector(std::size_t size)
      : DeviceVector(std::vector<T>(size)) {}
  ~DeviceVector() { cudaFree(data_); }
  T* get() const { return data_; }
  std::vector<T> to_host() const {
    std::vector<T> host(size_);
    EXPECT_EQ(cudaMemcpy(host.data(), data_, bytes(), cudaMemcpyDeviceToHost),
              cudaSuccess);
    return host;
  }

 private:
  std::size_t bytes() const { return size_ * sizeof(T); }
  T* data_ = nullptr;
  std::size_t size_;
};

// Each test starts from the default options, blocks on 4 host threads so
// that blocks really run at once even on a machine with fewer cores.
class EmulatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    set_options({.host_threads = 4, .print_reports = false});
  }
  void TearDown() override {
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
    EXPECT_TRUE(take_reports().empty());
    set_options({});
  }
};

TEST_F(EmulatorTest, ThreadsSeeTheirCoordinatesInThreeDimensions) {
  const dim3 grid(3, 2, 2);
  const dim3 block(4, 3, 2);
  const unsigned threads = 3 * 2 * 2 * 4 * 3 * 2;
  DeviceVector<unsigned> out(6 * threads);
  MINITF_LAUNCH(write_coordinates, grid, block, 0, 0, out.get());
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const std::vector<unsigned> got = out.to_host();
  unsigned id = 0;
  for (unsigned bz = 0; bz < 2; ++bz)
    for (unsigned by = 0; by < 2; ++by)
      for (unsigned bx = 0; bx < 3; ++bx)
        for (unsigned tz = 0; tz < 2; ++tz)
          for (unsigned ty = 0; ty < 3; ++ty)
            for (unsigned tx = 0; tx < 4; ++tx, ++id) {
              const std::vector<unsigned> want = {tx, ty, tz, bx, by, bz};
              ASSERT_EQ(std::vector<unsigned>(got.begin() + 6 * id,
                                              got.begin() + 6 * id + 6),
                        want)
                  << "thread " << id;
            }
}

TEST_F(EmulatorTest, SharedMemoryAndBarrierReverseEachBlock) {
  std::vector<int> in(64 * 256);
  std::iota(in.begin(), in.end(), 0);
  DeviceVector<int> d_in(in), d_out(in.size());
  MINITF_LAUNCH(block_reverse, 64, 256, 0, 0, d_in.get(), d_out.get());
  const std::vector<int> out = d_out.to_host();
  for (int i = 0; i < 64 * 256; ++i)
    ASSERT_EQ(out[i], (i / 256) * 256 + 255 - i % 256) << i;
}

TEST_F(EmulatorTest, DynamicSharedMemoryHasTheBytesOfTheLaunch) {
  std::vector<float> in(8 * 100);
  std::iota(in.begin(), in.end(), 0.f);
  DeviceVector<float> d_in(in), d_out(in.size());
  MINITF_LAUNCH(dynamic_reverse, 8, 100, 100 * sizeof(float), 0, d_in.get(),
                d_out.get());
  const std::vector<float> out = d_out.to_host();
  for (int i = 0; i < 800; ++i)
    ASSERT_EQ(out[i], (i / 100) * 100 + 99 - i % 100) << i;
}

// C = A B against a triple loop, in every thread order: a correct kernel
// does not depend on the order of threads between barriers.
void expect_tiled_matmul(int n) {
  std::vector<float> a(n * n), b(n * n), want(n * n, 0.f);
  for (int i = 0; i < n * n; ++i) {
    a[i] = static_cast<float>((i * 7) % 11) - 5.f;
    b[i] = static_cast<float>((i * 5) % 13) - 6.f;
  }
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j)
        want[i * n + j] += a[i * n + k] * b[k * n + j];
  DeviceVector<float> d_a(a), d_b(b), d_c(want.size());
  MINITF_LAUNCH(MINITF_KERNEL_NAME(tiled_matmul<8>), dim3(n / 8, n / 8),
                dim3(8, 8), 0, 0, d_a.get(), d_b.get(), d_c.get(), n);
  EXPECT_EQ(d_c.to_host(), want);  // small integers: exact in float
}

TEST_F(EmulatorTest, TiledMatmulMatchesTheCpuInEveryThreadOrder) {
  for (ThreadOrder order :
       {ThreadOrder::kForward, ThreadOrder::kReverse, ThreadOrder::kShuffled}) {
    set_options({.order = order, .host_threads = 4, .print_reports = false});
    expect_tiled_matmul(32);
  }
}

TEST_F(EmulatorTest, AMissingBarrierShowsOnlyWhenThreadsAreReordered) {
  std::vector<int> first(128), second(128);
  std::iota(first.begin(), first.end(), 1000);
  std::iota(second.begin(), second.end(), 2000);  // unlike any stale value
  auto shifted = [](const std::vector<int>& in) {
    std::vector<int> out(in.size());
    for (std::size_t t = 0; t < in.size(); ++t) out[t] = in[t > 0 ? t - 1 : 0];
    return out;
  };
  DeviceVector<int> d_first(first), d_second(second), d_out(128);

  // Forward: thread t - 1 ran before thread t, so the bug is hidden.
  MINITF_LAUNCH(shift_right_missing_sync, 1, 128, 0, 0, d_first.get(),
                d_out.get());
  EXPECT_EQ(d_out.to_host(), shifted(first));

  // Reverse: thread t reads s[t - 1] before thread t - 1 wrote it.
  set_options({.order = ThreadOrder::kReverse,
               .host_threads = 4,
               .print_reports = false});
  MINITF_LAUNCH(shift_right_missing_sync, 1, 128, 0, 0, d_second.get(),
                d_out.get());
  EXPECT_NE(d_out.to_host(), shifted(second));

  // With its barrier the kernel is right in both orders.
  MINITF_LAUNCH(shift_right, 1, 128, 0, 0, d_first.get(), d_out.get());
  EXPECT_EQ(d_out.to_host(), shifted(first));
  set_options({.order = ThreadOrder::kShuffled,
               .host_threads = 4,
               .print_reports = false});
  MINITF_LAUNCH(shift_right, 1, 128, 0, 0, d_second.get(), d_out.get());
  EXPECT_EQ(d_out.to_host(), shifted(second));
}

TEST_F(EmulatorTest, AtomicsCountExactlyAcrossBlocksOnHostThreads) {
  const int n = 1 << 16, bins = 10;
  std::vector<int> values(n);
  for (int i = 0; i < n; ++i) values[i] = (i * 7919) % 100003;
  std::vector<unsigned> want(bins, 0);
  for (int v : values) ++want[v % bins];
  DeviceVector<int> d_values(values), d_max(std::vector<int>{-1});
  DeviceVector<unsigned> d_counts(bins);
  MINITF_LAUNCH(histogram, n / 128, 128, 0, 0, d_values.get(), n,
                d_counts.get(), bins, d_max.get());
  EXPECT_EQ(d_counts.to_host(), want);
  EXPECT_EQ(d_max.to_host()[0],
            *std::max_element(values.begin(), values.end()));

  DeviceVector<int> owner(std::vector<int>{-1}), winners(std::vector<int>{0});
  MINITF_LAUNCH(claim, 256, 32, 0, 0, owner.get(), winners.get());
  EXPECT_EQ(winners.to_host()[0], 1);
  EXPECT_GE(owner.to_host()[0], 0);
}

TEST_F(EmulatorTest, WarpShufflesSeeEveryLanesValueAtOnce) {
  const int n = 4 * 128;
  std::vector<int> x(n);
  for (int i = 0; i < n; ++i) x[i] = (i * 37) % 101;
  DeviceVector<int> d_x(x), d_sums(n / 32), d_scan(n);
  DeviceVector<unsigned> d_ballots(n / 32);
  MINITF_LAUNCH(warp_sum, 4, 128, 0, 0, d_x.get(), d_sums.get());
  MINITF_LAUNCH(warp_inclusive_scan, 4, 128, 0, 0, d_x.get(), d_scan.get());
  MINITF_LAUNCH(ballot_multiples_of_three, 4, 128, 0, 0, d_x.get(),
                d_ballots.get());
  const std::vector<int> sums = d_sums.to_host(), scan = d_scan.to_host();
  const std::vector<unsigned> ballots = d_ballots.to_host();
  for (int w = 0; w < n / 32; ++w) {
    int running = 0;
    unsigned ballot = 0;
    for (int lane = 0; lane < 32; ++lane) {
      running += x[w * 32 + lane];
      ASSERT_EQ(scan[w * 32 + lane], running)
          << "warp " << w << " lane " << lane;
      if (x[w * 32 + lane] % 3 == 0) ballot |= 1u << lane;
    }
    EXPECT_EQ(sums[w], running) << "warp " << w;
    EXPECT_EQ(ballots[w], ballot) << "warp " << w;
  }

  std::vector<float> f(n);
  for (int i = 0; i < n; ++i) f[i] = static_cast<float>(i % 32);
  DeviceVector<float> d_f(f), d_all(n);
  MINITF_LAUNCH(warp_allreduce, 4, 128, 0, 0, d_f.get(), d_all.get());
  EXPECT_EQ(d_all.to_host(), std::vector<float>(n, 31.f * 32.f / 2.f));
}

TEST_F(EmulatorTest, StreamsRunInOrderAndEventsMarkTheirWork) {
  cudaStream_t first, second;
  cudaEvent_t start, copied;
  ASSERT_EQ(cudaStreamCreate(&first), cudaSuccess);
  ASSERT_EQ(cudaStreamCreate(&second), cudaSuccess);
  ASSERT_EQ(cudaEventCreate(&start), cudaSuccess);
  ASSERT_EQ(cudaEventCreate(&copied), cudaSuccess);
  std::vector<int> in(256);
  std::iota(in.begin(), in.end(), 0);
  std::vector<int> out(256, -1);
  DeviceVector<int> d_in(256), d_out(256);
  ASSERT_EQ(cudaEventRecord(start, first), cudaSuccess);
  ASSERT_EQ(cudaMemcpyAsync(d_in.get(), in.data(), 1024, cudaMemcpyHostToDevice,
                            first),
            cudaSuccess);
  ASSERT_EQ(cudaEventRecord(copied, first), cudaSuccess);
  // The second stream's kernel waits for the first stream's copy.
  ASSERT_EQ(cudaStreamWaitEvent(second, copied, 0), cudaSuccess);
  MINITF_LAUNCH(block_reverse, 1, 256, 0, second, d_in.get(), d_out.get());
  ASSERT_EQ(cudaMemcpyAsync(out.data(), d_out.get(), 1024,
                            cudaMemcpyDeviceToHost, second),
            cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(second), cudaSuccess);
  EXPECT_EQ(cudaStreamQuery(second), cudaSuccess);
  for (int t = 0; t < 256; ++t) ASSERT_EQ(out[t], 255 - t);
  float ms = -1.f;
  ASSERT_EQ(cudaEventSynchronize(copied), cudaSuccess);
  EXPECT_EQ(cudaEventElapsedTime(&ms, start, copied), cudaSuccess);
  EXPECT_GE(ms, 0.f);
  EXPECT_EQ(cudaEventDestroy(start), cudaSuccess);
  EXPECT_EQ(cudaEventDestroy(copied), cudaSuccess);
  EXPECT_EQ(cudaStreamDestroy(first), cudaSuccess);
  EXPECT_EQ(cudaStreamDestroy(second), cudaSuccess);
}

// Takes its time, then writes: what a stream that waits for it must see.
__global__ void slow_store(int* where, int value) {
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  *where = value;
}

TEST_F(EmulatorTest, AnEventMayBeDestroyedWhileAStreamStillWaitsForIt) {
  cudaStream_t producer, consumer;
  cudaEvent_t written;
  ASSERT_EQ(cudaStreamCreate(&producer), cudaSuccess);
  ASSERT_EQ(cudaStreamCreate(&consumer), cudaSuccess);
  ASSERT_EQ(cudaEventCreate(&written), cudaSuccess);
  DeviceVector<int> d_value(std::vector<int>{0});
  MINITF_LAUNCH(slow_store, 1, 1, 0, producer, d_value.get(), 7);
  ASSERT_EQ(cudaEventRecord(written, producer), cudaSuccess);
  ASSERT_EQ(cudaStreamWaitEvent(consumer, written, 0), cudaSuccess);
  // As in CUDA, destroying the event does not cancel the wait, nor wait.
  ASSERT_EQ(cudaEventDestroy(written), cudaSuccess);
  int seen = -1;
  ASSERT_EQ(cudaMemcpyAsync(&seen, d_value.get(), sizeof seen,
                            cudaMemcpyDeviceToHost, consumer),
            cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(consumer), cudaSuccess);
  EXPECT_EQ(seen, 7);
  EXPECT_EQ(cudaStreamDestroy(producer), cudaSuccess);
  EXPECT_EQ(cudaStreamDestroy(consumer), cudaSuccess);
}

TEST_F(EmulatorTest, TheDeviceAndItsErrorsAreCudas) {
  int count = 0, device = -1;
  EXPECT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
  EXPECT_EQ(count, 1);
  EXPECT_EQ(cudaGetDevice(&device), cudaSuccess);
  EXPECT_EQ(device, 0);
  cudaDeviceProp prop;
  ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  EXPECT_STREQ(prop.name, "minitf CUDA emulator (CPU)");
  EXPECT_EQ(prop.warpSize, 32);
  EXPECT_EQ(prop.maxThreadsPerBlock, 1024);
  EXPECT_EQ(prop.sharedMemPerBlock, 48u * 1024);

  EXPECT_EQ(cudaSetDevice(1), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);  // read once, then reset
  void* p = nullptr;
  EXPECT_EQ(cudaMalloc(&p, std::size_t{1} << 40), cudaErrorMemoryAllocation);
  EXPECT_EQ(cudaFree(&count), cudaErrorInvalidValue);  // not from cudaMalloc
  EXPECT_EQ(cudaMemcpy(&count, &device, 4, static_cast<cudaMemcpyKind>(7)),
            cudaErrorInvalidMemcpyDirection);
  EXPECT_EQ(cudaStreamSynchronize(reinterpret_cast<cudaStream_t>(&count)),
            cudaErrorInvalidResourceHandle);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidResourceHandle);
  EXPECT_STREQ(cudaGetErrorName(cudaErrorMemoryAllocation),
               "cudaErrorMemoryAllocation");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorMemoryAllocation), "out of memory");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorLaunchFailure),
               "unspecified launch failure");
  EXPECT_STREQ(cudaGetErrorString(static_cast<cudaError_t>(12345)),
               "unrecognized error code");
}

// The calls a StreamExecutor makes that only a real GPU distinguishes
// (stream_executor/runtime_stream_executor.h): the flags are taken, the
// device sits on no PCI bus.
TEST_F(EmulatorTest, TheStreamExecutorsRuntimeCallsAnswerAsCudas) {
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking),
            cudaSuccess);
  cudaEvent_t event = nullptr;
  ASSERT_EQ(cudaEventCreateWithFlags(&event, cudaEventDisableTiming),
            cudaSuccess);
  EXPECT_EQ(cudaEventRecord(event, stream), cudaSuccess);
  EXPECT_EQ(cudaEventSynchronize(event), cudaSuccess);
  EXPECT_EQ(cudaEventDestroy(event), cudaSuccess);
  EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess);
  char bus_id[32];
  ASSERT_EQ(cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, 0), cudaSuccess);
  EXPECT_STREQ(bus_id, "emulated");
  char short_id[4];
  ASSERT_EQ(cudaDeviceGetPCIBusId(short_id, sizeof short_id, 0), cudaSuccess);
  EXPECT_STREQ(short_id, "emu");
  EXPECT_EQ(cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, 1),
            cudaErrorInvalidDevice);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidDevice);
}

}  // namespace
}  // namespace minitf::gpu::emulator
