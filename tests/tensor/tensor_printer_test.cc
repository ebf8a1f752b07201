#include "minitf/tensor/tensor_printer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "minitf/tensor/tensor.h"

// Every expected string here is what NumPy 1.x's str() (or array2string with
// the same options) prints for an array of the same dtype, shape and values.

namespace minitf {
namespace {

constexpr float kNanF = std::numeric_limits<float>::quiet_NaN();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

template <typename T>
Tensor Make(const std::vector<T>& values, const TensorShape& shape) {
  return errors::ValueOrThrow(Tensor::FromVector<T>(values, shape));
}

// 0, 1, ..., n-1 as int32, in the given shape (np.arange(n).reshape(...)).
Tensor Arange(const TensorShape& shape) {
  Tensor t(DT_INT32, shape);
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    t.flat<int32_t>()(i) = static_cast<int32_t>(i);
  }
  return t;
}

// np.arange(n, dtype=T) / divisor, computed in T.
template <typename T>
Tensor ArangeDividedBy(int64_t n, T divisor) {
  Tensor t(DataTypeToEnum<T>::value, TensorShape({n}));
  for (int64_t i = 0; i < n; ++i) t.flat<T>()(i) = static_cast<T>(i) / divisor;
  return t;
}

std::vector<std::string> Lines(const std::string& s) {
  std::vector<std::string> lines;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// --- Floats in positional notation -----------------------------------------

TEST(TensorPrinterTest, FloatMatrixHasTrailingPointsAndAlignedRows) {
  EXPECT_EQ(Tensor({{22.f, 28.f}, {49.f, 64.f}}).ToString(),
            "[[22. 28.]\n [49. 64.]]");
}

TEST(TensorPrinterTest, FloatsArePaddedToTheWidestIntegerPartAndFraction) {
  EXPECT_EQ(Tensor({1.f, 2.5f}).ToString(), "[1.  2.5]");
  EXPECT_EQ(Tensor({{1.5f, -20.f}, {300.25f, 4.f}}).ToString(),
            "[[  1.5  -20.  ]\n [300.25   4.  ]]");
}

TEST(TensorPrinterTest, NegativeSignCountsInTheIntegerWidth) {
  EXPECT_EQ(Tensor({-1.f, 2.f}).ToString(), "[-1.  2.]");
  EXPECT_EQ(Tensor({0.0, -0.0}).ToString(), "[ 0. -0.]");
}

TEST(TensorPrinterTest, Float32UsesItsOwnShortestDigits) {
  EXPECT_EQ(Tensor({0.1f}).ToString(), "[0.1]");
  EXPECT_EQ(Tensor({1.f / 3.f}).ToString(), "[0.33333334]");
  EXPECT_EQ(Tensor({1.0 / 3.0}).ToString(), "[0.33333333]");
}

TEST(TensorPrinterTest, AtMostEightFractionalDigitsRoundedFromTheExactValue) {
  // 2^-9 = 0.001953125 is a tie at 8 digits: it rounds to even.
  EXPECT_EQ(Tensor({0.001953125}).ToString(), "[0.00195312]");
  EXPECT_EQ(Tensor({0.999999999, 2.0}).ToString(), "[1. 2.]");
}

TEST(TensorPrinterTest, LargeFloat32KeepsEveryIntegerDigit) {
  EXPECT_EQ(Tensor({-91456288.f}).ToString(), "[-91456288.]");
}

TEST(TensorPrinterTest, RatioOfExactlyAThousandStaysPositional) {
  EXPECT_EQ(Tensor({1.0, 1000.0}).ToString(), "[   1. 1000.]");
}

// --- Floats in scientific notation -----------------------------------------

TEST(TensorPrinterTest, SmallValuesSwitchToScientific) {
  EXPECT_EQ(Tensor({1e-5, 1.0}).ToString(), "[1.e-05 1.e+00]");
  EXPECT_EQ(Tensor({1.5e-5, 1.0}).ToString(), "[1.5e-05 1.0e+00]");
  EXPECT_EQ(Tensor({1.23456789012e-7, 1.0}).ToString(),
            "[1.23456789e-07 1.00000000e+00]");
}

TEST(TensorPrinterTest, LargeValuesAndWideRatiosSwitchToScientific) {
  EXPECT_EQ(Tensor({1e8, 1.0}).ToString(), "[1.e+08 1.e+00]");
  EXPECT_EQ(Tensor({99999999.0, 1.0}).ToString(),
            "[9.9999999e+07 1.0000000e+00]");
  EXPECT_EQ(Tensor({1.0, 1000.5}).ToString(), "[1.0000e+00 1.0005e+03]");
}

TEST(TensorPrinterTest, ScientificAlignsSignsAndWidensEveryExponent) {
  EXPECT_EQ(Tensor({-1e-5, 1.0, 123.0}).ToString(),
            "[-1.00e-05  1.00e+00  1.23e+02]");
  EXPECT_EQ(Tensor({1e100, 1e-5}).ToString(), "[1.e+100 1.e-005]");
  EXPECT_EQ(Tensor({-0.0, 1e-5}).ToString(), "[-0.e+00  1.e-05]");
}

TEST(TensorPrinterTest, ShortMantissasContinueWithTheValuesOwnDigits) {
  // 1e-5f is 9.99999974737875e-06; beside an 8-digit mantissa it shows that.
  EXPECT_EQ(Tensor({1e-5f, 1.2345678f}).ToString(),
            "[9.9999997e-06 1.2345678e+00]");
}

// --- nan and inf ------------------------------------------------------------

TEST(TensorPrinterTest, NanAndInfAreRightAlignedInTheCommonWidth) {
  EXPECT_EQ(Tensor({kNan, kInf}).ToString(), "[nan inf]");
  EXPECT_EQ(Tensor({kNan, -kInf}).ToString(), "[ nan -inf]");
  EXPECT_EQ(Tensor({-kInf, kInf}).ToString(), "[-inf  inf]");
  EXPECT_EQ(Tensor({1.5, kNan, -kInf, 100.0}).ToString(),
            "[  1.5   nan  -inf 100. ]");
  EXPECT_EQ(Tensor({1e-5, kNan, 1.0}).ToString(), "[1.e-05    nan 1.e+00]");
  EXPECT_EQ(Tensor({kNanF}).ToString(), "[nan]");
}

// --- Integers and booleans --------------------------------------------------

TEST(TensorPrinterTest, IntegersAreRightAlignedToTheWidest) {
  EXPECT_EQ(Tensor({{1, 2}, {10, 20}}).ToString(), "[[ 1  2]\n [10 20]]");
  EXPECT_EQ(Tensor({-5, 3, 100}).ToString(), "[ -5   3 100]");
  EXPECT_EQ(Tensor({{-1L, 0L}, {0L, 5L}}).ToString(), "[[-1  0]\n [ 0  5]]");
  EXPECT_EQ(
      Tensor({std::numeric_limits<int64_t>::min(), int64_t{5}}).ToString(),
      "[-9223372036854775808                    5]");
}

TEST(TensorPrinterTest, TrueIsPaddedToTheWidthOfFalse) {
  EXPECT_EQ(Tensor({true, false}).ToString(), "[ True False]");
  EXPECT_EQ(Tensor({true, true}).ToString(), "[ True  True]");
  EXPECT_EQ(Tensor({{true, false}, {false, false}}).ToString(),
            "[[ True False]\n [False False]]");
}

// --- 0-d tensors: NumPy's scalar str ---------------------------------------

TEST(TensorPrinterTest, ScalarsPrintTheValueAlone) {
  EXPECT_EQ(Tensor(5.f).ToString(), "5.0");
  EXPECT_EQ(Tensor(3).ToString(), "3");
  EXPECT_EQ(Tensor(int64_t{-7}).ToString(), "-7");
  EXPECT_EQ(Tensor(true).ToString(), "True");
  EXPECT_EQ(Tensor(false).ToString(), "False");
}

TEST(TensorPrinterTest, ScalarFloatsKeepAllTheirShortestDigits) {
  EXPECT_EQ(Tensor(1.f / 3.f).ToString(), "0.33333334");
  EXPECT_EQ(Tensor(1.0 / 3.0).ToString(), "0.3333333333333333");
  EXPECT_EQ(Tensor(0.1f).ToString(), "0.1");
  EXPECT_EQ(Tensor(-0.1f).ToString(), "-0.1");
  EXPECT_EQ(Tensor(-0.0f).ToString(), "-0.0");
  EXPECT_EQ(Tensor(123456.789).ToString(), "123456.789");
  // Unlike in an array, the unique digits 16886874 are padded with zeros.
  EXPECT_EQ(Tensor(168868736.f).ToString(), "168868740.0");
}

TEST(TensorPrinterTest, ScalarFloatsOutsideTheirRangeAreScientific) {
  EXPECT_EQ(Tensor(1e-5).ToString(), "1e-05");
  EXPECT_EQ(Tensor(1e-4).ToString(), "0.0001");
  EXPECT_EQ(Tensor(1e-4f).ToString(), "1e-04");  // 1e-4f is below 1e-4.
  EXPECT_EQ(Tensor(1e16).ToString(), "1e+16");
  EXPECT_EQ(Tensor(1e300).ToString(), "1e+300");
  EXPECT_EQ(Tensor(kNan).ToString(), "nan");
  EXPECT_EQ(Tensor(-kInf).ToString(), "-inf");
}

// --- Summarisation ----------------------------------------------------------

TEST(TensorPrinterTest, OverAThousandElementsShowThreeAtEachEnd) {
  EXPECT_EQ(Arange({1001}).ToString(), "[   0    1    2 ...  998  999 1000]");
  // Exactly 1000 elements are all printed.
  const std::vector<std::string> all = Lines(Arange({1000}).ToString());
  ASSERT_EQ(all.size(), 56u);
  EXPECT_EQ(all.front(),
            "[  0   1   2   3   4   5   6   7   8   9  10  11  12  13  14  15  "
            "16  17");
  EXPECT_EQ(all.back(), " 990 991 992 993 994 995 996 997 998 999]");
  EXPECT_EQ(Make<bool>({false}, {1001}).ToString(),
            "[False False False ... False False False]");
}

TEST(TensorPrinterTest, SummarisedMatrixElidesRowsAndColumns) {
  EXPECT_EQ(Arange({50, 40}).ToString(),
            "[[   0    1    2 ...   37   38   39]\n"
            " [  40   41   42 ...   77   78   79]\n"
            " [  80   81   82 ...  117  118  119]\n"
            " ...\n"
            " [1880 1881 1882 ... 1917 1918 1919]\n"
            " [1920 1921 1922 ... 1957 1958 1959]\n"
            " [1960 1961 1962 ... 1997 1998 1999]]");
  // Only the long axis is elided.
  EXPECT_EQ(Arange({501, 2}).ToString(),
            "[[   0    1]\n [   2    3]\n [   4    5]\n ...\n"
            " [ 996  997]\n [ 998  999]\n [1000 1001]]");
}

TEST(TensorPrinterTest, WidthsComeFromTheShownElementsOnly) {
  std::vector<double> values(2000, 1.0);
  values[1000] = 1e10;  // Hidden: it neither widens nor turns on scientific.
  EXPECT_EQ(Make(values, {2000}).ToString(), "[1. 1. 1. ... 1. 1. 1.]");
}

TEST(TensorPrinterTest, SummarisedRank3SeparatesBlocksAroundTheEllipsis) {
  EXPECT_EQ(Arange({7, 2, 100}).ToString(),
            "[[[   0    1    2 ...   97   98   99]\n"
            "  [ 100  101  102 ...  197  198  199]]\n\n"
            " [[ 200  201  202 ...  297  298  299]\n"
            "  [ 300  301  302 ...  397  398  399]]\n\n"
            " [[ 400  401  402 ...  497  498  499]\n"
            "  [ 500  501  502 ...  597  598  599]]\n\n"
            " ...\n\n"
            " [[ 800  801  802 ...  897  898  899]\n"
            "  [ 900  901  902 ...  997  998  999]]\n\n"
            " [[1000 1001 1002 ... 1097 1098 1099]\n"
            "  [1100 1101 1102 ... 1197 1198 1199]]\n\n"
            " [[1200 1201 1202 ... 1297 1298 1299]\n"
            "  [1300 1301 1302 ... 1397 1398 1399]]]");
}

TEST(TensorPrinterTest, SummaryCanWrapToo) {
  EXPECT_EQ(ArangeDividedBy<float>(1001, 3.f).ToString(),
            "[  0.           0.33333334   0.6666667  ... 332.66666    333.\n"
            " 333.33334   ]");
}

// --- Line wrapping ----------------------------------------------------------

TEST(TensorPrinterTest, LongVectorsWrapAtSeventyFiveColumns) {
  EXPECT_EQ(
      ArangeDividedBy<double>(20, 3.0).ToString(),
      "[0.         0.33333333 0.66666667 1.         1.33333333 1.66666667\n"
      " 2.         2.33333333 2.66666667 3.         3.33333333 3.66666667\n"
      " 4.         4.33333333 4.66666667 5.         5.33333333 5.66666667\n"
      " 6.         6.33333333]");
  Tensor thousands(DT_INT64, {40});
  for (int i = 0; i < 40; ++i) thousands.flat<int64_t>()(i) = 1000 * i;
  EXPECT_EQ(
      thousands.ToString(),
      "[    0  1000  2000  3000  4000  5000  6000  7000  8000  9000 10000 "
      "11000\n"
      " 12000 13000 14000 15000 16000 17000 18000 19000 20000 21000 22000 "
      "23000\n"
      " 24000 25000 26000 27000 28000 29000 30000 31000 32000 33000 34000 "
      "35000\n"
      " 36000 37000 38000 39000]");
}

TEST(TensorPrinterTest, MnistSizedVectorWrapsAsNumPyDoes) {
  // A flattened 28x28 image: np.arange(784, dtype=np.float32) / 7.
  const std::vector<std::string> lines =
      Lines(ArangeDividedBy<float>(784, 7.f).ToString());
  ASSERT_EQ(lines.size(), 157u);
  EXPECT_EQ(lines[0],
            "[  0.           0.14285715   0.2857143    0.42857143   0.5714286");
  EXPECT_EQ(lines[1],
            "   0.71428573   0.85714287   1.           1.1428572    1.2857143");
  EXPECT_EQ(lines[155],
            " 110.71429    110.85714    111.         111.14286    111.28571");
  EXPECT_EQ(lines[156],
            " 111.42857    111.57143    111.71429    111.85714   ]");
}

TEST(TensorPrinterTest, RowsOfAMatrixWrapWithADeeperIndent) {
  Tensor t(DT_DOUBLE, {2, 12});
  for (int i = 0; i < 24; ++i) t.flat<double>()(i) = i / 7.0;
  EXPECT_EQ(
      t.ToString(),
      "[[0.         0.14285714 0.28571429 0.42857143 0.57142857 0.71428571\n"
      "  0.85714286 1.         1.14285714 1.28571429 1.42857143 1.57142857]\n"
      " [1.71428571 1.85714286 2.         2.14285714 2.28571429 2.42857143\n"
      "  2.57142857 2.71428571 2.85714286 3.         3.14285714 "
      "3.28571429]]");
}

// --8<-- [start:rank3_golden]
TEST(TensorPrinterTest, Rank3BlocksAreSeparatedByABlankLine) {
  EXPECT_EQ(Arange({2, 2, 3}).ToString(),
            "[[[ 0  1  2]\n"
            "  [ 3  4  5]]\n"
            "\n"
            " [[ 6  7  8]\n"
            "  [ 9 10 11]]]");
  Tensor quarters(DT_FLOAT, {2, 3, 2});
  for (int i = 0; i < 12; ++i) quarters.flat<float>()(i) = i / 4.f;
  EXPECT_EQ(quarters.ToString(),
            "[[[0.   0.25]\n  [0.5  0.75]\n  [1.   1.25]]\n\n"
            " [[1.5  1.75]\n  [2.   2.25]\n  [2.5  2.75]]]");
}
// --8<-- [end:rank3_golden]

TEST(TensorPrinterTest, Rank4BlocksAreSeparatedByTwoBlankLines) {
  EXPECT_EQ(Arange({2, 2, 2, 2}).ToString(),
            "[[[[ 0  1]\n   [ 2  3]]\n\n  [[ 4  5]\n   [ 6  7]]]\n\n\n"
            " [[[ 8  9]\n   [10 11]]\n\n  [[12 13]\n   [14 15]]]]");
}

TEST(TensorPrinterTest, SizeOneDimensionsKeepTheirBrackets) {
  EXPECT_EQ(Tensor({{7}}).ToString(), "[[7]]");
  EXPECT_EQ(Tensor({{{1.5f}}}).ToString(), "[[[1.5]]]");
  EXPECT_EQ(Arange({3, 1}).ToString(), "[[0]\n [1]\n [2]]");
}

// --- Empty tensors ----------------------------------------------------------

TEST(TensorPrinterTest, EmptyTensorsPrintEmptyBrackets) {
  EXPECT_EQ(Tensor(DT_FLOAT, {0}).ToString(), "[]");
  EXPECT_EQ(Tensor(DT_FLOAT, {2, 0}).ToString(), "[]");
  EXPECT_EQ(Tensor(DT_INT32, {2, 0, 3}).ToString(), "[]");
}

// --- Options, streams and odd tensors ---------------------------------------

TEST(TensorPrinterTest, OptionsWorkAsNumPysArray2String) {
  const Tensor thirds({1.0 / 3.0, 2.0 / 3.0});
  EXPECT_EQ(FormatTensor(thirds, {.precision = 3}), "[0.333 0.667]");
  EXPECT_EQ(FormatTensor(Tensor({1.5, 2.25}), {.precision = 0}), "[2. 2.]");
  EXPECT_EQ(FormatTensor(Arange({10}), {.linewidth = 20}),
            "[0 1 2 3 4 5 6 7 8\n 9]");
  EXPECT_EQ(FormatTensor(Arange({10}), {.threshold = 5, .edgeitems = 2}),
            "[0 1 ... 8 9]");
  // A word longer than the line is not wrapped onto a line of its own.
  EXPECT_EQ(FormatTensor(Tensor({123456, 7}), {.linewidth = 3}),
            "[123456\n      7]");
}

TEST(TensorPrinterTest, StreamAndDebugStringUseTheNumPyText) {
  const Tensor m({{22.f, 28.f}, {49.f, 64.f}});
  std::ostringstream os;
  os << m;
  EXPECT_EQ(os.str(), "[[22. 28.]\n [49. 64.]]");
  EXPECT_EQ(m.DebugString(),
            "Tensor<type: float shape: [2,2] values: [[22. 28.]\n [49. 64.]]>");
}

TEST(TensorPrinterTest, UninitializedTensorPrintsWithoutFailing) {
  EXPECT_EQ(Tensor().ToString(), "<uninitialized tensor>");
  EXPECT_EQ(Tensor().DebugString(), "Tensor<uninitialized>");
}

// Memory the CPU may not touch, as a GPU's will be in chapter 5.
class DeviceOnlyAllocator final : public Allocator {
 public:
  std::string Name() const override { return "device"; }
  void* AllocateRaw(size_t alignment, size_t num_bytes) override {
    return std::aligned_alloc(alignment,
                              (num_bytes / alignment + 1) * alignment);
  }
  void DeallocateRaw(void* ptr) override { std::free(ptr); }
  bool HostAccessible() const override { return false; }
};

TEST(TensorPrinterTest, DeviceMemoryIsDescribedNotRead) {
  DeviceOnlyAllocator allocator;
  const Tensor t(&allocator, DT_FLOAT, {2, 3});
  EXPECT_EQ(t.ToString(), "<float tensor of shape [2,3] in device memory>");
}

}  // namespace
}  // namespace minitf
