// What the teaching GEMMs' tests share, on the emulator (gemm_test.cc, host
// compiler, against the CPU reference) and on a GPU (gemm_on_gpu_test.cu,
// nvcc, against cuBLAS): the shapes, the inputs, device buffers, one run of
// a version, and the tolerance.
//
// The tolerance. Two float sums of the same k products, in different
// orders (a kernel's tiles, FMA on the GPU), each differ from the exact
// result by at most about (k + 2) u S, where u = 2^-24 is float's unit
// roundoff and S = |alpha| sum_p |a_ip b_pj| + |beta c_ij| the sum of the
// magnitudes (the classic bound for a dot product). So they differ from each
// other by at most (k + 2) * FLT_EPSILON * S (FLT_EPSILON = 2u), and that is
// what ExpectGemmNear allows, element by element: a bound the result of
// every correct order meets, and a wrong term or a missing one does not.
//
//   GemmInputs in = MakeGemmInputs({65, 63, 67}, /*seed=*/1);
//   std::vector<float> got = RunGemmVersion(version, in, 1.5f, -0.5f);
//   EXPECT_TRUE(ExpectGemmNear(in, 1.5f, -0.5f, got, want));
#pragma once

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <ostream>
#include <vector>

#include "minitf/gpu/kernels/gemm/versions.cuh"

namespace minitf::gpu::gemm {

/// How GoogleTest names a version in a parameterised test: by its name, not
/// its bytes (which hold addresses that change from build to build).
inline void PrintTo(const GemmVersion& version, std::ostream* os) {
  *os << version.name;
}

}  // namespace minitf::gpu::gemm

namespace minitf::gpu::gemm::testing {

struct GemmShape {
  int m, n, k;
};

/// The shapes every version is checked on: single elements, 1 x N and
/// N x 1, long and short k, multiples of the tiles (32, 64, 128) and sides
/// just off them, k and n multiples of 4 with ragged edges (version 6's
/// float4 path), and not (its fallback). At most 130 a side: emulated
/// kernels are slow.
inline const std::vector<GemmShape>& TestShapes() {
  static const std::vector<GemmShape> shapes = {
      {1, 1, 1},       {1, 130, 7},   {130, 1, 9},     {3, 4, 130},
      {17, 33, 5},     {64, 64, 64},  {128, 128, 128}, {65, 63, 67},
      {127, 129, 130}, {96, 100, 20}, {33, 36, 12},    {2, 3, 1}};
  return shapes;
}

/// a:[m,k] b:[k,n] c:[m,n], uniform in [-1, 1) from a fixed seed.
struct GemmInputs {
  GemmShape shape;
  std::vector<float> a, b, c;
};

inline GemmInputs MakeGemmInputs(GemmShape s, std::uint32_t seed) {
  std::uint32_t state = seed * 2654435761u + 1;
  auto next = [&state] {
    state = state * 1664525u + 1013904223u;  // an LCG: the same everywhere
    return static_cast<float>(state >> 8) / 8388608.f - 1.f;
  };
  GemmInputs in{s, std::vector<float>(std::size_t(s.m) * s.k),
                std::vector<float>(std::size_t(s.k) * s.n),
                std::vector<float>(std::size_t(s.m) * s.n)};
  for (float& x : in.a) x = next();
  for (float& x : in.b) x = next();
  for (float& x : in.c) x = next();
  return in;
}

/// A cudaMalloc'd array of floats, freed on destruction. Never empty: a
/// size of 0 gets one float, so the pointer is a real allocation.
class DeviceFloats {
 public:
  explicit DeviceFloats(const std::vector<float>& host) : size_(host.size()) {
    EXPECT_EQ(cudaMalloc(&ptr_, sizeof(float) * (size_ > 0 ? size_ : 1)),
              cudaSuccess);
    if (size_ > 0)
      cudaMemcpy(ptr_, host.data(), sizeof(float) * size_,
                 cudaMemcpyHostToDevice);
  }
  DeviceFloats(const DeviceFloats&) = delete;
  DeviceFloats& operator=(const DeviceFloats&) = delete;
  ~DeviceFloats() { cudaFree(ptr_); }

  float* get() const { return ptr_; }
  std::vector<float> ToHost() const {
    std::vector<float> host(size_);
    if (size_ > 0)
      cudaMemcpy(host.data(), ptr_, sizeof(float) * size_,
                 cudaMemcpyDeviceToHost);
    return host;
  }

 private:
  float* ptr_ = nullptr;
  std::size_t size_;
};

/// Runs `launch` on copies of the inputs in device memory; returns c.
/// The launch's error and the kernel's are test failures.
inline std::vector<float> RunGemm(GemmLauncher launch, const GemmInputs& in,
                                  float alpha, float beta) {
  DeviceFloats a(in.a), b(in.b), c(in.c);
  const GemmShape s = in.shape;
  EXPECT_EQ(launch(s.m, s.n, s.k, alpha, a.get(), b.get(), beta, c.get(), 0),
            cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  return c.ToHost();
}

/// Every element of `got` within (k + 2) * FLT_EPSILON * S of `want`,
/// S = |alpha| sum_p |a_ip b_pj| + |beta c_ij| (see the top of this file).
inline ::testing::AssertionResult ExpectGemmNear(
    const GemmInputs& in, float alpha, float beta,
    const std::vector<float>& got, const std::vector<float>& want) {
  const auto [m, n, k] = in.shape;
  if (got.size() != want.size())
    return ::testing::AssertionFailure()
           << got.size() << " elements, want " << want.size();
  int bad = 0;
  ::testing::AssertionResult result = ::testing::AssertionSuccess();
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      double magnitude = 0;
      for (int p = 0; p < k; ++p)
        magnitude += std::fabs(double(in.a[i * k + p]) * in.b[p * n + j]);
      magnitude =
          std::fabs(alpha) * magnitude +
          (beta == 0.f ? 0.0 : std::fabs(double(beta) * in.c[i * n + j]));
      const double tolerance = (k + 2) * double(FLT_EPSILON) * magnitude;
      const float g = got[i * n + j], w = want[i * n + j];
      if (!(std::fabs(double(g) - w) <= tolerance)) {
        if (bad == 0) result = ::testing::AssertionFailure();
        if (++bad <= 5)
          result << "c[" << i << "," << j << "] = " << g << ", want " << w
                 << " (tolerance " << tolerance << ")\n";
      }
    }
  }
  if (bad > 0)
    result << bad << " of " << m * n << " elements differ, shape m=" << m
           << " n=" << n << " k=" << k;
  return result;
}

}  // namespace minitf::gpu::gemm::testing
