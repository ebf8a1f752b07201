// Elementwise GPU kernels: y = f(x), z = f(x, y) with broadcasting, BiasAdd,
// Cast and Fill. The math of each op is a small functor, as in chapter 1's
// cwise_functors.h, here a __device__ function on one element; one kernel
// template applies any functor.
//
// Threads to elements: one thread per output element, in the grid-stride
// loop of common.cuh (256-thread blocks, at most kMaxBlocks of them, each
// thread stepping by the grid's size). Thread i of a unary kernel reads x[i]
// and writes y[i]. A broadcasting binary kernel also writes z[i], and finds
// the input elements it needs by reading i as a mixed-radix number: its
// digits, taken from the innermost dimension out, are the coordinates of
// z[i], and each coordinate times the input's stride along it (0 along a
// dimension the input repeats) sums to the input's offset. That is chapter
// 1's BroadcastPlan; where chapter 1 walks the loops as an odometer, a GPU
// thread cannot: it starts at an arbitrary i, so it divides.
//
//   // x:[64,10] y:[10] (loops from the plan) -> z:[64,10]
//   LaunchBinary<float>(BinaryOp::kAdd, x, y, z, loops, stream);
//   LaunchUnary<double>(UnaryOp::kExp, x, y, n, stream);
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "minitf/gpu/kernels/backend.h"
#include "minitf/gpu/kernels/device/common.cuh"

namespace minitf::gpu::MINITF_GPU_BACKEND {

// --- the functors ---------------------------------------------------------
// Integer add, subtract, multiply, negate and square wrap around on
// overflow, as chapter 1's (and TensorFlow's) do. Signed overflow is
// undefined behaviour in C++, so they compute in the unsigned type of the
// same width, where it is arithmetic modulo 2^n, with the same bits.

/// T's unsigned twin for integers; T itself otherwise.
template <class T>
using Wrapping =
    typename std::conditional_t<std::is_integral_v<T>, std::make_unsigned<T>,
                                std::type_identity<T>>::type;

// --8<-- [start:unary_functors]
struct NegF {
  template <class T>
  __device__ T operator()(T x) const {
    using U = Wrapping<T>;
    return static_cast<T>(U(0) - static_cast<U>(x));
  }
};
struct AbsF {
  // For integers -x through the unsigned type, so |INT_MIN| wraps to
  // INT_MIN as TensorFlow's does; for floats -0 becomes +0.
  template <class T>
  __device__ T operator()(T x) const {
    if constexpr (std::is_integral_v<T>) {
      return x < 0 ? NegF()(x) : x;
    } else {
      return x < T(0) ? -x : (x == T(0) ? T(0) : x);
    }
  }
};
struct SignF {
  // Neither positive nor negative is 0 or NaN, returned as it is.
  template <class T>
  __device__ T operator()(T x) const {
    return x > T(0) ? T(1) : (x < T(0) ? T(-1) : x);
  }
};
struct SquareF {
  template <class T>
  __device__ T operator()(T x) const {
    using U = Wrapping<T>;
    return static_cast<T>(static_cast<U>(x) * static_cast<U>(x));
  }
};
struct ReluF {
  // max(x, 0), keeping NaN: ReLU must not hide a NaN from the loss.
  template <class T>
  __device__ T operator()(T x) const {
    return MaxNan(x, T(0));
  }
};
struct SqrtF {
  template <class T>
  __device__ T operator()(T x) const {
    return Sqrt(x);
  }
};
struct ReciprocalF {
  template <class T>
  __device__ T operator()(T x) const {
    return T(1) / x;
  }
};
struct ExpF {
  template <class T>
  __device__ T operator()(T x) const {
    return Exp(x);
  }
};
struct LogF {
  template <class T>
  __device__ T operator()(T x) const {
    return Log(x);
  }
};
struct SigmoidF {
  // 1 / (1 + e^-x) has the right limits: e^-x overflows to inf as x -> -inf
  // and 1 / inf is 0.
  template <class T>
  __device__ T operator()(T x) const {
    return T(1) / (T(1) + Exp(-x));
  }
};
struct TanhF {
  template <class T>
  __device__ T operator()(T x) const {
    return Tanh(x);
  }
};
struct LogicalNotF {
  __device__ bool operator()(bool x) const { return !x; }
};
// --8<-- [end:unary_functors]

struct AddF {
  template <class T>
  __device__ T operator()(T x, T y) const {
    using U = Wrapping<T>;
    return static_cast<T>(static_cast<U>(x) + static_cast<U>(y));
  }
};
struct SubF {
  template <class T>
  __device__ T operator()(T x, T y) const {
    using U = Wrapping<T>;
    return static_cast<T>(static_cast<U>(x) - static_cast<U>(y));
  }
};
struct MulF {
  template <class T>
  __device__ T operator()(T x, T y) const {
    using U = Wrapping<T>;
    return static_cast<T>(static_cast<U>(x) * static_cast<U>(y));
  }
};
struct DivF {
  // Floats: true division. Integers: floor division, as chapter 1's
  // FloorDivide. Chapter 1 rejects a zero divisor before its loop; a kernel
  // cannot return an error, so x / 0 is 0 here (TensorFlow's GPU kernels
  // do not check either; C++ leaves it undefined).
  template <class T>
  __device__ T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      if (b == 0) return 0;
      // INT_MIN / -1 overflows: -a through the unsigned type wraps.
      if (b == -1) return NegF()(a);
      const T q = a / b;  // truncated toward zero
      return q * b != a && ((a < 0) != (b < 0)) ? q - 1 : q;
    } else {
      return a / b;
    }
  }
};
struct MaximumF {
  template <class T>
  __device__ T operator()(T x, T y) const {
    return MaxNan(x, y);
  }
};
struct MinimumF {
  template <class T>
  __device__ T operator()(T x, T y) const {
    return MinNan(x, y);
  }
};
struct ReluGradF {
  // g where the unit is on, else g * 0: 0, or NaN for a NaN or infinite g.
  template <class T>
  __device__ T operator()(T g, T f) const {
    return f > T(0) ? g : g * T(0);
  }
};
struct EqualF {
  template <class T>
  __device__ bool operator()(T x, T y) const {
    return x == y;
  }
};
struct NotEqualF {
  template <class T>
  __device__ bool operator()(T x, T y) const {
    return x != y;
  }
};
struct LessF {
  template <class T>
  __device__ bool operator()(T x, T y) const {
    return x < y;
  }
};
struct LessEqualF {
  template <class T>
  __device__ bool operator()(T x, T y) const {
    return x <= y;
  }
};
struct GreaterF {
  template <class T>
  __device__ bool operator()(T x, T y) const {
    return x > y;
  }
};
struct GreaterEqualF {
  template <class T>
  __device__ bool operator()(T x, T y) const {
    return x >= y;
  }
};
struct LogicalAndF {
  __device__ bool operator()(bool x, bool y) const { return x && y; }
};
struct LogicalOrF {
  __device__ bool operator()(bool x, bool y) const { return x || y; }
};

