// The emulator reports what compute-sanitizer reports, with the thread and
// block: a barrier that part of a block skips, a warp primitive whose mask
// leaves out its own lane, out-of-bounds accesses (through AddressSanitizer,
// in CI's sanitizer build), and a launch configuration the device cannot
// run, as CUDA's own error.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "minitf/gpu/emulator/sanitizer.h"
#include "misuse_kernels.cuh"

namespace minitf::gpu::emulator {
namespace {

class EmulatorSanitizerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    set_options({.print_reports = false});
    ASSERT_EQ(cudaMalloc(&out_, 1024 * sizeof(int)), cudaSuccess);
  }
  void TearDown() override {
    cudaFree(out_);
    set_options({});
  }
  // The one report a launch made.
  std::string only_report() {
    std::vector<std::string> reports = take_reports();
    EXPECT_EQ(reports.size(), 1u);
    return reports.empty() ? "" : reports[0];
  }
  int* out_ = nullptr;
};

TEST_F(EmulatorSanitizerTest, ABarrierThatPartOfTheBlockSkipsIsReported) {
  MINITF_LAUNCH(divergent_barrier, 2, 64, 0, 0, out_, 16);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
  EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure);
  std::vector<std::string> reports = take_reports();
  ASSERT_EQ(reports.size(), 2u);  // one per block
  for (const std::string& r : reports) {
    EXPECT_NE(
        r.find(
            "========= Barrier error detected. Divergent thread(s) in block\n"),
        std::string::npos)
        << r;
    EXPECT_NE(r.find("at divergent_barrier in "), std::string::npos) << r;
    EXPECT_NE(r.find("misuse_kernels.cuh:"), std::string::npos) << r;
    // Thread 16 is the first that did not reach thread 0's barrier.
    EXPECT_NE(r.find("by thread (16,0,0) in block ("), std::string::npos) << r;
  }
}

TEST_F(EmulatorSanitizerTest, ThreadsThatReturnBeforeABarrierAreReported) {
  MINITF_LAUNCH(return_before_barrier, 1, 64, 0, 0, out_, 40);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
  EXPECT_NE(only_report().find("Divergent thread(s) in block\n"
                               "=========     at return_before_barrier"),
            std::string::npos);
}

TEST_F(EmulatorSanitizerTest, AShuffleMaskWithoutTheCallingLaneIsReported) {
  MINITF_LAUNCH(shuffle_without_own_lane, 1, 32, 0, 0, out_);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
  const std::string r = only_report();
  EXPECT_NE(r.find("========= Barrier error detected. Invalid arguments\n"),
            std::string::npos)
      << r;
  EXPECT_NE(r.find("by thread (0,0,0) in block (0,0,0)"), std::string::npos)
      << r;
}

TEST_F(EmulatorSanitizerTest, AnImpossibleLaunchIsCudasInvalidConfiguration) {
  struct Case {
    const char* what;
    dim3 grid, block;
    std::size_t shared;
  };
  const Case cases[] = {
      {"1025 threads", 1, 1025, 0},
      {"32 x 32 x 2 threads", 1, dim3(32, 32, 2), 0},
      {"block z of 65", 1, dim3(1, 1, 65), 0},
      {"an empty block", 1, dim3(0, 1, 1), 0},
      {"an empty grid", 0, 32, 0},
      {"grid y of 65536", dim3(1, 65536), 32, 0},
      {"48 KiB + 1 of shared memory", 1, 32, 48 * 1024 + 1},
  };
  for (const Case& c : cases) {
    MINITF_LAUNCH(divergent_barrier, c.grid, c.block, c.shared, 0, out_, 0);
    EXPECT_EQ(cudaPeekAtLastError(), cudaErrorInvalidConfiguration) << c.what;
    const cudaError_t e = cudaGetLastError();
    EXPECT_STREQ(cudaGetErrorName(e), "cudaErrorInvalidConfiguration")
        << c.what;
    EXPECT_STREQ(cudaGetErrorString(e), "invalid configuration argument")
        << c.what;
    EXPECT_EQ(cudaGetLastError(), cudaSuccess) << c.what;
  }
  // The largest block is fine.
  MINITF_LAUNCH(write_one_past_the_end, 1, 1024, 48 * 1024, 0, out_, 1023);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_TRUE(take_reports().empty());
}

// Out-of-bounds accesses are AddressSanitizer's to catch: CI's step 5 runs
// these tests in a build with -DMINITF_SANITIZE=ON. Its report must end
// with the emulated thread and block that made the access.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif

TEST_F(EmulatorSanitizerTest,
       AGlobalWritePastTheEndStopsTheProgramNamingTheThread) {
  if (!kAddressSanitizer)
    GTEST_SKIP() << "needs AddressSanitizer (-DMINITF_SANITIZE=ON)";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        int* d = nullptr;
        cudaMalloc(&d, 100 * sizeof(int));
        MINITF_LAUNCH(write_one_past_the_end, 4, 32, 0, 0, d, 100);
        cudaDeviceSynchronize();
      },
      "heap-buffer-overflow.*WRITE of size 4.*by thread \\(4,0,0\\) in block "
      "\\(3,0,0\\)");
}

// A static __shared__ array is an array of known size, so UBSan's bounds
// check (CI's sanitizer build has both) stops the write before ASan would
// see it: its report names the kernel's line, but not the emulated thread
// (GCC's UBSan runtime calls no death callback).
TEST_F(EmulatorSanitizerTest, ASharedWritePastTheEndStopsTheProgramAtItsLine) {
  if (!kAddressSanitizer)
    GTEST_SKIP() << "needs AddressSanitizer (-DMINITF_SANITIZE=ON)";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        MINITF_LAUNCH(shared_write_one_past_the_end, 1, 32, 0, 0, out_);
        cudaDeviceSynchronize();
      },
      "misuse_kernels.cuh:[0-9]+:[0-9]+: runtime error: index 32 out of "
      "bounds for type 'int \\[32\\]'");
}

TEST_F(EmulatorSanitizerTest, ADynamicSharedWritePastTheEndStopsTheProgram) {
  if (!kAddressSanitizer)
    GTEST_SKIP() << "needs AddressSanitizer (-DMINITF_SANITIZE=ON)";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        float* d = nullptr;
        cudaMalloc(&d, 2 * sizeof(float));
        // 32 threads, shared memory for 31 floats: thread 31 writes past it.
        MINITF_LAUNCH(dynamic_shared_write, 2, 32, 31 * sizeof(float), 0, d);
        cudaDeviceSynchronize();
      },
      "heap-buffer-overflow.*by thread \\(31,0,0\\) in block \\(0,0,0\\)");
}

}  // namespace
}  // namespace minitf::gpu::emulator
