// How the printer reproduces NumPy's str(array).
//
// Printing happens in two passes, as in NumPy's array2string:
//  1. Choose the elements that will be shown (all of them, or only `edgeitems`
//     at each end of every long axis when the tensor is summarised) and derive
//     one element format from them: the column widths, and for floats the
//     notation and the number of digits. Every element is then printed the
//     same way, so columns line up.
//  2. Lay the elements out recursively, one bracket per axis: the last axis
//     fills lines and wraps them at `linewidth`, the outer axes put one
//     sub-array per line and separate blocks of rank >= 2 with blank lines.
//
// Float digits come from std::to_chars, which gives the shortest digits that
// read back to the same float or double (the "unique" digits NumPy's Dragon4
// prints), or the correctly rounded digits at a fixed precision.

#include "minitf/tensor/tensor_printer.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

namespace minitf {
namespace {

// ---------------------------------------------------------------------------
// The digits of one float.

/// A float printed in parts: -12.5 is {"-12", "5", ""}, 1.5e-05 is
/// {"1", "5", "-05"}.
struct FloatParts {
  std::string integer;   // With the sign.
  std::string fraction;  // The digits after the point.
  std::string exponent;  // Sign and digits; empty in positional notation.
};

// `x` by std::to_chars: the shortest round-trip digits without a precision,
// the correctly rounded ones with it. REQUIRES: x is finite.
template <typename T>
std::string ToChars(T x, std::chars_format format,
                    std::optional<int> precision = std::nullopt) {
  // Enough for any double in fixed notation: 309 integer digits and a sign.
  char buffer[400];
  const std::to_chars_result r =
      precision ? std::to_chars(buffer, std::end(buffer), x, format, *precision)
                : std::to_chars(buffer, std::end(buffer), x, format);
  MINITF_CHECK(r.ec == std::errc());
  return std::string(buffer, r.ptr);
}

// Splits "-1.50e-05", "-12.5" or "-12" at the point and at the "e".
FloatParts Split(const std::string& s) {
  const size_t e = s.find('e');
  const size_t point = s.find('.');
  FloatParts parts;
  parts.integer = s.substr(0, std::min(point, e));
  if (point != std::string::npos) {
    parts.fraction = s.substr(point + 1, e - point - 1);
  }
  if (e != std::string::npos) parts.exponent = s.substr(e + 1);
  return parts;
}

void TrimTrailingZeros(std::string* digits) {
  digits->erase(digits->find_last_not_of('0') + 1);
}

std::string PadLeft(const std::string& s, size_t width, char fill = ' ') {
  return s.size() >= width ? s : std::string(width - s.size(), fill) + s;
}
std::string PadRight(const std::string& s, size_t width, char fill = ' ') {
  return s.size() >= width ? s : s + std::string(width - s.size(), fill);
}

/// `x` in `format` with the shortest digits that identify it (its "unique"
/// digits), but at most `precision` digits after the point, rounded from x's
/// exact binary value past that. No trailing zeros in the fraction.
/// Scientific: d.ddde±XX. Fixed: always every digit of the integer part, so
/// the float32 91456288, whose unique digits are 9145629, prints as
/// 91456288, as in NumPy's arrays.
template <typename T>
FloatParts UniqueDigits(T x, std::chars_format format, int precision) {
  FloatParts parts = Split(ToChars(x, format));
  if (static_cast<int>(parts.fraction.size()) > precision) {
    parts = Split(ToChars(x, format, precision));
    TrimTrailingZeros(&parts.fraction);
  }
  return parts;
}

// ---------------------------------------------------------------------------
// Element formats: built from the shown elements, then applied to each.

/// Floats in NumPy's default 'maxprec' mode.
///
/// Invariant: every element it prints, finite or not, is exactly
/// pad_left_ + 1 + pad_right_ characters wide.
template <typename T>
class FloatFormat {
 public:
  // --8<-- [start:float_format_decision]
  FloatFormat(const std::vector<T>& shown, int precision)
      : precision_(precision) {
    std::vector<T> finite;
    bool has_nonfinite = false, has_negative_inf = false;
    T max_abs = 0, min_abs = std::numeric_limits<T>::infinity();
    for (T x : shown) {
      if (!std::isfinite(x)) {
        has_nonfinite = true;
        has_negative_inf |= std::isinf(x) && x < 0;
        continue;
      }
      finite.push_back(x);
      if (x != 0) {
        max_abs = std::max(max_abs, std::abs(x));
        min_abs = std::min(min_abs, std::abs(x));
      }
    }
    // Positional notation would need too many digits for values this large,
    // this small, or this far apart: switch to scientific. (The ratio is
    // taken in T, as NumPy divides its float32 scalars in float32.)
    if (max_abs > 0) {
      scientific_ = static_cast<double>(max_abs) >= 1e8 ||
                    static_cast<double>(min_abs) < 1e-4 ||
                    static_cast<double>(max_abs / min_abs) > 1e3;
    }
    // Columns as wide as the widest integer part and fraction of any element.
    for (T x : finite) {
      const FloatParts p = UniqueDigits(x, format(), precision_);
      pad_left_ = std::max(pad_left_, p.integer.size());
      pad_right_ = std::max(pad_right_, p.fraction.size());
      if (scientific_) {
        exp_digits_ = std::max(exp_digits_, p.exponent.size() - 1);
      }
    }
    if (scientific_) {
      // All mantissas get the same number of digits.
      precision_ = static_cast<int>(pad_right_);
      pad_right_ += 2 + exp_digits_;  // "e", the exponent's sign and digits.
    }
    // "nan", "inf" and "-inf" are right-aligned in the same width; widen the
    // integer column if they do not fit.
    if (has_nonfinite) {
      const size_t widest = has_negative_inf ? 4 : 3;
      if (widest > pad_right_ + 1) {
        pad_left_ = std::max(pad_left_, widest - pad_right_ - 1);
      }
    }
  }
  // --8<-- [end:float_format_decision]

