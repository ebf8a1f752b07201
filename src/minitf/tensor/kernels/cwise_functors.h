// Elementwise math as functors over Eigen arrays (private to cwise_ops.cc).
//
// Each functor is the math of one op, written once on whole arrays. A kernel
// hands it Eigen array expressions (a Map over a run of a tensor's elements,
// or one element repeated with Array::Constant) and assigns the expression it
// returns to the output; Eigen compiles that assignment into one vectorised
// loop. A functor also names the dtypes it has kernels for, so the dispatcher
// can reject the rest with a message before any template is instantiated.
//
//   Eigen::Map<const Eigen::ArrayXf> x(px, n), y(py, n);
//   Eigen::Map<Eigen::ArrayXf> z(pz, n);
//   z = AddOp()(x, y);                        // the loop runs here, SIMD-wide
//   z = MaximumOp()(x, Eigen::ArrayXf::Constant(n, 0.f));   // y repeated
//   static_assert(AddOp::Types::kContains<int32_t>);
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "minitf/tensor/dtype.h"
#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor.h"

namespace minitf::kernels::cwise {

/// A set of element types, known at compile time, e.g. the dtypes of an op.
template <TensorElement... Ts>
struct DTypeSet {
  template <typename T>
  static constexpr bool kContains = (std::is_same_v<T, Ts> || ...);

  /// "float, double": the dtype names, as an error message lists them.
  static std::string Names() {
    std::string names;
    ((names += (names.empty() ? "" : ", ") +
               std::string(DataTypeString(DataTypeToEnum<Ts>::value))),
     ...);
    return names;
  }
};

using Reals = DTypeSet<float, double>;
using Numbers = DTypeSet<float, double, int32_t, int64_t>;
using NumbersAndBool = DTypeSet<float, double, int32_t, int64_t, bool>;
using Bools = DTypeSet<bool>;

/// What every functor declares. `Types` are the dtypes it takes. When
/// `wraps_integers` is set, kernels run it on integers through the unsigned
/// type of the same width: there overflow is defined (arithmetic modulo 2^n)
/// and gives exactly the bits of two's-complement wrap-around, whereas signed
/// overflow in C++ is undefined behaviour. A binary functor may also define
/// `template <typename T> static Status Validate(const Tensor& y)`, which the
/// kernel runs before the loop when the output is not empty.
template <typename TypeSet, bool wraps_integers = false>
struct CwiseFunctor {
  using Types = TypeSet;
  static constexpr bool kWrapsIntegers = wraps_integers;
};

/// The element type functor F computes in for tensors of type T.
/// (make_unsigned is only asked for where it exists, so it is not _t here.)
template <typename F, typename T>
using ComputeType = typename std::conditional_t<
    F::kWrapsIntegers && std::is_integral_v<T> && !std::is_same_v<T, bool>,
    std::make_unsigned<T>, std::type_identity<T>>::type;

// Eigen 3.4.0's ArrayBase::max() takes no NaN policy (its default lets SIMD
// drop a NaN), so the NaN-propagating functor is named directly.
template <typename X, typename Y>
auto MaxPropagatingNaN(const X& x, const Y& y) {
  using T = typename X::Scalar;
  return x.binaryExpr(
      y, Eigen::internal::scalar_max_op<T, T, Eigen::PropagateNaN>());
}
template <typename X, typename Y>
auto MinPropagatingNaN(const X& x, const Y& y) {
  using T = typename X::Scalar;
  return x.binaryExpr(
      y, Eigen::internal::scalar_min_op<T, T, Eigen::PropagateNaN>());
}

// --8<-- [start:packet_functors]
// Eigen 3.4.0's SIMD exp and fast float sqrt get two IEEE limits wrong: e^x
// for x below about -88.7 (float) is 3e-39 instead of 0, because the input is
// clamped there, so e^-inf is not 0; and sqrt(+inf) is NaN, because the fast
// sqrt multiplies inf by a reciprocal estimate of 0. These scalar functors
// also carry a packetOp, which Eigen's loop calls on a whole SIMD register
// (functor_traits below tells it to), so the fix costs one compare and blend.

/// e^x, flushed to 0 where it would be denormal (x < log of the smallest
/// normal number), identically in the SIMD body and the scalar tail.
template <typename T>
struct ExpFlushingDenormals {
  static constexpr T kUnderflow =
      std::is_same_v<T, float> ? T(-87.3365447f) : T(-708.3964185322641);
  T operator()(T x) const { return x < kUnderflow ? T(0) : std::exp(x); }
  template <typename Packet>
  Packet packetOp(const Packet& x) const {
    namespace ei = Eigen::internal;
    return ei::pselect(ei::pcmp_lt(x, ei::pset1<Packet>(kUnderflow)),
                       ei::pzero(x), ei::pexp(x));
  }
};

/// sqrt(x), with sqrt(+inf) = +inf on the SIMD path too.
template <typename T>
struct SqrtKeepingInfinity {
  T operator()(T x) const { return std::sqrt(x); }
  template <typename Packet>
  Packet packetOp(const Packet& x) const {
    namespace ei = Eigen::internal;
    const Packet inf = ei::pset1<Packet>(std::numeric_limits<T>::infinity());
    return ei::pselect(ei::pcmp_eq(x, inf), inf, ei::psqrt(x));
  }
};
// --8<-- [end:packet_functors]

}  // namespace minitf::kernels::cwise

