#include "minitf/tensor/dtype.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>

namespace minitf {
namespace {

// A dtype TensorFlow has (DT_UINT8 = 4) but minitf does not.
constexpr DType kUnsupported = static_cast<DType>(4);

TEST(DTypeTest, EnumValuesAreTensorFlowsNumbers) {
  EXPECT_EQ(DT_INVALID, 0);
  EXPECT_EQ(DT_FLOAT, 1);
  EXPECT_EQ(DT_DOUBLE, 2);
  EXPECT_EQ(DT_INT32, 3);
  EXPECT_EQ(DT_INT64, 9);
  EXPECT_EQ(DT_BOOL, 10);
}

TEST(DTypeTest, PythonSpellingsNameTheSameDtypes) {
  EXPECT_EQ(float32, DT_FLOAT);
  EXPECT_EQ(float64, DT_DOUBLE);
  EXPECT_EQ(int32, DT_INT32);
  EXPECT_EQ(int64, DT_INT64);
  EXPECT_EQ(bool_, DT_BOOL);
}

TEST(DTypeTest, NamesAreThoseOfTensorFlowsMessages) {
  EXPECT_EQ(DataTypeString(DT_FLOAT), "float");
  EXPECT_EQ(DataTypeString(DT_DOUBLE), "double");
  EXPECT_EQ(DataTypeString(DT_INT32), "int32");
  EXPECT_EQ(DataTypeString(DT_INT64), "int64");
  EXPECT_EQ(DataTypeString(DT_BOOL), "bool");
  EXPECT_EQ(DataTypeString(DT_INVALID), "invalid");
  EXPECT_EQ(DataTypeString(kUnsupported), "invalid");
}

TEST(DTypeTest, PythonNamesSpellTheWidthOfFloats) {
  EXPECT_EQ(DataTypePythonName(DT_FLOAT), "float32");
  EXPECT_EQ(DataTypePythonName(DT_DOUBLE), "float64");
  EXPECT_EQ(DataTypePythonName(DT_INT32), "int32");
  EXPECT_EQ(DataTypePythonName(DT_INT64), "int64");
  EXPECT_EQ(DataTypePythonName(DT_BOOL), "bool");
  EXPECT_EQ(DataTypePythonName(DT_INVALID), "invalid");
}

TEST(DTypeTest, StreamWritesTheTensorFlowName) {
  std::ostringstream os;
  os << DT_FLOAT << " " << int64;
  EXPECT_EQ(os.str(), "float int64");
}

TEST(DTypeTest, SizesAreThoseOfTheCppTypes) {
  EXPECT_EQ(DataTypeSize(DT_FLOAT), 4);
  EXPECT_EQ(DataTypeSize(DT_DOUBLE), 8);
  EXPECT_EQ(DataTypeSize(DT_INT32), 4);
  EXPECT_EQ(DataTypeSize(DT_INT64), 8);
  EXPECT_EQ(DataTypeSize(DT_BOOL), 1);
  EXPECT_EQ(DataTypeSize(DT_INVALID), 0);
  EXPECT_EQ(DataTypeSize(kUnsupported), 0);
}

TEST(DTypeTest, KindPredicates) {
  EXPECT_TRUE(DataTypeIsFloating(DT_FLOAT));
  EXPECT_TRUE(DataTypeIsFloating(DT_DOUBLE));
  EXPECT_FALSE(DataTypeIsFloating(DT_INT32));
  EXPECT_FALSE(DataTypeIsFloating(DT_BOOL));
  EXPECT_TRUE(DataTypeIsInteger(DT_INT32));
  EXPECT_TRUE(DataTypeIsInteger(DT_INT64));
  EXPECT_FALSE(DataTypeIsInteger(DT_FLOAT));
  EXPECT_FALSE(DataTypeIsInteger(DT_BOOL));
  for (DType t : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_BOOL}) {
    EXPECT_TRUE(DataTypeIsValid(t)) << t;
  }
  EXPECT_FALSE(DataTypeIsValid(DT_INVALID));
  EXPECT_FALSE(DataTypeIsValid(kUnsupported));
}

TEST(DTypeTest, DataTypeToEnumMapsCppTypesToDtypes) {
  static_assert(DataTypeToEnum<float>::value == DT_FLOAT);
  static_assert(DataTypeToEnum<double>::value == DT_DOUBLE);
  static_assert(DataTypeToEnum<int32_t>::value == DT_INT32);
  static_assert(DataTypeToEnum<int64_t>::value == DT_INT64);
  static_assert(DataTypeToEnum<bool>::value == DT_BOOL);
  static_assert(TensorElement<float> && TensorElement<bool>);
  static_assert(!TensorElement<uint8_t> && !TensorElement<char>);
}

TEST(DTypeTest, SwitchDTypeCallsTheBodyWithTheMatchingType) {
  for (DType t : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_BOOL}) {
    const DType seen =
        SwitchDType(t, [&]<typename T>() { return DataTypeToEnum<T>::value; });
    EXPECT_EQ(seen, t);
    const int size =
        SwitchDType(t, [&]<typename T>() { return int{sizeof(T)}; });
    EXPECT_EQ(size, DataTypeSize(t)) << t;
  }
}

}  // namespace
}  // namespace minitf
