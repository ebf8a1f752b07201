// The shared harness of the GPU ops (gpu_ops.h): every op, for every dtype
// it takes, on a set of shapes, run by the CPU kernel of chapters 1-3 and by
// the GPU backend under test, compared with a tolerance stated per op.
//
// The body is written once and compiled into two tests: gpu_ops_test.cc runs
// it on the emulated GPU, and gpu_ops_on_gpu_test.cc (where CMake finds
// nvcc) on a real one, skipping with CUDA's reason where there is none. Each
// defines KernelsUnderTest(). The body treats the backend's memory as a
// GPU's even on the emulator: tensors are allocated with the backend's
// Malloc (an allocator that says its memory is not host accessible, so any
// host read of it aborts), and values cross only by copies on the stream.
//
// Shapes: scalars, odd sizes, sizes not a multiple of the 256-thread block,
// kBig (more than one pass of the grid-stride loop: kMaxBlocks x kBlock =
// 262144 threads), empty tensors, broadcasts, reductions over each axis,
// pairs of axes and all axes.
//
// A lambda names a structured binding of its loop through an init-capture
// ([&, op = op]): clang 14, which builds these tests for CI's run under the
// sanitizers (the fuzzers' tree, scripts/common.sh), cannot capture a
// structured binding itself.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "kernel_harness.h"
#include "minitf/gpu/kernels/backend.h"
#include "minitf/gpu/tensor_ops.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/nn_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/tensor/allocator.h"
#include "minitf/tensor/kernels/array_ops.h"
#include "minitf/tensor/kernels/cwise_ops.h"
#include "minitf/tensor/kernels/matmul.h"
#include "minitf/tensor/kernels/nn_ops.h"
#include "minitf/tensor/kernels/reduction_ops.h"
#include "minitf/train/ops/grad_ops.h"
#include "minitf/train/ops/training_ops.h"
#include "minitf/train/variables.h"

namespace minitf::gpu::testing {

/// Defined by each test program: the backend under test, or nullptr with
/// *skip_reason saying why there is none.
const GpuKernels* KernelsUnderTest(std::string* skip_reason);

/// More elements than one pass of the grid-stride loop covers (262144), and
/// not a multiple of the block.
inline constexpr int64_t kBig = 2 * 262144 + 3;

/// The backend's memory as an Allocator. It says its memory is not host
/// accessible, so that a host read of a device tensor aborts even on the
/// emulator, where it would happen to work.
class DeviceAllocator final : public Allocator {
 public:
  explicit DeviceAllocator(const GpuKernels* kernels) : kernels_(kernels) {}
  std::string Name() const override { return "gpu_test"; }
  void* AllocateRaw(size_t, size_t num_bytes) override {
    void* p = nullptr;
    // A distinct pointer even for 0 bytes, as the Allocator contract says.
    if (!kernels_->Malloc(&p, std::max<size_t>(num_bytes, 1)).ok())
      return nullptr;
    return p;
  }
  void DeallocateRaw(void* ptr) override {
    EXPECT_TRUE(kernels_->Free(ptr).ok());
  }
  bool HostAccessible() const override { return false; }

 private:
  const GpuKernels* kernels_;
};

/// How far a GPU result may be from the CPU's: |gpu - cpu| <= abs + rel *
/// |cpu|, for float and for double; integers and bools must be equal.
struct Tolerance {
  double float_abs = 0, float_rel = 0;
  double double_abs = 0, double_rel = 0;
};
/// Results that are correctly rounded on both sides (+, -, *, /, sqrt,
/// comparisons, casts, max and min): the same bits.
inline constexpr Tolerance kExact{};

/// Which values a test feeds an op.
enum class Domain {
  kAny,          // floats in [-3, 3]; integers in [-50, 50]; bools
  kPositive,     // floats in [0.1, 5] (Log, Sqrt); integers in [1, 50]
  kNonZero,      // no zeros, magnitude >= 0.5 (divisors)
  kUnit,         // floats in [-1, 1] (matmul)
  kPowersOfTwo,  // +-1, +-2, +-0.5: products are exact
  kSigns,        // +-1: long products stay exact and finite
  kSmallInts,    // 0 ... 4: many ties (argmax)
};

class GpuOpsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string reason;
    kernels_ = KernelsUnderTest(&reason);
    if (kernels_ == nullptr) GTEST_SKIP() << reason;
    ASSERT_TRUE(kernels_->CreateStream(&stream_).ok());
    allocator_ = std::make_unique<DeviceAllocator>(kernels_);
  }
  void TearDown() override {
    if (kernels_ != nullptr) {
      EXPECT_TRUE(kernels_->DestroyStream(stream_).ok());
    }
  }

  GpuStreamContext ctx() const { return {kernels_, stream_}; }

  /// Runs f with the device's allocator as the default, as the executor
  /// does around a GPU kernel.
  template <class F>
  auto OnGpu(F f) {
    ScopedDefaultAllocator on_device(allocator_.get());
    return f();
  }

  Tensor ToDevice(const Tensor& host) {
    Tensor d =
        Tensor::Allocate(host.dtype(), host.shape(), allocator_.get()).value();
    EXPECT_TRUE(kernels_
                    ->CopyHostToDevice(d.device_data(), host.raw_data(),
                                       host.TotalBytes(), stream_)
                    .ok());
    // `host` may go away when this returns: the copy must be done.
    EXPECT_TRUE(kernels_->Synchronize(stream_).ok());
    return d;
  }

  /// Waits for the stream's work (the op's kernels), then copies back.
  Tensor ToHost(const Tensor& device) {
    EXPECT_TRUE(kernels_->Synchronize(stream_).ok());
    Tensor h(cpu_allocator(), device.dtype(), device.shape());
    EXPECT_TRUE(kernels_
                    ->CopyDeviceToHost(h.raw_data(), device.device_data(),
                                       device.TotalBytes(), stream_)
                    .ok());
    EXPECT_TRUE(kernels_->Synchronize(stream_).ok());
    return h;
  }

  const GpuKernels* kernels_ = nullptr;
  GpuStream stream_ = nullptr;
  std::unique_ptr<DeviceAllocator> allocator_;
};

// --- values ---------------------------------------------------------------

inline Tensor Random(DType dtype, const TensorShape& shape, Domain domain,
                     uint32_t seed) {
  std::mt19937 rng(seed);
  Tensor t(cpu_allocator(), dtype, shape);
  auto real = [&](double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
  };
  auto integer = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  auto value = [&]() -> double {
    switch (domain) {
      case Domain::kAny:
        return DataTypeIsFloating(dtype) ? real(-3, 3) : integer(-50, 50);
      case Domain::kPositive:
        return DataTypeIsFloating(dtype) ? real(0.1, 5) : integer(1, 50);
      case Domain::kNonZero: {
        const double sign = integer(0, 1) ? 1 : -1;
        return sign *
               (DataTypeIsFloating(dtype) ? real(0.5, 3) : integer(1, 9));
      }
      case Domain::kUnit:
        return DataTypeIsFloating(dtype) ? real(-1, 1) : integer(-1, 1);
      case Domain::kPowersOfTwo: {
        constexpr double kValues[] = {1, -1, 2, -2, 0.5, -0.5};
        return DataTypeIsFloating(dtype) ? kValues[integer(0, 5)]
                                         : kValues[integer(0, 3)];
      }
      case Domain::kSigns:
        return integer(0, 1) ? 1 : -1;
      case Domain::kSmallInts:
        return integer(0, 4);
    }
    return 0;
  };
  SwitchDType(dtype, [&]<typename T>() {
    T* p = t.data<T>();
    for (int64_t i = 0; i < t.NumElements(); ++i) {
      if constexpr (std::is_same_v<T, bool>) {
        p[i] = integer(0, 1) != 0;
      } else {
        p[i] = static_cast<T>(value());
      }
    }
  });
  return t;
}

/// A host tensor of `dtype` from doubles.
inline Tensor HostTensor(DType dtype, const TensorShape& shape,
                         const std::vector<double>& values) {
  Tensor t(cpu_allocator(), dtype, shape);
  SwitchDType(dtype, [&]<typename T>() {
    for (int64_t i = 0; i < t.NumElements(); ++i)
      t.data<T>()[i] = static_cast<T>(values[i]);
  });
  return t;
}

