// The teaching GEMMs compiled by nvcc and run on a GPU, each version against
// cublasSgemm in FP32 (CUBLAS_PEDANTIC_MATH: no TF32 tensor cores), within
// the tolerance gemm_testing.h states. Without a GPU (or its driver) every
// test skips, with CUDA's reason. gemm_test.cc runs the same versions on the
// CPU emulator against the CPU reference.
#include <cublas_v2.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "gemm_testing.h"
#include "minitf/gpu/kernels/gemm/reference.h"
#include "minitf/gpu/kernels/gemm/versions.cuh"

namespace minitf::gpu::gemm::testing {
namespace {

class GemmOnGpuTest : public ::testing::TestWithParam<GemmVersion> {
 protected:
  void SetUp() override {
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
      GTEST_SKIP() << "no GPU: " << cudaGetErrorName(e) << ": "
                   << cudaGetErrorString(e);
    }
    ASSERT_EQ(cublasCreate(&handle_), CUBLAS_STATUS_SUCCESS);
    ASSERT_EQ(cublasSetMathMode(handle_, CUBLAS_PEDANTIC_MATH),
              CUBLAS_STATUS_SUCCESS);
  }
  void TearDown() override {
    if (handle_ != nullptr) cublasDestroy(handle_);
  }

  // c = alpha a b + beta c by cuBLAS. cuBLAS is column-major: a row-major
  // [m,n] matrix is a column-major [n,m] one, its transpose, so the
  // row-major c = a b is the column-major c^T = b^T a^T.
  std::vector<float> Cublas(const GemmInputs& in, float alpha, float beta) {
    DeviceFloats a(in.a), b(in.b), c(in.c);
    const auto [m, n, k] = in.shape;
    EXPECT_EQ(cublasSgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha,
                          b.get(), n > 0 ? n : 1, a.get(), k > 0 ? k : 1, &beta,
                          c.get(), n > 0 ? n : 1),
              CUBLAS_STATUS_SUCCESS);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    return c.ToHost();
  }

  cublasHandle_t handle_ = nullptr;
};

std::string ShapeName(const GemmShape& s) {
  return "m=" + std::to_string(s.m) + " n=" + std::to_string(s.n) +
         " k=" + std::to_string(s.k);
}

TEST_P(GemmOnGpuTest, MatchesCublasOnEveryShape) {
  std::vector<GemmShape> shapes = TestShapes();
  // On a GPU, larger ones cost nothing: many blocks, and odd sides.
  shapes.push_back({1024, 1024, 1024});
  shapes.push_back({513, 1000, 257});
  shapes.push_back({1, 4097, 300});
  std::uint32_t seed = 1;
  for (const GemmShape& shape : shapes) {
    SCOPED_TRACE(ShapeName(shape));
    const GemmInputs in = MakeGemmInputs(shape, seed++);
    EXPECT_TRUE(ExpectGemmNear(in, 1.5f, -0.5f,
                               RunGemm(GetParam().launch, in, 1.5f, -0.5f),
                               Cublas(in, 1.5f, -0.5f)));
  }
}

TEST_P(GemmOnGpuTest, CublasItselfMatchesTheCpuReference) {
  const GemmInputs in = MakeGemmInputs({65, 63, 67}, 2);
  std::vector<float> want = in.c;
  gemm_reference(65, 63, 67, 1.5f, in.a.data(), in.b.data(), -0.5f,
                 want.data());
  EXPECT_TRUE(ExpectGemmNear(in, 1.5f, -0.5f, Cublas(in, 1.5f, -0.5f), want));
}

TEST_P(GemmOnGpuTest, BetaZeroNeverReadsC) {
  GemmInputs in = MakeGemmInputs({33, 36, 12}, 5);
  for (float& x : in.c) x = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> got = RunGemm(GetParam().launch, in, 2.f, 0.f);
  for (float x : got) ASSERT_FALSE(std::isnan(x));
  EXPECT_TRUE(ExpectGemmNear(in, 2.f, 0.f, got, Cublas(in, 2.f, 0.f)));
}

TEST_P(GemmOnGpuTest, KZeroScalesCAsCublasDoes) {
  const GemmInputs in = MakeGemmInputs({7, 9, 0}, 6);
  EXPECT_EQ(RunGemm(GetParam().launch, in, 3.f, -2.f), Cublas(in, 3.f, -2.f));
}

TEST_P(GemmOnGpuTest, EmptyMatricesSucceed) {
  for (const GemmShape shape : {GemmShape{0, 5, 3}, {5, 0, 3}, {0, 0, 0}}) {
    SCOPED_TRACE(ShapeName(shape));
    EXPECT_TRUE(
        RunGemm(GetParam().launch, MakeGemmInputs(shape, 8), 1.f, 1.f).empty());
  }
}

INSTANTIATE_TEST_SUITE_P(Versions, GemmOnGpuTest,
                         ::testing::ValuesIn(kGemmVersions),
                         [](const ::testing::TestParamInfo<GemmVersion>& info) {
                           return std::string(info.param.name);
                         });

}  // namespace
}  // namespace minitf::gpu::gemm::testing
