// Tests of chapter 1's CPU GEMM versions (kernels/gemm/v1_naive.h to
// v7_narrow.h) against Eigen's product of the same matrices.
//
// Every version must agree with Eigen to within a tolerance that grows with
// the depth k: each element of c is a sum of k float products of values in
// [-1, 1), whose rounding errors, a few units of float's epsilon (1.2e-7)
// each, add up to at most about k epsilon. The stated tolerance is
// 8 k epsilon, for floats and for doubles (whose epsilon is far smaller).
// The shapes leave remainders in every tile and block, reach past one depth
// block (kKc) and one row block (kMc), take version 7's dot-product path
// (a c of at most 20 columns, or rows, with a depth of a packet or more)
// with and without a ragged end of the depth, and run through all four
// transpose combinations, which GemmArgs expresses as strides.
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "minitf/tensor/kernels/gemm/v1_naive.h"
#include "minitf/tensor/kernels/gemm/v2_loop_order.h"
#include "minitf/tensor/kernels/gemm/v3_cache_blocking.h"
#include "minitf/tensor/kernels/gemm/v4_packing.h"
#include "minitf/tensor/kernels/gemm/v5_micro_kernel.h"
#include "minitf/tensor/kernels/gemm/v6_threads.h"
#include "minitf/tensor/kernels/gemm/v7_narrow.h"

namespace minitf::kernels::gemm {
namespace {

template <typename T>
using Matrix =
    Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

template <typename T>
using Version = std::function<bool(const GemmArgs<T>&)>;

template <typename T>
std::vector<std::pair<std::string, Version<T>>> Versions() {
  return {
      {"v1", [](const GemmArgs<T>& g) { return v1::Gemm(g), true; }},
      {"v2", [](const GemmArgs<T>& g) { return v2::Gemm(g), true; }},
      {"v3", [](const GemmArgs<T>& g) { return v3::Gemm(g), true; }},
      {"v4", [](const GemmArgs<T>& g) { return v4::Gemm(g); }},
      {"v5", [](const GemmArgs<T>& g) { return v5::Gemm(g); }},
      {"v6, 1 thread", [](const GemmArgs<T>& g) { return v6::Gemm(g, 1); }},
      {"v6, 2 threads", [](const GemmArgs<T>& g) { return v6::Gemm(g, 2); }},
      {"v6, 3 threads", [](const GemmArgs<T>& g) { return v6::Gemm(g, 3); }},
      {"v7, 1 thread", [](const GemmArgs<T>& g) { return v7::Gemm(g, 1); }},
      {"v7, 2 threads", [](const GemmArgs<T>& g) { return v7::Gemm(g, 2); }},
      {"v7, 3 threads", [](const GemmArgs<T>& g) { return v7::Gemm(g, 3); }},
  };
}

// (m, k, n).
const std::vector<std::tuple<int64_t, int64_t, int64_t>> kShapes = {
    {1, 1, 1},      {2, 3, 2},      {7, 5, 3},      {13, 17, 33},
    {100, 256, 10}, {10, 256, 100}, {100, 784, 40}, {130, 300, 70},
    {3, 5, 4200},   {49, 0, 47},    {37, 1100, 19}, {21, 2100, 45},
    {5, 16, 1},     {301, 40, 21},  {600, 300, 12}, {1200, 40, 100},
    {37, 300, 64},  {50, 1500, 32},
};

// Runs `version` on op(a) op(b) for one transpose combination and compares
// it with Eigen.
template <typename T>
void Check(const std::string& name, const Version<T>& version, int64_t m,
           int64_t k, int64_t n, bool ta, bool tb) {
  const std::string where =
      name + " [" + std::to_string(m) + "," + std::to_string(k) + "]x[" +
      std::to_string(k) + "," + std::to_string(n) +
      "] ta=" + std::to_string(ta) + " tb=" + std::to_string(tb);
  std::srand(static_cast<unsigned>(m * 7919 + k * 31 + n));
  // a is stored [m,k], or [k,m] when transposed; likewise b.
  const Matrix<T> a = ta ? Matrix<T>::Random(k, m) : Matrix<T>::Random(m, k);
  const Matrix<T> b = tb ? Matrix<T>::Random(n, k) : Matrix<T>::Random(k, n);
  const Matrix<T> op_a = ta ? Matrix<T>(a.transpose()) : a;
  const Matrix<T> op_b = tb ? Matrix<T>(b.transpose()) : b;
  Matrix<T> want = Matrix<T>::Zero(m, n);
  if (k > 0) want.noalias() = op_a * op_b;
  // c starts as garbage, which every version must overwrite.
  Matrix<T> c = Matrix<T>::Constant(m, n, T(12345));
  GemmArgs<T> g{m, n, k};
  g.a = a.data();
  g.a_rs = ta ? 1 : k;
  g.a_cs = ta ? m : 1;
  g.b = b.data();
  g.b_rs = tb ? 1 : n;
  g.b_cs = tb ? k : 1;
  g.c = c.data();
  g.c_rs = n;
  g.c_cs = 1;
  ASSERT_TRUE(version(g)) << where;
  const double tolerance =
      8.0 * std::max<int64_t>(k, 1) * std::numeric_limits<T>::epsilon();
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      ASSERT_NEAR(c(i, j), want(i, j), tolerance)
          << where << " at (" << i << "," << j << ")";
    }
  }
}