// --8<-- [start:cast_value]
/// Chapter 1's CastValue on the device: floats to integers truncate toward
/// zero, saturate at the integer's range, and NaN becomes 0 (C++ leaves an
/// out-of-range conversion undefined); nonzero and NaN are true; int64 to
/// int32 wraps.
template <class To>
struct CastF {
  template <class From>
  __device__ To operator()(From v) const {
    if constexpr (std::is_same_v<To, bool>) {
      return v != From(0);
    } else if constexpr (std::is_floating_point_v<From> &&
                         std::is_integral_v<To>) {
      if (IsNan(v)) return 0;
      constexpr To kMax = std::numeric_limits<To>::max();
      constexpr To kMin = std::numeric_limits<To>::min();
      if (v >= static_cast<From>(kMax)) return kMax;
      if (v <= static_cast<From>(kMin)) return kMin;
      return static_cast<To>(v);
    } else {
      return static_cast<To>(v);
    }
  }
};
// --8<-- [end:cast_value]

// --- the kernels ----------------------------------------------------------

// --8<-- [start:map_kernel]
/// y[i] = f(x[i]) for every i < n.
template <class F, class In, class Out>
__global__ void MapKernel(F f, const In* x, Out* y, int64_t n) {
  for (int64_t i : GridStride(n)) y[i] = f(x[i]);
}
// --8<-- [end:map_kernel]

/// z[i] = f(x[i], y[i]): both inputs of z's shape, no index arithmetic.
template <class F, class T, class R>
__global__ void ZipKernel(F f, const T* x, const T* y, R* z, int64_t n) {
  for (int64_t i : GridStride(n)) z[i] = f(x[i], y[i]);
}

// --8<-- [start:broadcast_kernel]
/// z[i] = f(x[xi], y[yi]), the offsets found from i's coordinates along
/// `loops` (innermost first: the remainder by each size is the coordinate).
template <class F, class T, class R>
__global__ void BroadcastKernel(F f, const T* x, const T* y, R* z,
                                BroadcastLoops loops, int64_t n) {
  for (int64_t i : GridStride(n)) {
    int64_t rest = i;
    int64_t xi = 0;
    int64_t yi = 0;
    for (int d = loops.rank - 1; d >= 0; --d) {
      const int64_t coordinate = rest % loops.dims[d];
      rest /= loops.dims[d];
      xi += coordinate * loops.x_strides[d];
      yi += coordinate * loops.y_strides[d];
    }
    z[i] = f(x[xi], y[yi]);
  }
}
// --8<-- [end:broadcast_kernel]

