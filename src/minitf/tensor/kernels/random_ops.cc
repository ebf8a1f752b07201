#include "minitf/tensor/kernels/random_ops.h"

#include <bit>
#include <cmath>
#include <limits>
#include <numbers>
#include <string_view>
#include <type_traits>

#include "minitf/tensor/kernels/philox.h"

namespace minitf::kernels {
namespace {

// --8<-- [start:uniform_bits]
// A uniform float in [0, 1) from 23 random bits, without a division: put the
// bits in the mantissa of a float whose exponent says "1.x", which gives a
// float evenly spaced in [1, 2); subtract 1. Every result is a multiple of
// 2^-23, and the conversion is exact, so it is the same on every machine.
float UniformFloat(uint32_t word) {
  const uint32_t one_point_bits =
      0x3f800000u | (word & 0x7fffffu);  // 1.mantissa
  return std::bit_cast<float>(one_point_bits) - 1.0f;
}

// The same for a double, with 52 random bits taken from two words.
double UniformDouble(uint32_t hi, uint32_t lo) {
  const uint64_t mantissa =
      ((uint64_t{hi} << 32) | lo) & ((uint64_t{1} << 52) - 1);
  return std::bit_cast<double>(0x3ff0000000000000ull | mantissa) - 1.0;
}
// --8<-- [end:uniform_bits]

// Uniform values of type T in [0, 1), and standard normals, drawn in order
// from one Philox stream.
template <typename T>
class Sampler {
 public:
  explicit Sampler(PhiloxStream& stream) : stream_(stream) {}

  T Uniform() {
    if constexpr (std::is_same_v<T, float>) {
      return UniformFloat(stream_.Next());
    } else {
      const uint32_t hi = stream_.Next();
      return UniformDouble(hi, stream_.Next());
    }
  }

  // --8<-- [start:box_muller]
  // Box-Muller: two independent uniforms u1, u2 are a point picked at random;
  // the radius r = sqrt(-2 ln(1 - u1)) and angle 2*pi*u2 turn it into two
  // independent standard normals, r*cos and r*sin. (1 - u1 is in (0, 1], so
  // the log is finite.) The second value is kept for the next call. The math
  // is done in double: libm's log/sin/cos may differ in their last bit
  // between platforms, and rounding a double to float hides that.
  T Normal() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double u1 = Uniform();
    const double u2 = Uniform();
    const double r = std::sqrt(-2.0 * std::log(1.0 - u1));
    const double theta = 2.0 * std::numbers::pi * u2;
    spare_ = static_cast<T>(r * std::sin(theta));
    has_spare_ = true;
    return static_cast<T>(r * std::cos(theta));
  }
  // --8<-- [end:box_muller]

 private:
  PhiloxStream& stream_;
  bool has_spare_ = false;
  T spare_ = 0;
};

Status CheckFloating(std::string_view op, DType dtype) {
  if (!DataTypeIsFloating(dtype)) {
    return errors::InvalidArgument(op, " has no kernel for dtype ", dtype);
  }
  return Status::OK();
}

// Integer bounds arrive as doubles; they must be whole numbers that T holds.
template <typename T>
Status CheckIntegerBound(std::string_view name, double value) {
  const bool fits =
      value >= static_cast<double>(std::numeric_limits<T>::min()) &&
      value < -static_cast<double>(std::numeric_limits<T>::min());
  if (!fits || std::trunc(value) != value) {
    return errors::InvalidArgument("RandomUniformInt needs an integer ", name,
                                   " that fits in ", DataTypeToEnum<T>::value,
                                   ", got ", value);
  }
  return Status::OK();
}

// --8<-- [start:uniform_int]
// Integers in [minval, maxval): a random word modulo the range's width. When
// the width does not divide 2^32 (or 2^64), the smaller results are a little
// more likely, by at most width / 2^32; TensorFlow accepts that bias too.
template <typename T>
void FillUniformInt(PhiloxStream& stream, T minval, T maxval, T* out,
                    int64_t n) {
  using Unsigned = std::make_unsigned_t<T>;
  const Unsigned width =
      static_cast<Unsigned>(maxval) - static_cast<Unsigned>(minval);
  for (int64_t i = 0; i < n; ++i) {
    Unsigned bits = stream.Next();
    if constexpr (sizeof(T) == 8) bits = (bits << 32) | stream.Next();
    // Unsigned arithmetic wraps, so minval + offset cannot overflow.
    out[i] = static_cast<T>(static_cast<Unsigned>(minval) + bits % width);
  }
}
// --8<-- [end:uniform_int]

// A tensor of `shape` and floating `dtype` (op `op`'s check), each value
// draw(sampler) in order, from one Sampler over `stream`.
template <typename Draw>
StatusOr<Tensor> Sample(const char* op, const std::vector<int64_t>& shape,
                        DType dtype, PhiloxStream& stream, const Draw& draw) {
  TF_RETURN_IF_ERROR(CheckFloating(op, dtype));
  TF_ASSIGN_OR_RETURN(TensorShape checked, TensorShape::FromDims(shape, false));
  TF_ASSIGN_OR_RETURN(Tensor out, Tensor::Allocate(dtype, checked));
  SwitchDType(dtype, [&]<typename T>() {
    if constexpr (std::is_floating_point_v<T>) {
      Sampler<T> sampler(stream);
      T* y = out.data<T>();
      for (int64_t i = 0; i < out.NumElements(); ++i) {
        y[i] = static_cast<T>(draw(sampler));
      }
    }
  });
  return out;
}

}  // namespace

