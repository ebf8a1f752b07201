// Tests of the MatMul kernel against a plain triple loop, over the paths the
// kernel takes: Eigen's expression (tiny, matrix-vector, integer and
// thin products), and chapter 1's GEMM in both orientations (narrow outputs
// computed as c^T = b^T a^T), on one thread and split between several, for
// every combination of transposes.
#include "minitf/tensor/kernels/matmul.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "minitf/tensor/kernels/intra_op.h"

namespace minitf::kernels {
namespace {

// A [rows, cols] tensor of values in [-1, 1).
template <typename T>
Tensor RandomMatrix(int64_t rows, int64_t cols, std::mt19937* gen) {
  Tensor t(DataTypeToEnum<T>::value, TensorShape({rows, cols}));
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  T* p = t.data<T>();
  for (int64_t i = 0; i < rows * cols; ++i) p[i] = static_cast<T>(value(*gen));
  return t;
}

// op(a) op(b) by the definition, accumulated in double.
template <typename T>
std::vector<double> Reference(const Tensor& a, const Tensor& b, bool ta,
                              bool tb) {
  const int64_t m = a.dim_size(ta ? 1 : 0);
  const int64_t k = a.dim_size(ta ? 0 : 1);
  const int64_t n = b.dim_size(tb ? 0 : 1);
  auto at = [&](int64_t i, int64_t l) {
    return static_cast<double>(ta ? a.data<T>()[l * m + i]
                                  : a.data<T>()[i * k + l]);
  };
  auto bt = [&](int64_t l, int64_t j) {
    return static_cast<double>(tb ? b.data<T>()[j * k + l]
                                  : b.data<T>()[l * n + j]);
  };
  std::vector<double> c(m * n, 0.0);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      for (int64_t l = 0; l < k; ++l) c[i * n + j] += at(i, l) * bt(l, j);
    }
  }
  return c;
}

// Checks MatMul on op(a):[m,k] op(b):[k,n] with every transpose combination.
template <typename T>
void CheckShape(int64_t m, int64_t k, int64_t n, double tolerance) {
  std::mt19937 gen(static_cast<uint32_t>(m * 10007 + k * 101 + n));
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      const Tensor a = ta ? RandomMatrix<T>(k, m, &gen)  //
                          : RandomMatrix<T>(m, k, &gen);
      const Tensor b = tb ? RandomMatrix<T>(n, k, &gen)  //
                          : RandomMatrix<T>(k, n, &gen);
      // StrCat, not "[" + std::to_string(m) + ...: GCC 12 at -O3 warns
      // falsely (-Wrestrict, GCC bug 105329) on a literal + a temporary
      // string.
      const std::string where =
          StrCat("[", m, ",", k, "]x[", k, ",", n, "] ta=", ta, " tb=", tb);
      StatusOr<Tensor> c = MatMul(a, b, ta, tb);
      ASSERT_TRUE(c.ok()) << where << ": " << c.status();
      ASSERT_EQ(c->shape(), TensorShape({m, n})) << where;
      const std::vector<double> want = Reference<T>(a, b, ta, tb);
      for (int64_t i = 0; i < m * n; ++i) {
        // The error of a sum of k products grows with k.
        ASSERT_NEAR(c->data<T>()[i], want[i], tolerance * std::sqrt(k))
            << where << " at element " << i;
      }
    }
  }
}

// (m, k, n): tiny, matrix-vector, narrow outputs (n under a tile of 32),
// wide ones, the chapter-3 models' shapes, and sizes that leave remainders
// in every block.
const std::vector<std::tuple<int64_t, int64_t, int64_t>> kShapes = {
    {2, 3, 2},      {5, 7, 9},      {1, 50, 30},     {30, 50, 1},
    {100, 784, 10}, {784, 100, 10}, {100, 300, 130}, {256, 100, 10},
    {100, 10, 256}, {3, 200, 2},    {97, 131, 53},   {130, 70, 61},
    {49, 300, 47},  {1000, 20, 3},  {2, 40, 500},
};

class MatMulTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    saved_threads_ = GetNumThreads();
    SetNumThreads(GetParam());
  }
  void TearDown() override { SetNumThreads(saved_threads_); }

 private:
  int saved_threads_ = 1;
};

TEST_P(MatMulTest, FloatMatchesDefinition) {
  for (const auto& [m, k, n] : kShapes) CheckShape<float>(m, k, n, 1e-5);
}

TEST_P(MatMulTest, DoubleMatchesDefinition) {
  for (const auto& [m, k, n] : kShapes) CheckShape<double>(m, k, n, 1e-13);
}

TEST_P(MatMulTest, Int32MatchesDefinition) {
  const Tensor a =
      Tensor::FromVector<int32_t>({1, 2, 3, 4, 5, 6}, {2, 3}).value();
  const Tensor b =
      Tensor::FromVector<int32_t>({7, 8, 9, 10, 11, 12}, {3, 2}).value();
  StatusOr<Tensor> c = MatMul(a, b);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->ToVector<int32_t>(), (std::vector<int32_t>{58, 64, 139, 154}));
}