/// out[i] = value[i] + bias[i % channels]: the bias repeats along rows.
template <class T>
__global__ void BiasAddKernel(const T* value, const T* bias, T* out,
                              int64_t channels, int64_t n) {
  for (int64_t i : GridStride(n)) out[i] = AddF()(value[i], bias[i % channels]);
}

template <class T>
__global__ void FillKernel(T value, T* out, int64_t n) {
  for (int64_t i : GridStride(n)) out[i] = value;
}

// --8<-- [start:strided_copy_kernel]
/// out[i] = x[xi], xi from i's coordinates along `loops` as in
/// BroadcastKernel: a copy that gathers (Tile, BroadcastTo, Transpose).
template <class T>
__global__ void StridedCopyKernel(const T* x, T* out, BroadcastLoops loops,
                                  int64_t n) {
  for (int64_t i : GridStride(n)) {
    int64_t rest = i;
    int64_t xi = 0;
    for (int d = loops.rank - 1; d >= 0; --d) {
      xi += (rest % loops.dims[d]) * loops.x_strides[d];
      rest /= loops.dims[d];
    }
    out[i] = x[xi];
  }
}
// --8<-- [end:strided_copy_kernel]

/// out[r * out_stride + c] = x[r * x_stride + c] for r < rows, c < cols: a
/// block of rows copied between tensors whose rows differ in length (each
/// input of ConcatV2 and Pack into its columns of the output). Neighbouring
/// threads take neighbouring columns, so both sides' accesses coalesce.
template <class T>
__global__ void CopyRowsKernel(const T* x, int64_t x_stride, T* out,
                               int64_t out_stride, int64_t cols, int64_t n) {
  for (int64_t i : GridStride(n)) {
    const int64_t r = i / cols;
    const int64_t c = i - r * cols;
    out[r * out_stride + c] = x[r * x_stride + c];
  }
}

// --- launchers ------------------------------------------------------------
// Each returns the launch's error, or cudaSuccess; n = 0 launches nothing.
// An op the dtype has no kernel for is cudaErrorInvalidValue: the caller
// (BackendKernels) checks dtypes first, with a message.

template <class F, class In, class Out>
cudaError_t LaunchMap(F f, const In* x, Out* y, int64_t n,
                      cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  MINITF_LAUNCH(MINITF_KERNEL_NAME(MapKernel<F, In, Out>), BlocksFor(n), kBlock,
                0, stream, f, x, y, n);
  return LaunchError();
}

/// y = op(x) on n elements of T (bool for kLogicalNot).
template <class T>
cudaError_t LaunchUnary(UnaryOp op, const T* x, T* y, int64_t n,
                        cudaStream_t stream) {
  if constexpr (std::is_same_v<T, bool>) {
    if (op == UnaryOp::kLogicalNot)
      return LaunchMap(LogicalNotF(), x, y, n, stream);
  } else {
    switch (op) {
      case UnaryOp::kNeg:
        return LaunchMap(NegF(), x, y, n, stream);
      case UnaryOp::kAbs:
        return LaunchMap(AbsF(), x, y, n, stream);
      case UnaryOp::kSign:
        return LaunchMap(SignF(), x, y, n, stream);
      case UnaryOp::kSquare:
        return LaunchMap(SquareF(), x, y, n, stream);
      case UnaryOp::kRelu:
        return LaunchMap(ReluF(), x, y, n, stream);
      default:
        break;
    }
    if constexpr (std::is_floating_point_v<T>) {
      switch (op) {
        case UnaryOp::kSqrt:
          return LaunchMap(SqrtF(), x, y, n, stream);
        case UnaryOp::kReciprocal:
          return LaunchMap(ReciprocalF(), x, y, n, stream);
        case UnaryOp::kExp:
          return LaunchMap(ExpF(), x, y, n, stream);
        case UnaryOp::kLog:
          return LaunchMap(LogF(), x, y, n, stream);
        case UnaryOp::kSigmoid:
          return LaunchMap(SigmoidF(), x, y, n, stream);
        case UnaryOp::kTanh:
          return LaunchMap(TanhF(), x, y, n, stream);
        default:
          break;
      }
    }
  }
  return cudaErrorInvalidValue;
}

/// z = f(x, y) along `loops`; the same-shape case as one flat loop.
template <class F, class T, class R>
cudaError_t LaunchZip(F f, const T* x, const T* y, R* z,
                      const BroadcastLoops& loops, cudaStream_t stream) {
  int64_t n = 1;
  for (int d = 0; d < loops.rank; ++d) n *= loops.dims[d];
  if (n == 0) return cudaSuccess;
  if (loops.rank == 1 && loops.x_strides[0] == 1 && loops.y_strides[0] == 1) {
    MINITF_LAUNCH(MINITF_KERNEL_NAME(ZipKernel<F, T, R>), BlocksFor(n), kBlock,
                  0, stream, f, x, y, z, n);
  } else {
    MINITF_LAUNCH(MINITF_KERNEL_NAME(BroadcastKernel<F, T, R>), BlocksFor(n),
                  kBlock, 0, stream, f, x, y, z, loops, n);
  }
  return LaunchError();
}