/// Checks `got` (on the host) against `want` within `tol`, reporting the
/// first few differences and how many there are. NaN matches NaN.
inline ::testing::AssertionResult Near(const Tensor& got, const Tensor& want,
                                       const Tolerance& tol) {
  if (got.dtype() != want.dtype() || got.shape() != want.shape()) {
    return ::testing::AssertionFailure()
           << "got " << got.dtype() << " " << got.shape() << ", want "
           << want.dtype() << " " << want.shape();
  }
  int64_t bad = 0;
  std::string first;
  SwitchDType(got.dtype(), [&]<typename T>() {
    const T* g = got.data<T>();
    const T* w = want.data<T>();
    for (int64_t i = 0; i < got.NumElements(); ++i) {
      bool ok = g[i] == w[i];
      if constexpr (std::is_floating_point_v<T>) {
        const bool single = std::is_same_v<T, float>;
        const double abs = single ? tol.float_abs : tol.double_abs;
        const double rel = single ? tol.float_rel : tol.double_rel;
        ok = ok || (std::isnan(g[i]) && std::isnan(w[i])) ||
             (std::isfinite(w[i]) && std::abs(double(g[i]) - double(w[i])) <=
                                         abs + rel * std::abs(double(w[i])));
      }
      if (!ok && ++bad <= 5) {
        first += " [" + std::to_string(i) + "] got " +
                 std::to_string(double(g[i])) + " want " +
                 std::to_string(double(w[i])) + ";";
      }
    }
  });
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << bad << " of " << got.NumElements() << " elements differ:" << first;
}

/// A dtype's name for traces.
inline std::string Trace(DType dtype, const TensorShape& shape) {
  return std::string(DataTypeString(dtype)) + " " + shape.DebugString();
}

inline std::vector<DType> DTypesOf(DTypeSet set) {
  std::vector<DType> out;
  for (DType d : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_BOOL})
    if (Contains(set, d)) out.push_back(d);
  return out;
}

// --- elementwise ------------------------------------------------------------

// --8<-- [start:unary_test]
TEST_F(GpuOpsTest, UnaryMatchesCpuOnEveryDTypeAndShape) {
  struct Case {
    UnaryOp op;
    std::function<StatusOr<Tensor>(const Tensor&)> cpu;
    Domain domain;
    // Why: exp, log, tanh and sigmoid are not correctly rounded by either
    // math library (CUDA's expf is within 2 ulp, Eigen's vectorised exp
    // within 1): a few ulp of float or double. Eigen's float sqrt is a
    // reciprocal estimate refined by Newton's method, within 1 ulp; CUDA's
    // sqrtf is correctly rounded. The rest are exact on both sides.
    Tolerance tol;
  };
  const Tolerance kFewUlp{1e-30, 5e-7, 1e-300, 2e-15};
  const std::vector<Case> cases = {
      {UnaryOp::kNeg, kernels::Neg, Domain::kAny, kExact},
      {UnaryOp::kAbs, kernels::Abs, Domain::kAny, kExact},
      {UnaryOp::kSign, kernels::Sign, Domain::kAny, kExact},
      {UnaryOp::kSquare, kernels::Square, Domain::kAny, kExact},
      {UnaryOp::kSqrt, kernels::Sqrt, Domain::kPositive, kFewUlp},
      // Layer 3's Reciprocal kernel, 1 / x, through the graph's CPU kernel.
      {UnaryOp::kReciprocal,
       [](const Tensor& x) {
         Graph g;
         graph_scope use(g);
         return minitf::testing::RunKernel(reciprocal(constant(x)));
       },
       Domain::kNonZero, kExact},
      {UnaryOp::kExp, kernels::Exp, Domain::kAny, kFewUlp},
      {UnaryOp::kLog, kernels::Log, Domain::kPositive, kFewUlp},
      {UnaryOp::kRelu, kernels::Relu, Domain::kAny, kExact},
      {UnaryOp::kSigmoid, kernels::Sigmoid, Domain::kAny, kFewUlp},
      {UnaryOp::kTanh, kernels::Tanh, Domain::kAny, kFewUlp},
      {UnaryOp::kLogicalNot, kernels::LogicalNot, Domain::kAny, kExact},
  };
  const std::vector<TensorShape> shapes = {
      {}, {1}, {7}, {255}, {257}, {3, 5, 7}, {0}, {2, 0, 3}, {kBig}};
  uint32_t seed = 1;
  for (const Case& c : cases) {
    for (DType dtype : DTypesOf(TypesOf(c.op))) {
      for (const TensorShape& shape : shapes) {
        SCOPED_TRACE(std::string(OpName(c.op)) + " " + Trace(dtype, shape));
        const Tensor x = Random(dtype, shape, c.domain, seed++);
        const Tensor want = c.cpu(x).value();
        const Tensor got =
            OnGpu([&] { return Unary(ctx(), c.op, ToDevice(x)).value(); });
        EXPECT_TRUE(Near(ToHost(got), want, c.tol));
      }
    }
  }
}
// --8<-- [end:unary_test]

TEST_F(GpuOpsTest, UnaryKeepsNanAndInfinityAsTheCpuDoes) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> values = {nan, inf, -inf, 0, -0.0, 1, -1};
  for (DType dtype : {DT_FLOAT, DT_DOUBLE}) {
    const Tensor x = HostTensor(dtype, {7}, values);
    for (auto [op, cpu] :
         std::vector<std::pair<UnaryOp, StatusOr<Tensor> (*)(const Tensor&)>>{
             {UnaryOp::kRelu, kernels::Relu},
             {UnaryOp::kAbs, kernels::Abs},
             {UnaryOp::kSign, kernels::Sign},
             {UnaryOp::kSigmoid, kernels::Sigmoid},
             {UnaryOp::kTanh, kernels::Tanh}}) {
      SCOPED_TRACE(std::string(OpName(op)) + " " + Trace(dtype, x.shape()));
      const Tensor got =
          OnGpu([&, op = op] { return Unary(ctx(), op, ToDevice(x)).value(); });
      // Exact at the limits; a few ulp at +-1 for sigmoid and tanh.
      EXPECT_TRUE(
          Near(ToHost(got), cpu(x).value(), {1e-30, 5e-7, 1e-300, 2e-15}));
    }
  }
}

TEST_F(GpuOpsTest, UnaryRejectsWhatTheCpuRejects) {
  const Tensor b = ToDevice(Random(DT_BOOL, {3}, Domain::kAny, 1));
  const Tensor i = ToDevice(Random(DT_INT32, {3}, Domain::kAny, 1));
  EXPECT_EQ(
      OnGpu([&] { return Unary(ctx(), UnaryOp::kNeg, b); }).status().ToString(),
      kernels::Neg(Random(DT_BOOL, {3}, Domain::kAny, 1)).status().ToString());
  EXPECT_EQ(
      OnGpu([&] { return Unary(ctx(), UnaryOp::kExp, i); }).status().ToString(),
      kernels::Exp(Random(DT_INT32, {3}, Domain::kAny, 1)).status().ToString());
  EXPECT_EQ(OnGpu([&] { return Unary(ctx(), UnaryOp::kLogicalNot, i); })
                .status()
                .message(),
            "No LogicalNot kernel for dtype int32 (LogicalNot takes bool)");
  EXPECT_EQ(OnGpu([&] { return Unary(ctx(), UnaryOp::kNeg, Tensor()); })
                .status()
                .message(),
            "cannot compute Neg as input #0(zero-based) is an uninitialized "
            "tensor");
}

