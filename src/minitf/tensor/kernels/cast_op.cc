// Cast: converts every element of a tensor to another dtype.
//
// C++'s own conversion from a floating-point value to an integer is undefined
// behaviour when the value does not fit (NaN, inf, 1e10 into int32). A kernel
// must not have undefined behaviour on any input, so that case is written out:
// truncate toward zero, saturate at the integer's range, and NaN becomes 0.
#include <cmath>
#include <limits>
#include <type_traits>

#include "minitf/tensor/kernels/array_ops.h"
#include "minitf/tensor/kernels/checks.h"

namespace minitf::kernels {
namespace {

// --8<-- [start:cast_value]
template <typename To, typename From>
To CastValue(From v) {
  if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);  // NaN != 0, so NaN is true, as in NumPy.
  } else if constexpr (std::is_floating_point_v<From> &&
                       std::is_integral_v<To>) {
    if (std::isnan(v)) return 0;
    // Both bounds are powers of two (or a power of two minus one), so the
    // comparisons are exact or round to the right side.
    constexpr From kMax = static_cast<From>(std::numeric_limits<To>::max());
    constexpr From kMin = static_cast<From>(std::numeric_limits<To>::min());
    if (v >= kMax) return std::numeric_limits<To>::max();
    if (v <= kMin) return std::numeric_limits<To>::min();
    return static_cast<To>(v);  // In range: truncates toward zero.
  } else {
    // int -> float rounds to nearest; double -> float rounds, overflowing to
    // inf (IEEE 754); int64 -> int32 wraps modulo 2^32, as TensorFlow's and
    // NumPy's casts do; bool -> number is 0 or 1.
    return static_cast<To>(v);
  }
}
// --8<-- [end:cast_value]

}  // namespace

StatusOr<Tensor> Cast(const Tensor& x, DType dtype) {
  TF_RETURN_IF_ERROR(CheckCast(x, dtype));
  // As TensorFlow's Cast kernel: the same dtype forwards the input, shared.
  if (dtype == x.dtype()) return x;
  TF_ASSIGN_OR_RETURN(Tensor out, Tensor::Allocate(dtype, x.shape()));
  SwitchDType(x.dtype(), [&]<typename From>() {
    SwitchDType(dtype, [&]<typename To>() {
      const From* src = x.data<From>();
      To* dst = out.data<To>();
      for (int64_t i = 0; i < x.NumElements(); ++i)
        dst[i] = CastValue<To>(src[i]);
    });
  });
  return out;
}

}  // namespace minitf::kernels