/// z = op(x, y) along `loops`; z is of T, or bool for comparisons.
template <class T>
cudaError_t LaunchBinary(BinaryOp op, const T* x, const T* y, void* z,
                         const BroadcastLoops& loops, cudaStream_t stream) {
  bool* zb = static_cast<bool*>(z);
  switch (op) {
    case BinaryOp::kEqual:
      return LaunchZip(EqualF(), x, y, zb, loops, stream);
    case BinaryOp::kNotEqual:
      return LaunchZip(NotEqualF(), x, y, zb, loops, stream);
    default:
      break;
  }
  if constexpr (std::is_same_v<T, bool>) {
    switch (op) {
      case BinaryOp::kLogicalAnd:
        return LaunchZip(LogicalAndF(), x, y, zb, loops, stream);
      case BinaryOp::kLogicalOr:
        return LaunchZip(LogicalOrF(), x, y, zb, loops, stream);
      default:
        break;
    }
  } else {
    T* zt = static_cast<T*>(z);
    switch (op) {
      case BinaryOp::kAdd:
        return LaunchZip(AddF(), x, y, zt, loops, stream);
      case BinaryOp::kSub:
        return LaunchZip(SubF(), x, y, zt, loops, stream);
      case BinaryOp::kMul:
        return LaunchZip(MulF(), x, y, zt, loops, stream);
      case BinaryOp::kDiv:
        return LaunchZip(DivF(), x, y, zt, loops, stream);
      case BinaryOp::kMaximum:
        return LaunchZip(MaximumF(), x, y, zt, loops, stream);
      case BinaryOp::kMinimum:
        return LaunchZip(MinimumF(), x, y, zt, loops, stream);
      case BinaryOp::kReluGrad:
        return LaunchZip(ReluGradF(), x, y, zt, loops, stream);
      case BinaryOp::kLess:
        return LaunchZip(LessF(), x, y, zb, loops, stream);
      case BinaryOp::kLessEqual:
        return LaunchZip(LessEqualF(), x, y, zb, loops, stream);
      case BinaryOp::kGreater:
        return LaunchZip(GreaterF(), x, y, zb, loops, stream);
      case BinaryOp::kGreaterEqual:
        return LaunchZip(GreaterEqualF(), x, y, zb, loops, stream);
      default:
        break;
    }
  }
  return cudaErrorInvalidValue;
}

/// value:[rows, channels] + bias:[channels], n = rows * channels.
template <class T>
cudaError_t LaunchBiasAdd(const T* value, const T* bias, T* out,
                          int64_t channels, int64_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  MINITF_LAUNCH(MINITF_KERNEL_NAME(BiasAddKernel<T>), BlocksFor(n), kBlock, 0,
                stream, value, bias, out, channels, n);
  return LaunchError();
}

template <class From, class To>
cudaError_t LaunchCast(const From* x, To* y, int64_t n, cudaStream_t stream) {
  return LaunchMap(CastF<To>(), x, y, n, stream);
}

template <class T>
cudaError_t LaunchFill(T value, T* out, int64_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  MINITF_LAUNCH(MINITF_KERNEL_NAME(FillKernel<T>), BlocksFor(n), kBlock, 0,
                stream, value, out, n);
  return LaunchError();
}

template <class T>
cudaError_t LaunchStridedCopy(const T* x, T* out, const BroadcastLoops& loops,
                              cudaStream_t stream) {
  int64_t n = 1;
  for (int d = 0; d < loops.rank; ++d) n *= loops.dims[d];
  if (n == 0) return cudaSuccess;
  MINITF_LAUNCH(MINITF_KERNEL_NAME(StridedCopyKernel<T>), BlocksFor(n), kBlock,
                0, stream, x, out, loops, n);
  return LaunchError();
}

template <class T>
cudaError_t LaunchCopyRows(const T* x, int64_t x_stride, T* out,
                           int64_t out_stride, int64_t rows, int64_t cols,
                           cudaStream_t stream) {
  const int64_t n = rows * cols;
  if (n == 0) return cudaSuccess;
  MINITF_LAUNCH(MINITF_KERNEL_NAME(CopyRowsKernel<T>), BlocksFor(n), kBlock, 0,
                stream, x, x_stride, out, out_stride, cols, n);
  return LaunchError();
}

}  // namespace minitf::gpu::MINITF_GPU_BACKEND