// --8<-- [start:binary_test]
TEST_F(GpuOpsTest, BinaryMatchesCpuOnEveryDTypeAndBroadcast) {
  using CpuBinary = StatusOr<Tensor> (*)(const Tensor&, const Tensor&);
  struct Case {
    BinaryOp op;
    CpuBinary cpu;
    Domain y_domain;
  };
  // Every result is exact: +, -, *, / are correctly rounded in IEEE
  // arithmetic on both sides, integers wrap the same way, and max, min and
  // the comparisons compute nothing.
  const std::vector<Case> cases = {
      {BinaryOp::kAdd, kernels::Add, Domain::kAny},
      {BinaryOp::kSub, kernels::Sub, Domain::kAny},
      {BinaryOp::kMul, kernels::Mul, Domain::kAny},
      {BinaryOp::kDiv, kernels::Div, Domain::kNonZero},
      {BinaryOp::kMaximum, kernels::Maximum, Domain::kAny},
      {BinaryOp::kMinimum, kernels::Minimum, Domain::kAny},
      {BinaryOp::kReluGrad, kernels::ReluGrad, Domain::kAny},
      {BinaryOp::kEqual, kernels::Equal, Domain::kSmallInts},
      {BinaryOp::kNotEqual, kernels::NotEqual, Domain::kSmallInts},
      {BinaryOp::kLess, kernels::Less, Domain::kAny},
      {BinaryOp::kLessEqual, kernels::LessEqual, Domain::kSmallInts},
      {BinaryOp::kGreater, kernels::Greater, Domain::kAny},
      {BinaryOp::kGreaterEqual, kernels::GreaterEqual, Domain::kSmallInts},
      {BinaryOp::kLogicalAnd, kernels::LogicalAnd, Domain::kAny},
      {BinaryOp::kLogicalOr, kernels::LogicalOr, Domain::kAny},
  };
  const std::vector<std::pair<TensorShape, TensorShape>> shapes = {
      {{}, {}},
      {{7}, {7}},
      {{257}, {257}},
      {{2, 3}, {3}},
      {{3}, {2, 3}},
      {{}, {4, 5}},
      {{4, 5}, {}},
      {{4, 1}, {1, 5}},
      {{3, 1, 5}, {4, 1}},
      {{2, 3, 1}, {2, 1, 4}},
      {{0, 3}, {3}},
      {{2, 0}, {1}},
      {{kBig}, {kBig}},
      {{kBig}, {}},
      {{2, 1, 2, 1, 2, 1, 2, 1}, {1, 3, 1, 3, 1, 3, 1, 3}},
  };
  uint32_t seed = 100;
  for (const Case& c : cases) {
    for (DType dtype : DTypesOf(TypesOf(c.op))) {
      for (const auto& [xs, ys] : shapes) {
        SCOPED_TRACE(std::string(OpName(c.op)) + " " + Trace(dtype, xs) +
                     " vs. " + ys.DebugString());
        // Equal's operands share small values, so that some are equal.
        const Domain x_domain = c.y_domain == Domain::kSmallInts
                                    ? Domain::kSmallInts
                                    : Domain::kAny;
        const Tensor x = Random(dtype, xs, x_domain, seed++);
        const Tensor y = Random(dtype, ys, c.y_domain, seed++);
        const Tensor want = c.cpu(x, y).value();
        const Tensor got = OnGpu([&] {
          return Binary(ctx(), c.op, ToDevice(x), ToDevice(y)).value();
        });
        EXPECT_TRUE(Near(ToHost(got), want, kExact));
      }
    }
  }
}
// --8<-- [end:binary_test]

TEST_F(GpuOpsTest, BinaryPropagatesNanAsTheCpuDoes) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (DType dtype : {DT_FLOAT, DT_DOUBLE}) {
    const Tensor x = HostTensor(dtype, {5}, {nan, 1, nan, inf, -2});
    const Tensor y = HostTensor(dtype, {5}, {1, nan, nan, 1, -inf});
    for (auto [op, cpu] :
         std::vector<std::pair<BinaryOp, StatusOr<Tensor> (*)(const Tensor&,
                                                              const Tensor&)>>{
             {BinaryOp::kMaximum, kernels::Maximum},
             {BinaryOp::kMinimum, kernels::Minimum},
             {BinaryOp::kReluGrad, kernels::ReluGrad},
             {BinaryOp::kEqual, kernels::Equal},
             {BinaryOp::kLess, kernels::Less}}) {
      SCOPED_TRACE(std::string(OpName(op)) + " " + Trace(dtype, {5}));
      const Tensor got = OnGpu([&, op = op] {
        return Binary(ctx(), op, ToDevice(x), ToDevice(y)).value();
      });
      EXPECT_TRUE(Near(ToHost(got), cpu(x, y).value(), kExact));
    }
  }
}

TEST_F(GpuOpsTest, IntegerDivisionIsFloorDivisionAndByZeroGivesZero) {
  for (DType dtype : {DT_INT32, DT_INT64}) {
    const Tensor x = HostTensor(dtype, {5}, {-7, 7, -7, 5, 3});
    const Tensor y = HostTensor(dtype, {5}, {2, -2, -1, 0, 0});
    const Tensor got = OnGpu([&] {
      return Binary(ctx(), BinaryOp::kDiv, ToDevice(x), ToDevice(y)).value();
    });
    // The CPU returns "Integer division by zero" for the whole op; a GPU
    // kernel cannot, and gives 0 (gpu_ops.h).
    EXPECT_TRUE(
        Near(ToHost(got), HostTensor(dtype, {5}, {-4, -4, 7, 0, 0}), kExact));
  }
}

TEST_F(GpuOpsTest, BinaryRejectsWhatTheCpuRejects) {
  const Tensor a = Random(DT_FLOAT, {2, 3}, Domain::kAny, 1);
  const Tensor b = Random(DT_FLOAT, {2}, Domain::kAny, 2);
  const Tensor c = Random(DT_INT32, {2, 3}, Domain::kAny, 3);
  const Tensor t = Random(DT_BOOL, {2, 3}, Domain::kAny, 4);
  const Tensor da = ToDevice(a), db = ToDevice(b), dc = ToDevice(c),
               dt = ToDevice(t);
  auto gpu = [&](BinaryOp op, const Tensor& x, const Tensor& y) {
    return OnGpu([&] { return Binary(ctx(), op, x, y).status().ToString(); });
  };
  EXPECT_EQ(gpu(BinaryOp::kAdd, da, db),
            kernels::Add(a, b).status().ToString());
  EXPECT_EQ(gpu(BinaryOp::kAdd, da, dc),
            kernels::Add(a, c).status().ToString());
  EXPECT_EQ(gpu(BinaryOp::kLess, dt, dt),
            kernels::Less(t, t).status().ToString());
  EXPECT_EQ(gpu(BinaryOp::kLogicalAnd, da, da),
            kernels::LogicalAnd(a, a).status().ToString());
  // More alternating broadcast dimensions than a GPU kernel's loops hold.
  const TensorShape xs({2, 1, 2, 1, 2, 1, 2, 1, 2});
  const TensorShape ys({1, 2, 1, 2, 1, 2, 1, 2, 1});
  const Tensor x = ToDevice(Random(DT_FLOAT, xs, Domain::kAny, 5));
  const Tensor y = ToDevice(Random(DT_FLOAT, ys, Domain::kAny, 6));
  const Status s =
      OnGpu([&] { return Binary(ctx(), BinaryOp::kAdd, x, y); }).status();
  EXPECT_TRUE(errors::IsUnimplemented(s)) << s;
}

TEST_F(GpuOpsTest, BiasAddMatchesTheCpuKernel) {
  const std::vector<std::pair<TensorShape, int64_t>> shapes = {
      {{2, 3}, 3},
      {{4, 5, 7}, 7},
      {{0, 3}, 3},
      {{3, 0}, 0},
      {{1000, 257}, 257}};
  uint32_t seed = 200;
  for (DType dtype : DTypesOf(DTypeSet::kNumbers)) {
    for (const auto& [shape, channels] : shapes) {
      SCOPED_TRACE(Trace(dtype, shape));
      const Tensor value = Random(dtype, shape, Domain::kAny, seed++);
      const Tensor bias = Random(dtype, {channels}, Domain::kAny, seed++);
      Graph g;
      graph_scope use(g);
      const Tensor want = minitf::testing::RunKernel(
                              nn::bias_add(constant(value), constant(bias)))
                              .value();
      const Tensor got = OnGpu([&] {
        return BiasAdd(ctx(), ToDevice(value), ToDevice(bias)).value();
      });
      // Exact: one addition per element on both sides.
      EXPECT_TRUE(Near(ToHost(got), want, kExact));
    }
  }
  const Tensor v = ToDevice(Random(DT_FLOAT, {2, 3}, Domain::kAny, 1));
  const Tensor b3 = ToDevice(Random(DT_FLOAT, {3}, Domain::kAny, 1));
  const Tensor b2 = ToDevice(Random(DT_FLOAT, {2}, Domain::kAny, 1));
  const Tensor v1 = ToDevice(Random(DT_FLOAT, {3}, Domain::kAny, 1));
  auto error = [&](const Tensor& value, const Tensor& bias) {
    return OnGpu([&] { return BiasAdd(ctx(), value, bias); })
        .status()
        .message();
  };
  EXPECT_EQ(error(v1, b3), "Input tensor must be at least 2D: [3]");
  EXPECT_EQ(error(v, v), "Biases must be 1D: [2,3]");
  EXPECT_EQ(error(v, b2),
            "Must provide as many biases as the last dimension of the input "
            "tensor: [2] vs. [2,3]");
}