  std::string operator()(T x) const {
    const size_t width = pad_left_ + 1 + pad_right_;
    if (std::isnan(x)) return PadLeft("nan", width);
    if (std::isinf(x)) return PadLeft(x < 0 ? "-inf" : "inf", width);
    if (scientific_) {
      FloatParts p = UniqueDigits(x, std::chars_format::scientific, precision_);
      if (static_cast<int>(p.fraction.size()) < precision_) {
        // Shorter mantissas are not padded with zeros but continued with the
        // value's own digits, correctly rounded: beside 1.2345678e+00, the
        // float32 1e-5f prints as 9.9999997e-06 (NumPy's Dragon4 does so).
        p = Split(ToChars(x, std::chars_format::scientific, precision_));
      }
      const std::string exponent_digits =
          PadLeft(p.exponent.substr(1), exp_digits_, '0');
      return PadLeft(p.integer, pad_left_) + "." + p.fraction + "e" +
             p.exponent[0] + exponent_digits;
    }
    const FloatParts p = UniqueDigits(x, std::chars_format::fixed, precision_);
    return PadLeft(p.integer, pad_left_) + "." +
           PadRight(p.fraction, pad_right_);
  }

 private:
  std::chars_format format() const {
    return scientific_ ? std::chars_format::scientific
                       : std::chars_format::fixed;
  }

  // Positional: the most fractional digits. Scientific: the exact number of
  // mantissa digits after the point.
  int precision_;
  bool scientific_ = false;
  size_t pad_left_ = 0;    // Width of the integer part, sign included.
  size_t pad_right_ = 0;   // Width after the point ("5e-05" counts 5).
  size_t exp_digits_ = 0;  // Digits of every exponent (at least 2).
};

/// Integers, right-aligned to the widest shown value.
template <typename T>
class IntFormat {
 public:
  IntFormat(const std::vector<T>& shown, int /*precision*/) {
    for (T x : shown) width_ = std::max(width_, std::to_string(x).size());
  }
  std::string operator()(T x) const {
    return PadLeft(std::to_string(x), width_);
  }