namespace Eigen::internal {
template <typename T>
struct functor_traits<minitf::kernels::cwise::ExpFlushingDenormals<T>> {
  enum {
    Cost = functor_traits<scalar_exp_op<T>>::Cost,
    PacketAccess = packet_traits<T>::HasExp
  };
};
template <typename T>
struct functor_traits<minitf::kernels::cwise::SqrtKeepingInfinity<T>> {
  enum {
    Cost = functor_traits<scalar_sqrt_op<T>>::Cost,
    PacketAccess = packet_traits<T>::HasSqrt
  };
};
}  // namespace Eigen::internal

namespace minitf::kernels::cwise {

/// e^x of an array expression, with IEEE limits (see ExpFlushingDenormals).
template <typename X>
auto Exp(const X& x) {
  return x.unaryExpr(ExpFlushingDenormals<typename X::Scalar>());
}

// --8<-- [start:unary_functors]
struct NegOp : CwiseFunctor<Numbers, /*wraps_integers=*/true> {
  auto operator()(const auto& x) const { return -x; }
};
struct SquareOp : CwiseFunctor<Numbers, /*wraps_integers=*/true> {
  auto operator()(const auto& x) const { return x.square(); }
};
struct SqrtOp : CwiseFunctor<Reals> {
  template <typename X>
  auto operator()(const X& x) const {
    return x.unaryExpr(SqrtKeepingInfinity<typename X::Scalar>());
  }
};
struct ExpOp : CwiseFunctor<Reals> {
  auto operator()(const auto& x) const { return Exp(x); }
};
struct LogOp : CwiseFunctor<Reals> {
  auto operator()(const auto& x) const { return x.log(); }
};
struct TanhOp : CwiseFunctor<Reals> {
  auto operator()(const auto& x) const { return x.tanh(); }
};
struct SigmoidOp : CwiseFunctor<Reals> {
  // 1/(1+e^-x) is already stable: for x -> -inf, e^-x overflows to inf and
  // 1/inf is the right limit 0; for x -> +inf it tends to 1/1. The textbook
  // rearrangement e^x/(1+e^x) is the unstable one: inf/inf is NaN.
  template <typename X>
  auto operator()(const X& x) const {
    using T = typename X::Scalar;
    return (T(1) + Exp(-x)).inverse();
  }
};
struct ReluOp : CwiseFunctor<Numbers> {
  // max(x, 0) with NaN kept: ReLU must not hide a NaN from the loss.
  template <typename X>
  auto operator()(const X& x) const {
    using T = typename X::Scalar;
    return MaxPropagatingNaN(
        x, Eigen::Array<T, Eigen::Dynamic, 1>::Zero(x.size()));
  }
};
// --8<-- [end:unary_functors]

struct AbsOp : CwiseFunctor<Numbers> {
  template <typename X>
  auto operator()(const X& x) const {
    using T = typename X::Scalar;
    if constexpr (std::is_integral_v<T>) {
      // |INT_MIN| does not fit: negate through the unsigned type, which wraps
      // back to INT_MIN as TensorFlow's integer Abs does.
      using U = std::make_unsigned_t<T>;
      return x.unaryExpr([](T v) {
        return v < 0 ? static_cast<T>(U{0} - static_cast<U>(v)) : v;
      });
    } else {
      return x.abs();
    }
  }
};
struct SignOp : CwiseFunctor<Numbers> {
  // Neither positive nor negative means 0 or NaN, and sign returns those as
  // they are, so NaN stays NaN.
  template <typename X>
  auto operator()(const X& x) const {
    using T = typename X::Scalar;
    return (x > T(0)).select(T(1), (x < T(0)).select(T(-1), x));
  }
};
struct LogicalNotOp : CwiseFunctor<Bools> {
  auto operator()(const auto& x) const { return !x; }
};

struct AddOp : CwiseFunctor<Numbers, /*wraps_integers=*/true> {
  auto operator()(const auto& x, const auto& y) const { return x + y; }
};
struct SubOp : CwiseFunctor<Numbers, /*wraps_integers=*/true> {
  auto operator()(const auto& x, const auto& y) const { return x - y; }
};
struct MulOp : CwiseFunctor<Numbers, /*wraps_integers=*/true> {
  auto operator()(const auto& x, const auto& y) const { return x * y; }
};

// --8<-- [start:floor_divide]
/// Integer floor division, as Python's //: -7 / 2 is -4, not C++'s -3.
/// REQUIRES: b != 0 (DivOp::Validate rejects zero divisors first).
template <typename T>
T FloorDivide(T a, T b) {
  using U = std::make_unsigned_t<T>;
  // INT_MIN / -1 overflows (x86 traps); -a through the unsigned type wraps.
  if (b == -1) return static_cast<T>(U{0} - static_cast<U>(a));
  const T q = a / b;  // Truncated toward zero.
  // Truncation rounds up exactly when the true quotient is negative and
  // not whole; step down by one to round toward -infinity.
  const bool inexact = q * b != a;
  return inexact && ((a < 0) != (b < 0)) ? q - 1 : q;
}
// --8<-- [end:floor_divide]

struct DivOp : CwiseFunctor<Numbers> {
  template <typename X, typename Y>
  auto operator()(const X& x, const Y& y) const {
    using T = typename X::Scalar;
    if constexpr (std::is_integral_v<T>) {
      return x.binaryExpr(y, [](T a, T b) { return FloorDivide(a, b); });
    } else {
      return x / y;
    }
  }
  /// Runs before the loop: integer division by zero is undefined in C++,
  /// so it is an error for the whole op rather than a value.
  template <typename T>
  static Status Validate(const Tensor& y) {
    if constexpr (std::is_integral_v<T>) {
      if ((y.flat<T>() == T(0)).any()) {
        return errors::InvalidArgument("Integer division by zero");
      }
    }
    return Status::OK();
  }
};

// The gradient of Relu (TensorFlow's ReluGrad): the incoming gradient g
// where the unit is on (features f > 0), else g * 0, which is 0 but keeps a
// NaN or infinite g as NaN, as TensorFlow's g * (f > 0) does.
struct ReluGradOp : CwiseFunctor<Numbers> {
  auto operator()(const auto& g, const auto& f) const {
    using T = typename std::decay_t<decltype(g)>::Scalar;
    return (f > T(0)).select(g, g * T(0));
  }
};
struct MaximumOp : CwiseFunctor<Numbers> {
  auto operator()(const auto& x, const auto& y) const {
    return MaxPropagatingNaN(x, y);
  }
};
struct MinimumOp : CwiseFunctor<Numbers> {
  auto operator()(const auto& x, const auto& y) const {
    return MinPropagatingNaN(x, y);
  }
};

// Comparisons give arrays of bool; the kernel reads the output dtype off them.
struct EqualOp : CwiseFunctor<NumbersAndBool> {
  auto operator()(const auto& x, const auto& y) const { return x == y; }
};
struct NotEqualOp : CwiseFunctor<NumbersAndBool> {
  auto operator()(const auto& x, const auto& y) const { return x != y; }
};
struct LessOp : CwiseFunctor<Numbers> {
  auto operator()(const auto& x, const auto& y) const { return x < y; }
};
struct LessEqualOp : CwiseFunctor<Numbers> {
  auto operator()(const auto& x, const auto& y) const { return x <= y; }
};
struct GreaterOp : CwiseFunctor<Numbers> {
  auto operator()(const auto& x, const auto& y) const { return x > y; }
};
struct GreaterEqualOp : CwiseFunctor<Numbers> {
  auto operator()(const auto& x, const auto& y) const { return x >= y; }
};
struct LogicalAndOp : CwiseFunctor<Bools> {
  auto operator()(const auto& x, const auto& y) const { return x && y; }
};
struct LogicalOrOp : CwiseFunctor<Bools> {
  auto operator()(const auto& x, const auto& y) const { return x || y; }
};

}  // namespace minitf::kernels::cwise