TEST_F(GpuOpsTest, CastMatchesCpuBetweenEveryPairOfDTypes) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  // Saturation, truncation toward zero, NaN, the int32 wrap of int64.
  const std::vector<double> edges = {nan,  inf, -inf, 1e10, -1e10, 2.5,
                                     -2.5, 0,   1,    -1,   3e9,   -3e9};
  const std::vector<DType> all = {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64,
                                  DT_BOOL};
  uint32_t seed = 300;
  for (DType from : all) {
    std::vector<Tensor> inputs = {Random(from, {}, Domain::kAny, seed++),
                                  Random(from, {0}, Domain::kAny, seed++),
                                  Random(from, {257}, Domain::kAny, seed++),
                                  Random(from, {kBig}, Domain::kAny, seed++)};
    if (DataTypeIsFloating(from)) {
      inputs.push_back(
          HostTensor(from, {static_cast<int64_t>(edges.size())}, edges));
    }
    if (from == DT_INT64) {
      inputs.push_back(HostTensor(from, {3}, {3e9, -3e9, 4294967297.0}));
    }
    for (DType to : all) {
      for (const Tensor& x : inputs) {
        SCOPED_TRACE(Trace(from, x.shape()) + " to " +
                     std::string(DataTypeString(to)));
        const Tensor got =
            OnGpu([&] { return Cast(ctx(), ToDevice(x), to).value(); });
        // Exact: each conversion is one correctly rounded step.
        EXPECT_TRUE(Near(ToHost(got), kernels::Cast(x, to).value(), kExact));
      }
    }
  }
  EXPECT_EQ(
      OnGpu([&] { return Cast(ctx(), Tensor(), DT_FLOAT); }).status().message(),
      "Cast got an uninitialized tensor as its input");
}

TEST_F(GpuOpsTest, FillMatchesCpu) {
  for (DType dtype : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_BOOL}) {
    const Tensor value = HostTensor(dtype, {}, {-3});
    for (const TensorShape& shape :
         {TensorShape{}, TensorShape{0}, TensorShape{3, 0}, TensorShape{257},
          TensorShape{kBig}}) {
      SCOPED_TRACE(Trace(dtype, shape));
      const Tensor got =
          OnGpu([&] { return Fill(ctx(), shape, value).value(); });
      EXPECT_TRUE(Near(ToHost(got),
                       kernels::Fill(shape.dim_sizes(), value).value(),
                       kExact));
    }
  }
  const Tensor vector = HostTensor(DT_FLOAT, {2}, {1, 2});
  EXPECT_EQ(OnGpu([&] { return Fill(ctx(), {3}, vector); }).status().message(),
            kernels::Fill({3}, vector).status().message());
  EXPECT_EQ(
      OnGpu([&] { return Fill(ctx(), {-1}, HostTensor(DT_FLOAT, {}, {1})); })
          .status()
          .ToString(),
      kernels::Fill({-1}, HostTensor(DT_FLOAT, {}, {1})).status().ToString());
}

// --- tile -------------------------------------------------------------------

/// The value of the tensor `make` builds in a graph of its own, run by the
/// CPU kernels of layers 2 and 3, or its error.
inline StatusOr<Tensor> RunOnCpu(const std::function<Output()>& make) {
  auto g = std::make_shared<Graph>();
  graph_scope use(*g);
  Output y = make();
  auto session = NewSession(SessionOptions{}, g);
  if (!session.ok()) return session.status();
  std::vector<Tensor> out;
  TF_RETURN_IF_ERROR(session.value()->Run({}, {y.name()}, {}, &out));
  return out[0];
}

/// An int32 vector Const of `values`.
inline Output IndexConst(const std::vector<int64_t>& values) {
  std::vector<int32_t> v(values.begin(), values.end());
  return constant(
      Tensor::FromVector<int32_t>(v, {static_cast<int64_t>(v.size())}).value());
}

inline StatusOr<Tensor> CpuTile(const Tensor& x,
                                const std::vector<int64_t>& multiples) {
  return RunOnCpu([&] { return tile(constant(x), IndexConst(multiples)); });
}

TEST_F(GpuOpsTest, TileMatchesTheCpuKernel) {
  const std::vector<std::pair<TensorShape, std::vector<int64_t>>> cases = {
      {{}, {}},
      {{3}, {1}},
      {{3}, {4}},
      {{2, 3}, {2, 1}},
      {{2, 3}, {1, 3}},
      {{2, 3}, {3, 2}},
      {{2, 1, 3}, {1, 5, 1}},
      {{1, 4}, {7, 1}},
      {{2, 3}, {0, 2}},
      {{0, 3}, {2, 2}},
      {{257}, {3}},
      {{kBig}, {2}},
      {{2, 2, 2, 2}, {2, 2, 2, 2}},
  };
  uint32_t seed = 500;
  for (DType dtype : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_BOOL}) {
    for (const auto& [shape, multiples] : cases) {
      SCOPED_TRACE(Trace(dtype, shape));
      const Tensor x = Random(dtype, shape, Domain::kAny, seed++);
      const Tensor got = OnGpu([&, &multiples = multiples] {
        return Tile(ctx(), ToDevice(x), multiples).value();
      });
      EXPECT_TRUE(Near(ToHost(got), CpuTile(x, multiples).value(), kExact));
    }
  }
  // The CPU kernel's words (grad_kernels.cc); a graph never reaches it with
  // a wrong length, which shape inference refuses first.
  const Tensor x = Random(DT_FLOAT, {2, 3}, Domain::kAny, 1);
  EXPECT_EQ(
      OnGpu([&] { return Tile(ctx(), ToDevice(x), {2}); }).status().message(),
      "Expected multiples argument to be a vector of length 2 but got "
      "length 1");
  EXPECT_EQ(OnGpu([&] {
              return Tile(ctx(), ToDevice(x), {1, -1});
            })
                .status()
                .message(),
            "Expected multiples[1] >= 0, but got -1");
}

inline StatusOr<Tensor> CpuBroadcastTo(const Tensor& x,
                                       const std::vector<int64_t>& shape) {
  return RunOnCpu([&] { return broadcast_to(constant(x), IndexConst(shape)); });
}

TEST_F(GpuOpsTest, BroadcastToMatchesTheCpuKernel) {
  const std::vector<std::pair<TensorShape, std::vector<int64_t>>> cases = {
      {{}, {}},
      {{}, {5}},
      {{1}, {4}},
      {{3}, {2, 3}},
      {{2, 1}, {2, 5}},
      {{1, 3}, {4, 3}},
      {{2, 1, 3}, {2, 4, 3}},
      {{1}, {0}},
      {{3}, {0, 3}},
      {{1}, {kBig}},
      {{257}, {2, 257}},
  };
  uint32_t seed = 700;
  for (DType dtype : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_BOOL}) {
    for (const auto& [shape, to] : cases) {
      SCOPED_TRACE(Trace(dtype, shape));
      const Tensor x = Random(dtype, shape, Domain::kAny, seed++);
      const Tensor got = OnGpu([&, &to = to] {
        return BroadcastTo(ctx(), ToDevice(x), to).value();
      });
      EXPECT_TRUE(Near(ToHost(got), CpuBroadcastTo(x, to).value(), kExact));
    }
  }
  const Tensor x = Random(DT_FLOAT, {2, 3}, Domain::kAny, 1);
  EXPECT_EQ(OnGpu([&] {
              return BroadcastTo(ctx(), ToDevice(x), {4, 3});
            })
                .status()
                .message(),
            "Unable to broadcast tensor of shape [2,3] to tensor of shape "
            "[4,3]");
}

// --- the array ops that move data --------------------------------------------

// Chapter 1's CPU kernels (array_ops.h) are the reference: every result is
// exact, since nothing is computed, only copied.
TEST_F(GpuOpsTest, TransposeMatchesTheCpuKernel) {
  const std::vector<std::pair<TensorShape, std::vector<int>>> cases = {
      {{}, {}},
      {{7}, {0}},
      {{2, 3}, {1, 0}},
      {{2, 3}, {0, 1}},
      {{1, 5}, {1, 0}},
      {{2, 3, 4}, {2, 0, 1}},
      {{2, 3, 4}, {0, 2, 1}},
      {{2, 3, 4}, {1, 2, 0}},
      {{2, 1, 3, 1, 2}, {4, 3, 2, 1, 0}},
      {{0, 3}, {1, 0}},
      {{257, 3}, {1, 0}},
      {{3, kBig / 3}, {1, 0}},
  };
  uint32_t seed = 1300;
  for (DType dtype : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_BOOL}) {
    for (const auto& [shape, perm] : cases) {
      SCOPED_TRACE(Trace(dtype, shape));
      const Tensor x = Random(dtype, shape, Domain::kAny, seed++);
      const Tensor got = OnGpu([&, &perm = perm] {
        return Transpose(ctx(), ToDevice(x), perm).value();
      });
      EXPECT_TRUE(
          Near(ToHost(got), kernels::Transpose(x, perm).value(), kExact));
    }
  }
  const Tensor x = Random(DT_FLOAT, {2, 3}, Domain::kAny, 1);
  for (const std::vector<int>& perm :
       std::vector<std::vector<int>>{{0}, {0, 2}, {1, 1}}) {
    EXPECT_EQ(OnGpu([&] { return Transpose(ctx(), ToDevice(x), perm); })
                  .status()
                  .ToString(),
              kernels::Transpose(x, perm).status().ToString());
  }
  // Nine axes that no two neighbours merge: more than the gather's loops.
  const Tensor nine = Random(DT_FLOAT, TensorShape(std::vector<int64_t>(9, 2)),
                             Domain::kAny, 2);
  EXPECT_EQ(
      OnGpu([&] {
        return Transpose(ctx(), ToDevice(nine), {8, 7, 6, 5, 4, 3, 2, 1, 0});
      })
          .status()
          .code(),
      error::UNIMPLEMENTED);
}