template <typename T>
void CheckAll() {
  for (const auto& [name, version] : Versions<T>()) {
    for (const auto& [m, k, n] : kShapes) {
      for (bool ta : {false, true}) {
        for (bool tb : {false, true}) Check<T>(name, version, m, k, n, ta, tb);
      }
    }
  }
}

TEST(CpuGemmTest, EveryFloatVersionMatchesEigen) { CheckAll<float>(); }

TEST(CpuGemmTest, EveryDoubleVersionMatchesEigen) { CheckAll<double>(); }

// A transposed c (strides swapped) is how MatMul computes narrow products
// the other way round: c^T = b^T a^T must give the same c.
TEST(CpuGemmTest, TransposedArgumentsGiveTheSameProduct) {
  const int64_t m = 100, k = 256, n = 10;
  const Matrix<float> a = Matrix<float>::Random(m, k);
  const Matrix<float> b = Matrix<float>::Random(k, n);
  Matrix<float> want(m, n), c(m, n);
  want.noalias() = a * b;
  const GemmArgs<float> g =
      GemmArgs<float>::RowMajor(m, n, k, a.data(), b.data(), c.data());
  ASSERT_TRUE(v6::Gemm(g.Transposed(), 2));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      ASSERT_NEAR(c(i, j), want(i, j), 8.0 * k * 1.2e-7) << i << "," << j;
    }
  }
}

// The FMA micro-kernel computes the same tile as the scalar reference
// kernel, on a whole tile and on a ragged corner, writing and adding.
TEST(CpuGemmTest, FmaMicroKernelMatchesScalarMicroKernel) {
  constexpr int kMr = Tile<float>::kMr, kNr = Tile<float>::kNr;
  const int64_t kc = 37;
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> value(-1.f, 1.f);
  std::vector<float, Eigen::aligned_allocator<float>> a(kc * kMr), b(kc * kNr);
  for (float& x : a) x = value(gen);
  for (float& x : b) x = value(gen);
  for (auto [mr, nr] : {std::pair{kMr, kNr}, std::pair{kMr - 1, 3}}) {
    for (bool accumulate : {false, true}) {
      std::vector<float> want(kMr * kNr, 0.5f), got(kMr * kNr, 0.5f);
      ScalarMicroKernel<float>::Run(kc, a.data(), b.data(), kNr, want.data(),
                                    kNr, 1, mr, nr, accumulate);
      FmaMicroKernel<float>::Run(kc, a.data(), b.data(), kNr, got.data(), kNr,
                                 1, mr, nr, accumulate);
      for (int i = 0; i < kMr * kNr; ++i) {
        ASSERT_NEAR(got[i], want[i], 8.0 * kc * 1.2e-7)
            << "mr=" << mr << " nr=" << nr << " accumulate=" << accumulate
            << " at " << i;
      }
    }
  }
}

}  // namespace
}  // namespace minitf::kernels::gemm
