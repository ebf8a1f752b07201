#include "minitf/tensor/dtype.h"

namespace minitf {

std::string_view DataTypeString(DType dtype) {
  switch (dtype) {
    case DT_FLOAT:
      return "float";
    case DT_DOUBLE:
      return "double";
    case DT_INT32:
      return "int32";
    case DT_INT64:
      return "int64";
    case DT_BOOL:
      return "bool";
    case DT_INVALID:
      break;
  }
  return "invalid";
}

std::string_view DataTypePythonName(DType dtype) {
  switch (dtype) {
    case DT_FLOAT:
      return "float32";
    case DT_DOUBLE:
      return "float64";
    default:
      return DataTypeString(dtype);
  }
}

int DataTypeSize(DType dtype) {
  switch (dtype) {
    case DT_FLOAT:
      return 4;
    case DT_DOUBLE:
      return 8;
    case DT_INT32:
      return 4;
    case DT_INT64:
      return 8;
    case DT_BOOL:
      return 1;
    case DT_INVALID:
      break;
  }
  return 0;
}

bool DataTypeIsFloating(DType dtype) {
  return dtype == DT_FLOAT || dtype == DT_DOUBLE;
}
bool DataTypeIsInteger(DType dtype) {
  return dtype == DT_INT32 || dtype == DT_INT64;
}
bool DataTypeIsValid(DType dtype) { return DataTypeSize(dtype) > 0; }

std::ostream& operator<<(std::ostream& os, DType dtype) {
  return os << DataTypeString(dtype);
}

}  // namespace minitf