// An empty inner dimension gives zeros, as a sum over nothing.
TEST_P(MatMulTest, EmptyInnerDimensionGivesZeros) {
  const Tensor a(DT_FLOAT, TensorShape({40, 0}));
  const Tensor b(DT_FLOAT, TensorShape({0, 30}));
  StatusOr<Tensor> c = MatMul(a, b);
  ASSERT_TRUE(c.ok()) << c.status();
  ASSERT_EQ(c->shape(), TensorShape({40, 30}));
  for (float v : c->ToVector<float>()) EXPECT_EQ(v, 0.f);
}

// A second product reuses the packing buffers the first one grew; a larger
// one grows them again. Neither may see the other's values.
TEST_P(MatMulTest, ReusedBuffersGiveFreshResults) {
  CheckShape<float>(200, 300, 150, 1e-5);
  CheckShape<float>(60, 50, 40, 1e-5);
  CheckShape<float>(300, 400, 100, 1e-5);
}

// FusedMatMul: the product's reference plus the bias, clipped at 0 when
// asked, for every transpose; [600,300] splits the bias add's rows between
// the threads.
TEST_P(MatMulTest, FusedMatchesProductPlusBiasThenRelu) {
  for (auto [m, k, n] : std::vector<std::tuple<int64_t, int64_t, int64_t>>{
           {5, 7, 9}, {100, 784, 10}, {600, 40, 300}}) {
    std::mt19937 gen(static_cast<uint32_t>(m + k + n));
    const Tensor bias =
        RandomMatrix<float>(1, n, &gen).Reshaped(TensorShape({n})).value();
    for (bool ta : {false, true}) {
      for (bool tb : {false, true}) {
        const Tensor a = ta ? RandomMatrix<float>(k, m, &gen)
                            : RandomMatrix<float>(m, k, &gen);
        const Tensor b = tb ? RandomMatrix<float>(n, k, &gen)
                            : RandomMatrix<float>(k, n, &gen);
        const std::vector<double> product = Reference<float>(a, b, ta, tb);
        for (bool relu : {false, true}) {
          StatusOr<Tensor> c = FusedMatMul(a, b, bias, ta, tb, relu);
          ASSERT_TRUE(c.ok()) << c.status();
          for (int64_t i = 0; i < m * n; ++i) {
            double want = product[i] + bias.data<float>()[i % n];
            if (relu) want = std::max(want, 0.0);
            ASSERT_NEAR(c->data<float>()[i], want, 1e-5 * std::sqrt(k))
                << m << "x" << k << "x" << n << " ta=" << ta << " tb=" << tb
                << " relu=" << relu << " at " << i;
          }
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Threads, MatMulTest, ::testing::Values(1, 2, 3),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return std::to_string(info.param) + "Threads";
                         });

TEST(MatMulErrorTest, InnerDimensionsMustAgree) {
  const Tensor a(DT_FLOAT, TensorShape({2, 3}));
  StatusOr<Tensor> c = MatMul(a, a);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(c.status().message(),
            "Matrix size-incompatible: In[0]: [2,3], In[1]: [2,3]");
}

// A bias of the wrong length fails as BiasAdd does; so does another dtype.
TEST(MatMulErrorTest, FusedBiasMustFitTheProduct) {
  const Tensor a(DT_FLOAT, TensorShape({2, 3}));
  const Tensor b(DT_FLOAT, TensorShape({3, 4}));
  StatusOr<Tensor> c =
      FusedMatMul(a, b, Tensor(DT_FLOAT, TensorShape({3})), false, false, true);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(c.status().message(),
            "Must provide as many biases as the last dimension of the input "
            "tensor: [3] vs. [2,4]");
  c = FusedMatMul(a, b, Tensor(DT_DOUBLE, TensorShape({4})), false, false,
                  true);
  EXPECT_EQ(c.status().code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(c.status().message(),
            "cannot compute _FusedMatMul as input #2(zero-based) was expected "
            "to be a float tensor but is a double tensor");
}

// Only float and double products have the fused kernel.
TEST(MatMulErrorTest, FusedMatMulOfIntegersHasNoKernel) {
  const Tensor a(DT_INT32, TensorShape({2, 3}));
  const Tensor b(DT_INT32, TensorShape({3, 4}));
  StatusOr<Tensor> c =
      FusedMatMul(a, b, Tensor(DT_INT32, TensorShape({4})), false, false, true);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), error::INVALID_ARGUMENT);
  EXPECT_EQ(c.status().message(), "_FusedMatMul has no kernel for dtype int32");
}

}  // namespace
}  // namespace minitf::kernels