TEST_F(GpuOpsTest, ConcatAndStackMatchTheCpuKernels) {
  struct Case {
    std::vector<TensorShape> shapes;
    int axis;
  };
  // Concat: along each axis, uneven parts, an empty part; Stack: the shapes
  // alike, every axis of the output.
  const std::vector<Case> concats = {
      {{{3}, {4}}, 0},
      {{{2, 3}, {2, 1}, {2, 4}}, 1},
      {{{2, 3}, {5, 3}}, 0},
      {{{2, 3}, {2, 3}}, -1},
      {{{2, 3, 4}, {2, 2, 4}}, 1},
      {{{2, 0}, {2, 3}}, 1},
      {{{257}, {kBig}}, 0},
  };
  const std::vector<Case> stacks = {
      {{{}, {}}, 0},         {{{3}, {3}, {3}}, 0},   {{{3}, {3}, {3}}, 1},
      {{{2, 3}, {2, 3}}, 1}, {{{2, 3}, {2, 3}}, -1}, {{{0, 2}, {0, 2}}, 0},
  };
  uint32_t seed = 1400;
  auto inputs = [&](DType dtype, const Case& c) {
    std::vector<Tensor> host, device;
    for (const TensorShape& shape : c.shapes) {
      host.push_back(Random(dtype, shape, Domain::kAny, seed++));
      device.push_back(ToDevice(host.back()));
    }
    return std::make_pair(host, device);
  };
  for (DType dtype : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_BOOL}) {
    for (const Case& c : concats) {
      SCOPED_TRACE("Concat " + Trace(dtype, c.shapes[0]) + " axis " +
                   std::to_string(c.axis));
      auto [host, device] = inputs(dtype, c);
      const Tensor got = OnGpu([&, &device = device] {
        return Concat(ctx(), device, c.axis).value();
      });
      EXPECT_TRUE(
          Near(ToHost(got), kernels::Concat(host, c.axis).value(), kExact));
    }
    for (const Case& c : stacks) {
      SCOPED_TRACE("Stack " + Trace(dtype, c.shapes[0]) + " axis " +
                   std::to_string(c.axis));
      auto [host, device] = inputs(dtype, c);
      const Tensor got = OnGpu([&, &device = device] {
        return Stack(ctx(), device, c.axis).value();
      });
      EXPECT_TRUE(
          Near(ToHost(got), kernels::Stack(host, c.axis).value(), kExact));
    }
  }
  const Case bad_concats[] = {{{{2, 3}, {3, 3}}, 1},
                              {{{2}, {2, 3}}, 0},
                              {{{2}, {3}}, 1},
                              {{{}, {}}, 0}};
  for (const Case& c : bad_concats) {
    auto [host, device] = inputs(DT_FLOAT, c);
    EXPECT_EQ(
        OnGpu([&, &device = device] { return Concat(ctx(), device, c.axis); })
            .status()
            .ToString(),
        kernels::Concat(host, c.axis).status().ToString());
  }
  const Case bad_stacks[] = {{{{2}, {3}}, 0}, {{{2}, {2}}, 2}};
  for (const Case& c : bad_stacks) {
    auto [host, device] = inputs(DT_FLOAT, c);
    EXPECT_EQ(
        OnGpu([&, &device = device] { return Stack(ctx(), device, c.axis); })
            .status()
            .ToString(),
        kernels::Stack(host, c.axis).status().ToString());
  }
  const std::vector<Tensor> mixed = {
      ToDevice(Random(DT_FLOAT, {2}, Domain::kAny, 1)),
      ToDevice(Random(DT_INT32, {2}, Domain::kAny, 2))};
  EXPECT_EQ(OnGpu([&] { return Concat(ctx(), mixed, 0); }).status().message(),
            "ConcatOp expects all inputs to have one dtype: values[0] is float "
            "but values[1] is int32");
}

TEST_F(GpuOpsTest, SliceMatchesTheCpuKernel) {
  struct Case {
    TensorShape shape;
    std::vector<int64_t> begin, size;
  };
  const std::vector<Case> cases = {
      {{}, {}, {}},
      {{7}, {2}, {3}},
      {{7}, {0}, {-1}},
      {{7}, {7}, {0}},
      {{4, 5}, {1, 2}, {2, 3}},
      {{4, 5}, {1, 0}, {-1, -1}},
      {{4, 5}, {0, 4}, {4, 1}},
      {{2, 3, 4}, {1, 1, 1}, {1, 2, 3}},
      {{2, 3, 4}, {0, 1, 0}, {2, 1, 4}},
      {{kBig}, {5}, {kBig - 9}},
  };
  uint32_t seed = 1500;
  for (DType dtype : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_BOOL}) {
    for (const Case& c : cases) {
      SCOPED_TRACE(Trace(dtype, c.shape));
      const Tensor x = Random(dtype, c.shape, Domain::kAny, seed++);
      const Tensor got = OnGpu(
          [&] { return Slice(ctx(), ToDevice(x), c.begin, c.size).value(); });
      EXPECT_TRUE(Near(ToHost(got), kernels::Slice(x, c.begin, c.size).value(),
                       kExact));
    }
  }
  const Tensor x = Random(DT_FLOAT, {4, 5}, Domain::kAny, 1);
  const Case bad[] = {
      {{4, 5}, {1}, {1}}, {{4, 5}, {5, 0}, {1, 1}}, {{4, 5}, {1, 1}, {4, 1}}};
  for (const Case& c : bad) {
    EXPECT_EQ(OnGpu([&] { return Slice(ctx(), ToDevice(x), c.begin, c.size); })
                  .status()
                  .ToString(),
              kernels::Slice(x, c.begin, c.size).status().ToString());
  }
}

// --- reductions -------------------------------------------------------------

/// Every way of reducing a shape of this rank that the tests try: all axes,
/// none, each axis (and its negative twin), each pair.
inline std::vector<kernels::Axes> AxesFor(int rank) {
  std::vector<kernels::Axes> out = {std::nullopt, std::vector<int>{}};
  for (int a = 0; a < rank; ++a) {
    out.push_back(std::vector<int>{a});
    out.push_back(std::vector<int>{a - rank});
    for (int b = a + 1; b < rank; ++b) out.push_back(std::vector<int>{a, b});
  }
  return out;
}

inline std::string AxesName(const kernels::Axes& axes) {
  if (!axes.has_value()) return "all axes";
  std::string s = "axes {";
  for (int a : *axes) s += std::to_string(a) + ",";
  return s + "}";
}

