// The kernels of the emulator's tests, compiled by nvcc and run on a real GPU:
// the same sources give the same results. Without a GPU (or its driver) every
// test skips, with CUDA's reason.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "test_kernels.cuh"

namespace {

class KernelsOnGpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
      GTEST_SKIP() << "no GPU: " << cudaGetErrorName(e) << ": "
                   << cudaGetErrorString(e);
    }
  }
};

TEST_F(KernelsOnGpuTest, SharedMemoryAndBarrierReverseEachBlock) {
  std::vector<int> in(64 * 256), out(in.size());
  std::iota(in.begin(), in.end(), 0);
  int *d_in, *d_out;
  ASSERT_EQ(cudaMalloc(&d_in, in.size() * sizeof(int)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_out, in.size() * sizeof(int)), cudaSuccess);
  cudaMemcpy(d_in, in.data(), in.size() * sizeof(int), cudaMemcpyHostToDevice);
  MINITF_LAUNCH(block_reverse, 64, 256, 0, 0, d_in, d_out);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  cudaMemcpy(out.data(), d_out, out.size() * sizeof(int),
             cudaMemcpyDeviceToHost);
  for (int i = 0; i < 64 * 256; ++i)
    ASSERT_EQ(out[i], (i / 256) * 256 + 255 - i % 256) << i;
  cudaFree(d_in);
  cudaFree(d_out);
}

TEST_F(KernelsOnGpuTest, TiledMatmulMatchesTheCpu) {
  const int n = 64;
  std::vector<float> a(n * n), b(n * n), want(n * n, 0.f), c(n * n);
  for (int i = 0; i < n * n; ++i) {
    a[i] = static_cast<float>((i * 7) % 11) - 5.f;
    b[i] = static_cast<float>((i * 5) % 13) - 6.f;
  }
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j)
        want[i * n + j] += a[i * n + k] * b[k * n + j];
  float *d_a, *d_b, *d_c;
  cudaMalloc(&d_a, a.size() * 4);
  cudaMalloc(&d_b, b.size() * 4);
  cudaMalloc(&d_c, c.size() * 4);
  cudaMemcpy(d_a, a.data(), a.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, b.data(), b.size() * 4, cudaMemcpyHostToDevice);
  MINITF_LAUNCH(MINITF_KERNEL_NAME(tiled_matmul<16>), dim3(n / 16, n / 16),
                dim3(16, 16), 0, 0, d_a, d_b, d_c, n);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  cudaMemcpy(c.data(), d_c, c.size() * 4, cudaMemcpyDeviceToHost);
  EXPECT_EQ(c, want);
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_c);
}

TEST_F(KernelsOnGpuTest, WarpSumAndAnImpossibleLaunch) {
  std::vector<int> x(256), sums(8);
  std::iota(x.begin(), x.end(), 0);
  int *d_x, *d_sums;
  cudaMalloc(&d_x, 256 * sizeof(int));
  cudaMalloc(&d_sums, 8 * sizeof(int));
  cudaMemcpy(d_x, x.data(), 256 * sizeof(int), cudaMemcpyHostToDevice);
  MINITF_LAUNCH(warp_sum, 2, 128, 0, 0, d_x, d_sums);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  cudaMemcpy(sums.data(), d_sums, 8 * sizeof(int), cudaMemcpyDeviceToHost);
  for (int w = 0; w < 8; ++w)
    EXPECT_EQ(sums[w], 32 * 32 * w + 31 * 32 / 2) << w;
  MINITF_LAUNCH(warp_sum, 1, 1025, 0, 0, d_x, d_sums);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
  cudaFree(d_x);
  cudaFree(d_sums);
}

}  // namespace