StatusOr<Tensor> RandomNormal(const std::vector<int64_t>& shape, DType dtype,
                              double mean, double stddev,
                              PhiloxStream& stream) {
  return Sample(
      "RandomStandardNormal", shape, dtype, stream,
      [&](auto& sampler) { return mean + stddev * sampler.Normal(); });
}

StatusOr<Tensor> TruncatedNormal(const std::vector<int64_t>& shape, DType dtype,
                                 double mean, double stddev,
                                 PhiloxStream& stream) {
  // Rejection: about 95.4% of normals lie within two standard deviations,
  // so on average 1.05 draws make one value.
  return Sample("TruncatedNormal", shape, dtype, stream, [&](auto& sampler) {
    auto z = sampler.Normal();
    while (std::abs(z) >= 2) z = sampler.Normal();
    return mean + stddev * z;
  });
}

StatusOr<Tensor> RandomUniform(const std::vector<int64_t>& shape, DType dtype,
                               double minval, double maxval,
                               PhiloxStream& stream) {
  if (!DataTypeIsFloating(dtype) && !DataTypeIsInteger(dtype)) {
    return errors::InvalidArgument("RandomUniform has no kernel for dtype ",
                                   dtype);
  }
  TF_ASSIGN_OR_RETURN(TensorShape checked, TensorShape::FromDims(shape, false));
  Status status;
  SwitchDType(dtype, [&]<typename T>() {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      status = CheckIntegerBound<T>("minval", minval);
      if (status.ok()) status = CheckIntegerBound<T>("maxval", maxval);
      if (status.ok() && minval >= maxval) {
        status = errors::InvalidArgument(
            "Need minval < maxval: ", static_cast<T>(minval),
            " >= ", static_cast<T>(maxval));
      }
    }
  });
  TF_RETURN_IF_ERROR(status);
  TF_ASSIGN_OR_RETURN(Tensor out, Tensor::Allocate(dtype, checked));
  SwitchDType(dtype, [&]<typename T>() {
    T* y = out.data<T>();
    if constexpr (std::is_floating_point_v<T>) {
      Sampler<T> sampler(stream);
      const T low = static_cast<T>(minval);
      const T width = static_cast<T>(maxval) - low;
      for (int64_t i = 0; i < out.NumElements(); ++i)
        y[i] = low + width * sampler.Uniform();
    } else if constexpr (!std::is_same_v<T, bool>) {
      FillUniformInt<T>(stream, static_cast<T>(minval), static_cast<T>(maxval),
                        y, out.NumElements());
    }
  });
  return out;
}

StatusOr<Tensor> RandomNormal(const std::vector<int64_t>& shape, DType dtype,
                              double mean, double stddev, uint64_t seed,
                              uint64_t seed2) {
  PhiloxStream stream(seed, seed2);
  return RandomNormal(shape, dtype, mean, stddev, stream);
}

StatusOr<Tensor> TruncatedNormal(const std::vector<int64_t>& shape, DType dtype,
                                 double mean, double stddev, uint64_t seed,
                                 uint64_t seed2) {
  PhiloxStream stream(seed, seed2);
  return TruncatedNormal(shape, dtype, mean, stddev, stream);
}

StatusOr<Tensor> RandomUniform(const std::vector<int64_t>& shape, DType dtype,
                               double minval, double maxval, uint64_t seed,
                               uint64_t seed2) {
  PhiloxStream stream(seed, seed2);
  return RandomUniform(shape, dtype, minval, maxval, stream);
}

}  // namespace minitf::kernels