// --8<-- [start:reduce_test]
TEST_F(GpuOpsTest, ReductionsMatchCpuOverEveryAxis) {
  using CpuReduce =
      StatusOr<Tensor> (*)(const Tensor&, const kernels::Axes&, bool);
  struct Case {
    ReduceOp op;
    CpuReduce cpu;
  };
  const std::vector<Case> cases = {{ReduceOp::kSum, kernels::ReduceSum},
                                   {ReduceOp::kMean, kernels::ReduceMean},
                                   {ReduceOp::kProd, kernels::ReduceProd},
                                   {ReduceOp::kMax, kernels::ReduceMax},
                                   {ReduceOp::kMin, kernels::ReduceMin}};
  const std::vector<TensorShape> shapes = {
      {},     {7},       {3, 5}, {2, 3, 4},  {2, 3, 4, 5}, {0, 3},
      {3, 0}, {1, 4, 1}, {kBig}, {3, 70001}, {70001, 3}};
  uint32_t seed = 400;
  for (const Case& c : cases) {
    for (DType dtype : DTypesOf(DTypeSet::kNumbers)) {
      for (const TensorShape& shape : shapes) {
        // Products stay exact: powers of two, or only signs for long runs.
        const Domain domain = c.op != ReduceOp::kProd ? Domain::kAny
                              : shape.num_elements() > 64
                                  ? Domain::kSigns
                                  : Domain::kPowersOfTwo;
        const Tensor x = Random(dtype, shape, domain, seed++);
        const Tensor dx = ToDevice(x);
        for (const kernels::Axes& axes : AxesFor(shape.dims())) {
          for (bool keep_dims : {false, true}) {
            SCOPED_TRACE(std::string(OpName(c.op)) + " " + Trace(dtype, shape) +
                         " " + AxesName(axes) +
                         (keep_dims ? " keep_dims" : ""));
            StatusOr<Tensor> want = c.cpu(x, axes, keep_dims);
            StatusOr<Tensor> got =
                OnGpu([&] { return Reduce(ctx(), c.op, dx, axes, keep_dims); });
            ASSERT_EQ(got.status().ToString(), want.status().ToString());
            if (!want.ok()) continue;
            // Why: a sum's rounding depends on the order of its additions,
            // and the GPU's tree order is not Eigen's. Both err by at most
            // about log2(n) * eps * sum|x|; with |x| <= 3 that is under
            // 1e-6 (float) and 2e-15 (double) relative to the count of
            // values summed, times 3. Max, min, integer sums (which wrap,
            // and wrapping addition is associative) and the products
            // chosen above are exact.
            const double count = std::max<double>(
                1, double(shape.num_elements()) /
                       std::max<int64_t>(1, want->NumElements()));
            const double scale = c.op == ReduceOp::kMean ? 3 : 3 * count;
            const Tolerance tol =
                c.op == ReduceOp::kSum || c.op == ReduceOp::kMean
                    ? Tolerance{scale * 1e-6, 0, scale * 2e-15, 0}
                    : kExact;
            EXPECT_TRUE(Near(ToHost(*got), *want, tol));
          }
        }
      }
    }
  }
}
// --8<-- [end:reduce_test]

TEST_F(GpuOpsTest, ReductionsPropagateNanAndRejectBadAxes) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Tensor x = HostTensor(DT_FLOAT, {2, 3}, {1, nan, 3, 4, 5, 6});
  const Tensor dx = ToDevice(x);
  for (ReduceOp op : {ReduceOp::kMax, ReduceOp::kMin, ReduceOp::kSum}) {
    SCOPED_TRACE(OpName(op));
    const Tensor got = OnGpu([&] {
      return Reduce(ctx(), op, dx, std::vector<int>{1}, false).value();
    });
    const Tensor want = (op == ReduceOp::kMax   ? kernels::ReduceMax
                         : op == ReduceOp::kMin ? kernels::ReduceMin
                                                : kernels::ReduceSum)(
                            x, std::vector<int>{1}, false)
                            .value();
    EXPECT_TRUE(Near(ToHost(got), want, kExact));
  }
  for (const kernels::Axes& bad :
       {kernels::Axes(std::vector<int>{2}), kernels::Axes(std::vector<int>{-3}),
        kernels::Axes(std::vector<int>{0, -2})}) {
    EXPECT_EQ(
        OnGpu([&] { return Reduce(ctx(), ReduceOp::kSum, dx, bad, false); })
            .status()
            .ToString(),
        kernels::ReduceSum(x, bad, false).status().ToString());
  }
  const Tensor b = Random(DT_BOOL, {3}, Domain::kAny, 1);
  EXPECT_EQ(OnGpu([&] {
              return Reduce(ctx(), ReduceOp::kMax, ToDevice(b), std::nullopt,
                            false);
            })
                .status()
                .ToString(),
            kernels::ReduceMax(b, std::nullopt, false).status().ToString());
  const Tensor empty_ints = Random(DT_INT32, {0, 2}, Domain::kAny, 1);
  EXPECT_EQ(OnGpu([&] {
              return Reduce(ctx(), ReduceOp::kMean, ToDevice(empty_ints),
                            std::vector<int>{0}, false);
            })
                .status()
                .ToString(),
            kernels::ReduceMean(empty_ints, std::vector<int>{0}, false)
                .status()
                .ToString());
}

