// DType: the element type of a tensor.
//
// A tensor's bytes mean nothing without its dtype. minitf keeps TensorFlow's
// enum values (DT_FLOAT = 1 ...), so a dtype written into a GraphDef in
// chapter 2 reads back in TensorFlow, and TensorFlow's Python names
// (tf::float32 ...). Kernels are written once as templates over the C++ type
// and picked at run time by SwitchDType, which maps the enum to the type.
//
//   tf::DType t = tf::float32;                  // == DT_FLOAT
//   DataTypeString(t);                          // "float", as TF's messages
//   say SwitchDType(t, [&]<typename T>() { ... });  // T is float here
#pragma once

#include <cstdint>
#include <ostream>
#include <string_view>

namespace minitf {

/// TensorFlow's DataType numbers (tensorflow/core/framework/types.proto).
enum DType : int {
  DT_INVALID = 0,
  DT_FLOAT = 1,
  DT_DOUBLE = 2,
  DT_INT32 = 3,
  DT_INT64 = 9,
  DT_BOOL = 10,
};

// The Python spellings: tf::float32 is DT_FLOAT.
inline constexpr DType float32 = DT_FLOAT;
inline constexpr DType float64 = DT_DOUBLE;
inline constexpr DType int32 = DT_INT32;
inline constexpr DType int64 = DT_INT64;
// `bool` is a C++ keyword, so TensorFlow's tf.bool is spelled tf::bool_.
inline constexpr DType bool_ = DT_BOOL;

/// TensorFlow's name for a dtype in messages: "float", "double", "int32", ...
std::string_view DataTypeString(DType dtype);
/// The Python name: "float32", "float64", "int32", "int64", "bool".
std::string_view DataTypePythonName(DType dtype);
/// Bytes per element; 0 for DT_INVALID.
int DataTypeSize(DType dtype);
bool DataTypeIsFloating(DType dtype);
bool DataTypeIsInteger(DType dtype);
bool DataTypeIsValid(DType dtype);

std::ostream& operator<<(std::ostream& os, DType dtype);

/// DataTypeToEnum<float>::value == DT_FLOAT, and so on for each C++ type.
template <typename T>
struct DataTypeToEnum;
template <>
struct DataTypeToEnum<float> {
  static constexpr DType value = DT_FLOAT;
};
template <>
struct DataTypeToEnum<double> {
  static constexpr DType value = DT_DOUBLE;
};
template <>
struct DataTypeToEnum<int32_t> {
  static constexpr DType value = DT_INT32;
};
template <>
struct DataTypeToEnum<int64_t> {
  static constexpr DType value = DT_INT64;
};
template <>
struct DataTypeToEnum<bool> {
  static constexpr DType value = DT_BOOL;
};

/// True for the C++ types a tensor can hold.
template <typename T>
concept TensorElement = requires {
  DataTypeToEnum<T>::value;
};

// --8<-- [start:switch_dtype]
/// Calls `fn.template operator()<T>()` with T the C++ type of `dtype`, and
/// returns what it returns. This is how one templated kernel body serves every
/// dtype: `SwitchDType(x.dtype(), [&]<typename T>() { ...T... })`.
/// REQUIRES: DataTypeIsValid(dtype); callers check dtypes first.
template <typename Fn>
decltype(auto) SwitchDType(DType dtype, Fn&& fn) {
  switch (dtype) {
    case DT_FLOAT:
      return fn.template operator()<float>();
    case DT_DOUBLE:
      return fn.template operator()<double>();
    case DT_INT32:
      return fn.template operator()<int32_t>();
    case DT_INT64:
      return fn.template operator()<int64_t>();
    case DT_BOOL:
      return fn.template operator()<bool>();
    case DT_INVALID:
      break;
  }
  return fn.template operator()<float>();  // Unreachable for valid dtypes.
}
// --8<-- [end:switch_dtype]

}  // namespace minitf
