// The teaching GEMMs on the CPU emulator of CUDA, each version against the
// CPU reference (gemm_reference), within the tolerance gemm_testing.h
// states. gemm_on_gpu_test.cu runs the same versions on a GPU against
// cuBLAS.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "gemm_testing.h"
#include "minitf/gpu/emulator/sanitizer.h"
#include "minitf/gpu/kernels/gemm/reference.h"
#include "minitf/gpu/kernels/gemm/versions.cuh"

namespace minitf::gpu::gemm::testing {
namespace {

namespace emu = minitf::gpu::emulator;

std::vector<float> Reference(const GemmInputs& in, float alpha, float beta) {
  std::vector<float> c = in.c;
  gemm_reference(in.shape.m, in.shape.n, in.shape.k, alpha, in.a.data(),
                 in.b.data(), beta, c.data());
  return c;
}

std::string ShapeName(const GemmShape& s) {
  return "m=" + std::to_string(s.m) + " n=" + std::to_string(s.n) +
         " k=" + std::to_string(s.k);
}

class GemmOnEmulatorTest : public ::testing::TestWithParam<GemmVersion> {
 protected:
  void TearDown() override { emu::set_options({}); }
};

TEST_P(GemmOnEmulatorTest, MatchesTheCpuReferenceOnEveryShape) {
  std::uint32_t seed = 1;
  for (const GemmShape& shape : TestShapes()) {
    SCOPED_TRACE(ShapeName(shape));
    const GemmInputs in = MakeGemmInputs(shape, seed++);
    EXPECT_TRUE(ExpectGemmNear(in, 1.5f, -0.5f,
                               RunGemm(GetParam().launch, in, 1.5f, -0.5f),
                               Reference(in, 1.5f, -0.5f)));
  }
}

// A kernel that misses a __syncthreads() can still pass in the forward
// order, where thread 0 always runs first; in reverse or shuffled order
// between barriers, it reads tiles not yet loaded.
TEST_P(GemmOnEmulatorTest, MatchesInReverseAndShuffledThreadOrder) {
  for (emu::ThreadOrder order :
       {emu::ThreadOrder::kReverse, emu::ThreadOrder::kShuffled}) {
    emu::set_options({.order = order, .seed = 7});
    for (const GemmShape shape : {GemmShape{65, 63, 67}, {33, 36, 12}}) {
      SCOPED_TRACE(ShapeName(shape) + (order == emu::ThreadOrder::kReverse
                                           ? " reverse"
                                           : " shuffled"));
      const GemmInputs in = MakeGemmInputs(shape, 3);
      EXPECT_TRUE(ExpectGemmNear(in, 1.f, 1.f,
                                 RunGemm(GetParam().launch, in, 1.f, 1.f),
                                 Reference(in, 1.f, 1.f)));
    }
  }
}

// BLAS's rule: with beta = 0, c is written, never read, so NaN in it does
// not reach the result (0 * NaN would be NaN).
TEST_P(GemmOnEmulatorTest, BetaZeroNeverReadsC) {
  GemmInputs in = MakeGemmInputs({33, 36, 12}, 5);
  for (float& x : in.c) x = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> got = RunGemm(GetParam().launch, in, 2.f, 0.f);
  for (float x : got) ASSERT_FALSE(std::isnan(x));
  EXPECT_TRUE(ExpectGemmNear(in, 2.f, 0.f, got, Reference(in, 2.f, 0.f)));
}

// k = 0 is an empty sum: c = beta * c, exactly.
TEST_P(GemmOnEmulatorTest, KZeroScalesC) {
  const GemmInputs in = MakeGemmInputs({7, 9, 0}, 6);
  const std::vector<float> got = RunGemm(GetParam().launch, in, 3.f, -2.f);
  ASSERT_EQ(got.size(), in.c.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    EXPECT_EQ(got[i], -2.f * in.c[i]) << i;
}

// m = 0 or n = 0: nothing to compute and nothing launched (an empty grid
// is no valid launch), and the launcher says success.
TEST_P(GemmOnEmulatorTest, EmptyMatricesSucceedAndTouchNothing) {
  for (const GemmShape shape :
       {GemmShape{0, 5, 3}, {5, 0, 3}, {0, 0, 0}, {0, 4, 0}}) {
    SCOPED_TRACE(ShapeName(shape));
    const GemmInputs in = MakeGemmInputs(shape, 8);
    EXPECT_TRUE(RunGemm(GetParam().launch, in, 1.f, 1.f).empty());
  }
  float sentinel = 42.f;
  EXPECT_EQ(
      GetParam().launch(0, 1, 1, 1.f, nullptr, nullptr, 0.f, &sentinel, 0),
      cudaSuccess);
  EXPECT_EQ(sentinel, 42.f);
}

TEST_P(GemmOnEmulatorTest, NegativeOrHugeSizesAreInvalidValue) {
  float x = 0.f;
  EXPECT_EQ(GetParam().launch(-1, 2, 2, 1.f, &x, &x, 0.f, &x, 0),
            cudaErrorInvalidValue);
  EXPECT_EQ(GetParam().launch(2, 2, -3, 1.f, &x, &x, 0.f, &x, 0),
            cudaErrorInvalidValue);
  // 65536 x 65536 elements do not fit the kernels' int indices.
  EXPECT_EQ(GetParam().launch(65536, 65536, 1, 1.f, &x, &x, 0.f, &x, 0),
            cudaErrorInvalidValue);
}

INSTANTIATE_TEST_SUITE_P(Versions, GemmOnEmulatorTest,
                         ::testing::ValuesIn(kGemmVersions),
                         [](const ::testing::TestParamInfo<GemmVersion>& info) {
                           return std::string(info.param.name);
                         });

// The tolerance can fail: a result that lacks the last of its k products
// is outside it.
TEST(GemmToleranceTest, RejectsAMissingProduct) {
  const GemmInputs in = MakeGemmInputs({9, 11, 40}, 9);
  const std::vector<float> want = Reference(in, 1.f, 0.f);
  GemmInputs shorter = in;
  shorter.shape.k = 39;
  shorter.a.clear();
  for (int i = 0; i < 9; ++i)
    for (int p = 0; p < 39; ++p) shorter.a.push_back(in.a[i * 40 + p]);
  shorter.b.resize(39 * 11);
  EXPECT_FALSE(
      ExpectGemmNear(in, 1.f, 0.f, Reference(shorter, 1.f, 0.f), want));
  EXPECT_TRUE(ExpectGemmNear(in, 1.f, 0.f, want, want));
}

}  // namespace
}  // namespace minitf::gpu::gemm::testing