TEST_F(GpuOpsTest, ArgMaxAndArgMinMatchCpu) {
  const std::vector<TensorShape> shapes = {{1},    {7},    {3, 5},    {2, 3, 4},
                                           {0, 3}, {kBig}, {3, 70001}};
  uint32_t seed = 500;
  for (bool max : {true, false}) {
    for (DType dtype : DTypesOf(DTypeSet::kNumbers)) {
      for (const TensorShape& shape : shapes) {
        // Small integers tie often: the first index must win.
        const Tensor x = Random(dtype, shape, Domain::kSmallInts, seed++);
        const Tensor dx = ToDevice(x);
        for (int axis = -shape.dims(); axis < shape.dims(); ++axis) {
          for (DType out_type : {DT_INT32, DT_INT64}) {
            SCOPED_TRACE(std::string(max ? "ArgMax " : "ArgMin ") +
                         Trace(dtype, shape) + " axis " + std::to_string(axis) +
                         " to " + std::string(DataTypeString(out_type)));
            StatusOr<Tensor> want =
                max ? kernels::ArgMax(x, axis) : kernels::ArgMin(x, axis);
            StatusOr<Tensor> got = OnGpu([&] {
              return max ? ArgMax(ctx(), dx, axis, out_type)
                         : ArgMin(ctx(), dx, axis, out_type);
            });
            ASSERT_EQ(got.status().ToString(), want.status().ToString());
            if (!want.ok()) continue;
            EXPECT_TRUE(Near(ToHost(*got),
                             kernels::Cast(*want, out_type).value(), kExact));
          }
        }
      }
    }
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Tensor x = HostTensor(DT_DOUBLE, {2, 4}, {1, nan, 9, nan, 5, 2, 8, 8});
  const Tensor got =
      OnGpu([&] { return ArgMax(ctx(), ToDevice(x), 1, DT_INT64).value(); });
  EXPECT_TRUE(Near(ToHost(got), kernels::ArgMax(x, 1).value(), kExact));
  EXPECT_EQ(OnGpu([&] { return ArgMax(ctx(), ToDevice(x), 2, DT_INT64); })
                .status()
                .ToString(),
            kernels::ArgMax(x, 2).status().ToString());
}

// --- softmax and the losses
// -----------------------------------------------------

// Why: exp and log are within a few ulp on each side, and the row sums are
// added in different orders; relative to values of order 1 (softmax) or the
// row's log-sum (log-softmax, loss), a few times 1e-7 (float) or 1e-15
// (double), times the row length for the sums.
inline Tolerance SoftmaxTolerance(int64_t classes) {
  const double n = std::max<double>(1, std::log2(double(classes) + 1));
  return {n * 2e-6, n * 2e-6, n * 4e-15, n * 4e-15};
}

TEST_F(GpuOpsTest, SoftmaxAndLogSoftmaxMatchCpu) {
  const std::vector<TensorShape> shapes = {{1},        {7},       {3, 5},
                                           {2, 3, 4},  {100, 10}, {3, 1000},
                                           {2, 70001}, {0, 5},    {5, 0}};
  uint32_t seed = 600;
  for (bool log : {false, true}) {
    for (DType dtype : {DT_FLOAT, DT_DOUBLE}) {
      for (const TensorShape& shape : shapes) {
        SCOPED_TRACE(std::string(log ? "LogSoftmax " : "Softmax ") +
                     Trace(dtype, shape));
        // Large logits: the shift by the row's maximum must keep exp finite.
        Tensor x = Random(dtype, shape, Domain::kAny, seed++);
        if (x.NumElements() > 0) {
          x = kernels::Mul(x, HostTensor(dtype, {}, {100})).value();
        }
        const Tensor want =
            (log ? kernels::LogSoftmax(x, -1) : kernels::Softmax(x, -1))
                .value();
        const Tensor got = OnGpu([&] {
          return (log ? LogSoftmax(ctx(), ToDevice(x))
                      : Softmax(ctx(), ToDevice(x)))
              .value();
        });
        EXPECT_TRUE(Near(
            ToHost(got), want,
            SoftmaxTolerance(shape.dims() ? shape.dim_size(shape.dims() - 1)
                                          : 1)));
      }
    }
  }
  const Tensor scalar = ToDevice(HostTensor(DT_FLOAT, {}, {1}));
  EXPECT_EQ(
      OnGpu([&] { return Softmax(ctx(), scalar); }).status().ToString(),
      kernels::Softmax(HostTensor(DT_FLOAT, {}, {1}), -1).status().ToString());
  const Tensor ints = Random(DT_INT32, {2, 3}, Domain::kAny, 1);
  EXPECT_EQ(
      OnGpu([&] { return Softmax(ctx(), ToDevice(ints)); }).status().ToString(),
      kernels::Softmax(ints, -1).status().ToString());
}

/// Labels whose rows are probability distributions, and one row (the
/// first) that is not: the loss's formula holds for any labels.
inline Tensor Distributions(DType dtype, const TensorShape& shape,
                            uint32_t seed) {
  Tensor p = Random(dtype, shape, Domain::kPositive, seed);
  if (p.NumElements() == 0) return p;
  const Tensor sums =
      kernels::ReduceSum(p, std::vector<int>{1}, /*keep_dims=*/true).value();
  Tensor q = kernels::Div(p, sums).value();
  SwitchDType(dtype, [&]<typename T>() {
    if constexpr (std::is_floating_point_v<T>) q.data<T>()[0] = T(2);
  });
  return q;
}

TEST_F(GpuOpsTest, SoftmaxCrossEntropyMatchesTheCpuKernel) {
  const std::vector<TensorShape> shapes = {{1, 1},    {4, 3}, {100, 10},
                                           {3, 1000}, {0, 5}, {5, 0}};
  uint32_t seed = 700;
  for (DType dtype : {DT_FLOAT, DT_DOUBLE}) {
    for (const TensorShape& shape : shapes) {
      SCOPED_TRACE(Trace(dtype, shape));
      const Tensor logits =
          kernels::Mul(Random(dtype, shape, Domain::kAny, seed++),
                       HostTensor(dtype, {}, {10}))
              .value();
      const Tensor labels = Distributions(dtype, shape, seed++);
      Graph g;
      graph_scope use(g);
      const std::vector<Tensor> want =
          minitf::testing::KernelRunner(nn::softmax_cross_entropy_with_logits(
                                            constant(labels), constant(logits)))
              .RunAll()
              .value();
      Tensor loss, backprop;
      ASSERT_TRUE(OnGpu([&] {
                    return SoftmaxCrossEntropyWithLogits(
                        ctx(), ToDevice(logits), ToDevice(labels), &loss,
                        &backprop);
                  }).ok());
      const int64_t classes = shape.dim_size(1);
      EXPECT_TRUE(Near(ToHost(loss), want[0], SoftmaxTolerance(classes)));
      EXPECT_TRUE(Near(ToHost(backprop), want[1], SoftmaxTolerance(classes)));
    }
  }
  const Tensor a = ToDevice(Random(DT_FLOAT, {2, 3}, Domain::kAny, 1));
  const Tensor b = ToDevice(Random(DT_FLOAT, {3, 2}, Domain::kAny, 1));
  Tensor loss, backprop;
  EXPECT_EQ(OnGpu([&] {
              return SoftmaxCrossEntropyWithLogits(ctx(), a, b, &loss,
                                                   &backprop);
            }).message(),
            "logits and labels must be same size and 2-D: logits_size=[2,3] "
            "labels_size=[3,2]");
}

TEST_F(GpuOpsTest, SparseSoftmaxCrossEntropyMatchesTheCpuKernel) {
  const std::vector<TensorShape> shapes = {
      {1, 1}, {4, 3}, {100, 10}, {3, 1000}, {0, 5}};
  uint32_t seed = 800;
  for (DType dtype : {DT_FLOAT, DT_DOUBLE}) {
    for (DType label_type : {DT_INT32, DT_INT64}) {
      for (const TensorShape& shape : shapes) {
        SCOPED_TRACE(Trace(dtype, shape) + " labels " +
                     std::string(DataTypeString(label_type)));
        const int64_t rows = shape.dim_size(0), classes = shape.dim_size(1);
        const Tensor logits =
            kernels::Mul(Random(dtype, shape, Domain::kAny, seed++),
                         HostTensor(dtype, {}, {10}))
                .value();
        std::vector<double> ids(rows);
        std::mt19937 rng(seed++);
        for (double& id : ids)
          id = std::uniform_int_distribution<int64_t>(0, classes - 1)(rng);
        const Tensor labels = HostTensor(label_type, {rows}, ids);
        Graph g;
        graph_scope use(g);
        const std::vector<Tensor> want =
            minitf::testing::KernelRunner(
                nn::sparse_softmax_cross_entropy_with_logits(constant(labels),
                                                             constant(logits)))
                .RunAll()
                .value();
        Tensor loss, backprop;
        ASSERT_TRUE(OnGpu([&] {
                      return SparseSoftmaxCrossEntropyWithLogits(
                          ctx(), ToDevice(logits), ToDevice(labels), &loss,
                          &backprop);
                    }).ok());
        EXPECT_TRUE(Near(ToHost(loss), want[0], SoftmaxTolerance(classes)));
        EXPECT_TRUE(Near(ToHost(backprop), want[1], SoftmaxTolerance(classes)));
      }
    }
  }
}

TEST_F(GpuOpsTest, SparseSoftmaxCrossEntropyGivesNanForALabelOutOfRange) {
  const Tensor logits = Random(DT_FLOAT, {3, 4}, Domain::kAny, 1);
  const Tensor labels = HostTensor(DT_INT64, {3}, {1, 4, -1});
  Tensor loss, backprop;
  ASSERT_TRUE(OnGpu([&] {
                return SparseSoftmaxCrossEntropyWithLogits(
                    ctx(), ToDevice(logits), ToDevice(labels), &loss,
                    &backprop);
              }).ok());
  const Tensor l = ToHost(loss), g = ToHost(backprop);
  EXPECT_FALSE(std::isnan(l.data<float>()[0]));
  for (int row : {1, 2}) {
    EXPECT_TRUE(std::isnan(l.data<float>()[row])) << "row " << row;
    for (int c = 0; c < 4; ++c)
      EXPECT_TRUE(std::isnan(g.data<float>()[row * 4 + c])) << "row " << row;
  }
  const Tensor bad = ToDevice(HostTensor(DT_INT64, {2}, {0, 0}));
  EXPECT_EQ(OnGpu([&] {
              return SparseSoftmaxCrossEntropyWithLogits(
                  ctx(), ToDevice(logits), bad, &loss, &backprop);
            }).message(),
            "logits must be 2-D and labels 1-D with the same first dimension: "
            "logits_size=[3,4] labels_size=[2]");
}

// --- matmul -----------------------------------------------------------------

TEST_F(GpuOpsTest, MatMulMatchesCpuWithEveryTranspose) {
  struct Shape {
    int64_t m, n, k;
  };
  const std::vector<Shape> shapes = {
      {1, 1, 1},     {3, 5, 7}, {65, 63, 67}, {128, 128, 128},
      {1, 300, 257}, {2, 3, 0}, {0, 3, 4},    {4, 0, 3}};
  uint32_t seed = 900;
  for (DType dtype : {DT_FLOAT, DT_DOUBLE}) {
    for (const Shape& s : shapes) {
      for (bool ta : {false, true}) {
        for (bool tb : {false, true}) {
          SCOPED_TRACE(
              std::string(DataTypeString(dtype)) + " m=" + std::to_string(s.m) +
              " n=" + std::to_string(s.n) + " k=" + std::to_string(s.k) +
              (ta ? " ta" : "") + (tb ? " tb" : ""));
          const TensorShape as =
              ta ? TensorShape{s.k, s.m} : TensorShape{s.m, s.k};
          const TensorShape bs =
              tb ? TensorShape{s.n, s.k} : TensorShape{s.k, s.n};
          const Tensor a = Random(dtype, as, Domain::kUnit, seed++);
          const Tensor b = Random(dtype, bs, Domain::kUnit, seed++);
          const Tensor got = OnGpu([&] {
            return MatMul(ctx(), ToDevice(a), ToDevice(b), ta, tb).value();
          });
          // Why: a dot product of k terms in [-1, 1] rounds differently in
          // different orders (and with fused multiply-adds on a GPU): at
          // most about k * eps.
          const double k = std::max<double>(1, double(s.k));
          EXPECT_TRUE(Near(ToHost(got), kernels::MatMul(a, b, ta, tb).value(),
                           {k * 2e-7, 0, k * 4e-16, 0}));
        }
      }
    }
  }
  const Tensor a = Random(DT_FLOAT, {2, 3}, Domain::kUnit, 1);
  const Tensor v = Random(DT_FLOAT, {3}, Domain::kUnit, 1);
  const Tensor i = Random(DT_INT32, {2, 3}, Domain::kUnit, 1);
  auto gpu = [&](const Tensor& x, const Tensor& y) {
    return OnGpu([&] {
      return MatMul(ctx(), ToDevice(x), ToDevice(y), false, false)
          .status()
          .ToString();
    });
  };
  EXPECT_EQ(gpu(a, a), kernels::MatMul(a, a).status().ToString());
  EXPECT_EQ(gpu(v, a), kernels::MatMul(v, a).status().ToString());
  EXPECT_EQ(gpu(a, v), kernels::MatMul(a, v).status().ToString());
  EXPECT_EQ(gpu(a, i), kernels::MatMul(a, i).status().ToString());
  // TensorFlow has no integer MatMul for the GPU.
  EXPECT_EQ(gpu(i, Random(DT_INT32, {3, 2}, Domain::kUnit, 2)),
            "Invalid argument: MatMul has no GPU kernel for dtype int32 "
            "(float, double)");
}

// --- optimizer updates ------------------------------------------------------

/// The values of `names` after one run of `step` of layer 3's CPU kernel.
inline std::vector<Tensor> RunCpuUpdate(
    const std::vector<std::pair<std::string, Tensor>>& vars,
    const std::function<Output(std::vector<Variable>&)>& make_step) {
  Graph g;
  graph_scope use(g);
  std::vector<Variable> variables;
  for (const auto& [name, value] : vars) variables.emplace_back(value, name);
  Output step = make_step(variables);
  Session sess;
  sess.run(global_variables_initializer());
  sess.run(step);
  std::vector<Tensor> out;
  for (Variable& v : variables) out.push_back(sess.run(v));
  return out;
}

// Why: the GPU may fuse a multiply and an add into one rounding (nvcc does
// by default), and sqrt and division are each rounded once: within a few
// ulp of values of order 1.
inline constexpr Tolerance kUpdateTolerance{1e-6, 1e-6, 1e-14, 1e-14};

inline Output ScalarConst(DType dtype, double v) {
  return constant(HostTensor(dtype, {}, {v}));
}

TEST_F(GpuOpsTest, OptimizerUpdatesMatchLayer3sKernels) {
  const std::vector<TensorShape> shapes = {{}, {7}, {257}, {3, 5}, {0}, {kBig}};
  uint32_t seed = 1000;
  for (DType dtype : {DT_FLOAT, DT_DOUBLE}) {
    for (const TensorShape& shape : shapes) {
      const Tensor var = Random(dtype, shape, Domain::kAny, seed++);
      const Tensor slot1 = Random(dtype, shape, Domain::kAny, seed++);
      const Tensor slot2 = Random(dtype, shape, Domain::kPositive, seed++);
      const Tensor grad = Random(dtype, shape, Domain::kAny, seed++);
      auto scalar = [&](double v) {
        return ToDevice(HostTensor(dtype, {}, {v}));
      };
      {
        SCOPED_TRACE("ApplyGradientDescent " + Trace(dtype, shape));
        const std::vector<Tensor> want =
            RunCpuUpdate({{"var", var}}, [&](std::vector<Variable>& v) {
              return apply_gradient_descent(
                  v[0].ref(), ScalarConst(dtype, 0.25), constant(grad));
            });
        Tensor d_var = ToDevice(var);
        ASSERT_TRUE(OnGpu([&] {
                      return ApplyGradientDescent(ctx(), &d_var, scalar(0.25),
                                                  ToDevice(grad));
                    }).ok());
        EXPECT_TRUE(Near(ToHost(d_var), want[0], kUpdateTolerance));
      }
      for (bool nesterov : {false, true}) {
        SCOPED_TRACE(std::string("ApplyMomentum ") + Trace(dtype, shape) +
                     (nesterov ? " nesterov" : ""));
        const std::vector<Tensor> want = RunCpuUpdate(
            {{"var", var}, {"accum", slot1}}, [&](std::vector<Variable>& v) {
              return apply_momentum(v[0].ref(), v[1].ref(),
                                    ScalarConst(dtype, 0.1), constant(grad),
                                    ScalarConst(dtype, 0.9), false, nesterov);
            });
        Tensor d_var = ToDevice(var), d_accum = ToDevice(slot1);
        ASSERT_TRUE(OnGpu([&] {
                      return ApplyMomentum(ctx(), &d_var, &d_accum, scalar(0.1),
                                           ToDevice(grad), scalar(0.9),
                                           nesterov);
                    }).ok());
        EXPECT_TRUE(Near(ToHost(d_var), want[0], kUpdateTolerance));
        EXPECT_TRUE(Near(ToHost(d_accum), want[1], kUpdateTolerance));
      }
      for (bool nesterov : {false, true}) {
        SCOPED_TRACE(std::string("ApplyAdam ") + Trace(dtype, shape) +
                     (nesterov ? " nesterov" : ""));
        const std::vector<Tensor> want = RunCpuUpdate(
            {{"var", var}, {"m", slot1}, {"v", slot2}},
            [&](std::vector<Variable>& v) {
              return apply_adam(
                  v[0].ref(), v[1].ref(), v[2].ref(), ScalarConst(dtype, 0.81),
                  ScalarConst(dtype, 0.998), ScalarConst(dtype, 0.01),
                  ScalarConst(dtype, 0.9), ScalarConst(dtype, 0.999),
                  ScalarConst(dtype, 1e-7), constant(grad), false, nesterov);
            });
        Tensor d_var = ToDevice(var), d_m = ToDevice(slot1),
               d_v = ToDevice(slot2);
        ASSERT_TRUE(OnGpu([&] {
                      return ApplyAdam(ctx(), &d_var, &d_m, &d_v, scalar(0.81),
                                       scalar(0.998), scalar(0.01), scalar(0.9),
                                       scalar(0.999), scalar(1e-7),
                                       ToDevice(grad), nesterov);
                    }).ok());
        EXPECT_TRUE(Near(ToHost(d_var), want[0], kUpdateTolerance));
        EXPECT_TRUE(Near(ToHost(d_m), want[1], kUpdateTolerance));
        EXPECT_TRUE(Near(ToHost(d_v), want[2], kUpdateTolerance));
      }
      {
        SCOPED_TRACE("ApplyRMSProp " + Trace(dtype, shape));
        const std::vector<Tensor> want = RunCpuUpdate(
            {{"var", var}, {"ms", slot2}, {"mom", slot1}},
            [&](std::vector<Variable>& v) {
              return apply_rms_prop(
                  v[0].ref(), v[1].ref(), v[2].ref(), ScalarConst(dtype, 0.01),
                  ScalarConst(dtype, 0.9), ScalarConst(dtype, 0.5),
                  ScalarConst(dtype, 1e-7), constant(grad));
            });
        Tensor d_var = ToDevice(var), d_ms = ToDevice(slot2),
               d_mom = ToDevice(slot1);
        ASSERT_TRUE(OnGpu([&] {
                      return ApplyRMSProp(ctx(), &d_var, &d_ms, &d_mom,
                                          scalar(0.01), scalar(0.9),
                                          scalar(0.5), scalar(1e-7),
                                          ToDevice(grad));
                    }).ok());
        EXPECT_TRUE(Near(ToHost(d_var), want[0], kUpdateTolerance));
        EXPECT_TRUE(Near(ToHost(d_ms), want[1], kUpdateTolerance));
        EXPECT_TRUE(Near(ToHost(d_mom), want[2], kUpdateTolerance));
      }
    }
  }
}

TEST_F(GpuOpsTest, OptimizerUpdatesRejectWhatLayer3Rejects) {
  Tensor var = ToDevice(Random(DT_FLOAT, {2}, Domain::kAny, 1));
  const Tensor grad3 = ToDevice(Random(DT_FLOAT, {3}, Domain::kAny, 2));
  const Tensor lr = ToDevice(HostTensor(DT_FLOAT, {}, {0.1}));
  const Tensor lr2 = ToDevice(HostTensor(DT_FLOAT, {2}, {0.1, 0.1}));
  const Tensor grad2 = ToDevice(Random(DT_FLOAT, {2}, Domain::kAny, 3));
  EXPECT_EQ(OnGpu([&] {
              return ApplyGradientDescent(ctx(), &var, lr, grad3);
            }).message(),
            "var and delta do not have the same shape[2] [3]");
  EXPECT_EQ(OnGpu([&] {
              return ApplyGradientDescent(ctx(), &var, lr2, grad2);
            }).message(),
            "alpha is not a scalar: [2]");
  Tensor ivar = ToDevice(Random(DT_INT32, {2}, Domain::kAny, 4));
  Tensor iaccum = ToDevice(Random(DT_INT32, {2}, Domain::kAny, 5));
  const Tensor ilr = ToDevice(HostTensor(DT_INT32, {}, {1}));
  EXPECT_EQ(OnGpu([&] {
              return ApplyMomentum(ctx(), &ivar, &iaccum, ilr, ivar, ilr,
                                   false);
            }).message(),
            "ApplyMomentum does not support int32");
}

}  // namespace minitf::gpu::testing