 private:
  size_t width_ = 0;
};

/// Booleans: " True" is padded to the width of "False".
class BoolFormat {
 public:
  BoolFormat(const std::vector<bool>& /*shown*/, int /*precision*/) {}
  std::string operator()(bool x) const { return x ? " True" : "False"; }
};

template <typename T>
using ElementFormat =
    std::conditional_t<std::is_same_v<T, bool>, BoolFormat,
                       std::conditional_t<std::is_floating_point_v<T>,
                                          FloatFormat<T>, IntFormat<T>>>;

/// A 0-d tensor prints as NumPy prints a scalar: floats with all their
/// unique digits ("0.3333333333333333"), scientific only when tiny or huge.
template <typename T>
std::string FormatScalar(T x) {
  if constexpr (std::is_same_v<T, bool>) {
    return x ? "True" : "False";
  } else if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(x)) return "nan";
    if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
    const std::string shortest = ToChars(x, std::chars_format::scientific);
    // NumPy compares in long double, so float32's 1e-4f (just below 1e-4)
    // prints as 1e-04.
    const long double a = std::fabs(static_cast<long double>(x));
    if (a != 0 && (a < 1e-4L || a >= 1e16L)) return shortest;
    // Unlike in arrays, the unique digits are put in place and padded with
    // zeros: the float32 168868736 (unique digits 16886874) is 168868740.0.
    const FloatParts sci = Split(shortest);
    const int exponent = std::stoi(sci.exponent);
    const bool negative = std::signbit(x);
    std::string digits = sci.integer.substr(negative ? 1 : 0) + sci.fraction;
    std::string integer, fraction;
    if (exponent >= 0) {
      digits = PadRight(digits, exponent + 1, '0');
      integer = digits.substr(0, exponent + 1);
      fraction = digits.substr(exponent + 1);
    } else {
      integer = "0";
      fraction = std::string(-exponent - 1, '0') + digits;
    }
    return (negative ? "-" : "") + integer + "." +
           (fraction.empty() ? "0" : fraction);
  } else {
    return std::to_string(x);
  }
}

// ---------------------------------------------------------------------------
// The layout of a tensor of rank >= 1.

/// Walks the shown elements of a row-major tensor and lays them out.
///
/// Invariant: every dimension is >= 1 (empty tensors print "[]" before).
class ArrayLayout {
 public:
  ArrayLayout(const TensorShape& shape, bool summarize, int edgeitems)
      : dims_(shape.dim_sizes()),
        strides_(dims_.size(), 1),
        summarize_(summarize),
        edgeitems_(edgeitems) {
    for (int axis = static_cast<int>(dims_.size()) - 2; axis >= 0; --axis) {
      strides_[axis] = strides_[axis + 1] * dims_[axis + 1];
    }
  }

  /// Calls `visit` with the flat index of every shown element, in order.
  void ForEachShown(const std::function<void(int64_t)>& visit) const {
    ForEachShown(0, 0, visit);
  }

  /// The bracketed text, each element printed by `element(flat_index)`.
  std::string Format(int linewidth,
                     const std::function<std::string(int64_t)>& element) const {
    return Block(0, 0, " ", linewidth, element);
  }

 private:
  static constexpr int64_t kEllipsis = -1;

  // The indices printed along `axis`, with kEllipsis where "..." goes.
  std::vector<int64_t> Items(int axis) const {
    const int64_t n = dims_[axis];
    std::vector<int64_t> items;
    if (summarize_ && n > 2 * int64_t{edgeitems_}) {
      for (int64_t i = 0; i < edgeitems_; ++i) items.push_back(i);
      items.push_back(kEllipsis);
      for (int64_t i = n - edgeitems_; i < n; ++i) items.push_back(i);
    } else {
      for (int64_t i = 0; i < n; ++i) items.push_back(i);
    }
    return items;
  }

