// A run of a tensor's elements seen as an Eigen array, without a copy.
//
// The kernels that fold or transform contiguous runs of values (reductions,
// softmax) hand Eigen whole runs rather than walk them element by element:
// Eigen compiles each expression over a run into one vectorised loop. These
// two names say what such a run is, read-only or written.
//
//   ConstVec<float> x(p, n);
//   Vec<float> y(q, n);
//   y = (x - x.maxCoeff()).exp();   // one SIMD loop
#pragma once

#include <Eigen/Core>

namespace minitf::kernels {

/// `n` values of type T from a const pointer, as an Eigen column array.
template <typename T>
using ConstVec = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;
/// `n` values of type T from a pointer, as a writable Eigen column array.
template <typename T>
using Vec = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;

}  // namespace minitf::kernels
