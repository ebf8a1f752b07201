#include "minitf/graph/feed_value.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace minitf {
namespace {

// One element as NumPy's astype converts it (C's conversion, as x86 does it).
// Unlike the Cast kernel, which saturates, a float that does not fit an
// integer becomes the integer's smallest value: the "integer indefinite"
// that x86's cvttss2si/cvttsd2si return, so what NumPy, and so a TensorFlow
// feed, gives. C++'s own conversion is undefined there, so it is written out.
// --8<-- [start:numpy_cast]
template <typename To, typename From>
To NumpyCastValue(From v) {
  if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);  // NaN != 0: true.
  } else if constexpr (std::is_floating_point_v<From> &&
                       std::is_integral_v<To>) {
    // -2^(N-1) and 2^(N-1) are exact in float and double, and so is the
    // truncated value, so the comparison is exact; NaN fails it.
    constexpr From kLow = static_cast<From>(std::numeric_limits<To>::min());
    const From t = std::trunc(v);
    if (!(t >= kLow && t < -kLow)) return std::numeric_limits<To>::min();
    return static_cast<To>(t);
  } else {
    // int -> float rounds to nearest; double -> float rounds, overflowing to
    // inf (IEEE 754); int64 -> int32 wraps modulo 2^32 (C++20); bool -> 0, 1.
    return static_cast<To>(v);
  }
}
// --8<-- [end:numpy_cast]

// str() of the NumPy scalar type of a dtype, as Python's message prints it.
const char* NumpyTypeString(DType dtype) {
  switch (dtype) {
    case DT_FLOAT:
      return "<class 'numpy.float32'>";
    case DT_DOUBLE:
      return "<class 'numpy.float64'>";
    case DT_INT32:
      return "<class 'numpy.int32'>";
    case DT_INT64:
      return "<class 'numpy.int64'>";
    case DT_BOOL:
      return "<class 'numpy.bool'>";
    case DT_INVALID:
      break;
  }
  return "<class 'object'>";
}

// Python's `_convert_to_numpy_obj(dtype, v) != v` for an int v: whether v
// changes on its way into `dtype`. NumPy 2 compares a float with a Python
// int in the float's type, so for float and double the answer is always no.
bool IntChangesIn(DType dtype, int64_t v) {
  switch (dtype) {
    case DT_INT32:
      return v < std::numeric_limits<int32_t>::min() ||
             v > std::numeric_limits<int32_t>::max();
    case DT_BOOL:
      return v != 0 && v != 1;
    default:
      return false;
  }
}

}  // namespace

// --8<-- [start:convert]
StatusOr<Tensor> ConvertFedValue(const Output& t, const Tensor& value) {
  if (!value.IsInitialized()) {
    return errors::InvalidArgument("Cannot feed an uninitialized Tensor for '",
                                   t.name(), "'");
  }
  // A C++ integer literal is Python's int, which session.py checks itself
  // before NumPy would wrap it.
  if (value.dims() == 0 &&
      (value.dtype() == DT_INT32 || value.dtype() == DT_INT64)) {
    const int64_t v = value.dtype() == DT_INT32 ? value.scalar<int32_t>()
                                                : value.scalar<int64_t>();
    if (IntChangesIn(t.dtype(), v)) {
      return errors::InvalidArgument(
          "Type of feed value ", v,
          " with type <class 'int'> is not compatible with Tensor type ",
          NumpyTypeString(t.dtype()),
          ". Try explicitly setting the type of the feed tensor to a larger "
          "type (e.g. int64).");
    }
  }
  if (!t.shape().IsCompatibleWith(value.shape())) {
    return errors::InvalidArgument(
        "Cannot feed value of shape ", PythonShapeString(value.shape()),
        " for Tensor '", t.name(), "', which has shape '",
        PythonShapeString(t.shape()), "'");
  }
  if (value.dtype() == t.dtype()) return value;
  TF_ASSIGN_OR_RETURN(Tensor out, Tensor::Allocate(t.dtype(), value.shape()));
  SwitchDType(value.dtype(), [&]<typename From>() {
    SwitchDType(t.dtype(), [&]<typename To>() {
      const From* src = value.data<From>();
      To* dst = out.data<To>();
      for (int64_t i = 0; i < value.NumElements(); ++i) {
        dst[i] = NumpyCastValue<To>(src[i]);
      }
    });
  });
  return out;
}
// --8<-- [end:convert]

}  // namespace minitf