  void ForEachShown(int axis, int64_t offset,
                    const std::function<void(int64_t)>& visit) const {
    for (int64_t i : Items(axis)) {
      if (i == kEllipsis) continue;
      const int64_t child = offset + i * strides_[axis];
      if (axis + 1 == static_cast<int>(dims_.size())) {
        visit(child);
      } else {
        ForEachShown(axis + 1, child, visit);
      }
    }
  }

  // --8<-- [start:recursive_layout]
  // The sub-array at `offset` spanning axes [axis, rank), as "[...]". Lines
  // after the first start with `indent`, one space per open bracket; the text
  // must leave room for the closing brackets within `width`.
  std::string Block(int axis, int64_t offset, const std::string& indent,
                    int64_t width,
                    const std::function<std::string(int64_t)>& element) const {
    const std::vector<int64_t> items = Items(axis);
    const int axes_left = static_cast<int>(dims_.size()) - axis;
    std::string text;
    if (axes_left == 1) {
      // The last axis: words separated by spaces, wrapped into lines that
      // leave one column for this axis's "]".
      std::string line = indent;
      for (size_t k = 0; k < items.size(); ++k) {
        const std::string word =
            items[k] == kEllipsis ? "..." : element(offset + items[k]);
        // A line holding only its indent is not wrapped: that would not help.
        const bool too_long =
            static_cast<int64_t>(line.size() + word.size()) > width - 1;
        if (too_long && line.size() > indent.size()) {
          text += line.substr(0, line.find_last_not_of(' ') + 1) + "\n";
          line = indent;
        }
        line += word;
        if (k + 1 < items.size()) line += " ";
      }
      text += line;
    } else {
      // Outer axes: one sub-array per line, and a blank line more for each
      // axis the sub-arrays have beyond a row ("]\n\n [[" between matrices).
      const std::string separator(axes_left - 1, '\n');
      for (size_t k = 0; k < items.size(); ++k) {
        text += indent;
        text += items[k] == kEllipsis
                    ? "..."
                    : Block(axis + 1, offset + items[k] * strides_[axis],
                            indent + " ", width - 1, element);
        if (k + 1 < items.size()) text += separator;
      }
    }
    // The first line's indent is where the "[" goes.
    std::string block = "[";
    block.append(text, indent.size());
    return block + "]";
  }
  // --8<-- [end:recursive_layout]

  std::vector<int64_t> dims_;
  std::vector<int64_t> strides_;
  bool summarize_;
  int edgeitems_;
};

template <typename T>
std::string FormatValues(const Tensor& tensor, const PrintOptions& options) {
  const T* data = tensor.data<T>();
  if (tensor.dims() == 0) return FormatScalar(data[0]);
  if (tensor.NumElements() == 0) return "[]";
  const ArrayLayout layout(tensor.shape(),
                           tensor.NumElements() > options.threshold,
                           std::max(1, options.edgeitems));
  // Widths come from the shown elements only: a hidden 1e10 does not widen
  // the columns or turn on scientific notation.
  std::vector<T> shown;
  layout.ForEachShown([&](int64_t i) { shown.push_back(data[i]); });
  const ElementFormat<T> format(shown, std::max(0, options.precision));
  return layout.Format(options.linewidth,
                       [&](int64_t i) { return format(data[i]); });
}

}  // namespace

std::string FormatTensor(const Tensor& tensor, const PrintOptions& options) {
  if (!tensor.IsInitialized()) return "<uninitialized tensor>";
  if (!tensor.allocator()->HostAccessible()) {
    return StrCat("<", tensor.dtype(), " tensor of shape ", tensor.shape(),
                  " in ", tensor.allocator()->Name(), " memory>");
  }
  return SwitchDType(tensor.dtype(), [&]<typename T>() {
    return FormatValues<T>(tensor, options);
  });
}

std::string Tensor::ToString() const { return FormatTensor(*this); }

std::ostream& operator<<(std::ostream& os, const Tensor& tensor) {
  return os << tensor.ToString();
}

}  // namespace minitf
