// The tensor printer: a tensor's values as NumPy prints them.
//
// In TensorFlow 1.x, sess.run returns NumPy arrays, so what a learner sees on
// the screen is NumPy's str(array). minitf prints its tensors the same way,
// character for character, so a seed program's output can be compared with
// the C++ program's output by eye or by diff. Tensor::ToString() and
// operator<< use the default options; FormatTensor takes others, as
// np.array2string does with its keyword arguments.
//
//   tf::Tensor m({{22.f, 28.f}, {49.f, 64.f}});
//   std::cout << m;                  // [[22. 28.]\n [49. 64.]]
//   tf::Tensor v({1e-5, 1.0});
//   v.ToString();                    // "[1.e-05 1.e+00]"
//   tf::FormatTensor(m, {.precision = 3});   // fewer fractional digits
#pragma once

#include <cstdint>
#include <string>

#include "minitf/tensor/tensor.h"

namespace minitf {

/// The options of np.set_printoptions that minitf supports, with NumPy's
/// defaults. Floats are printed in NumPy's default 'maxprec' mode: the
/// shortest digits that identify each value, but at most `precision` digits
/// after the point.
struct PrintOptions {
  /// The most fractional digits a float is printed with (values below 0
  /// count as 0).
  int precision = 8;
  /// Tensors with more elements than this are summarised with "...".
  int64_t threshold = 1000;
  /// When summarising, how many items to show at each end of an axis (values
  /// below 1 count as 1).
  int edgeitems = 3;
  /// Lines are wrapped before they exceed this many characters.
  int linewidth = 75;
};

/// The tensor's values as NumPy's str() prints an array of the same dtype
/// and shape: "[[22. 28.]\n [49. 64.]]", "[ True False]", "3" for a 0-d
/// int32. An empty tensor prints "[]". A tensor that is uninitialized, or whose
/// bytes the CPU cannot read, prints a short description in angle brackets
/// instead of failing.
/// Thread safety: safe to call from many threads (there is no global state).
std::string FormatTensor(const Tensor& tensor,
                         const PrintOptions& options = {});

}  // namespace minitf
