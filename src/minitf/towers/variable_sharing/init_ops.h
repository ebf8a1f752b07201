// Initializers: how get_variable builds a variable's first value.
//
// tf.Variable takes a value; tf.get_variable takes a shape and an
// initializer, a function that builds the value's ops for that shape and
// dtype when (and only when) the variable is created. The ops it builds go
// under "<variable>/Initializer/", in the names TensorFlow gives them
// ("w/Initializer/random_uniform"). get_variable's default is
// glorot_uniform_initializer(), uniform in ±sqrt(6 / (fan_in + fan_out)).
//
//   auto w = tf::get_variable("w", {784, 10},
//                             tf::truncated_normal_initializer(0.0, 0.1));
//   auto b = tf::get_variable("b", {10}, tf::zeros_initializer());
//   auto k = tf::get_variable("k", {3, 3, 1, 32});   // glorot_uniform
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "minitf/graph/graph.h"
#include "minitf/tensor/dtype.h"

namespace minitf {

/// An initializer: builds, in the current graph and name scope, an Output of
/// `shape` and `dtype` that is the variable's initial value.
using Initializer =
    std::function<Output(const std::vector<int64_t>& shape, DType dtype)>;

/// tf.zeros_initializer(), tf.ones_initializer(): tf::zeros / tf::ones
/// ("zeros", "ones").
Initializer zeros_initializer();
Initializer ones_initializer();
/// tf.constant_initializer(value): a Const ("Const") of the shape, every
/// element `value`.
Initializer constant_initializer(double value);
/// tf.random_normal_initializer(mean, stddev, seed): tf::random_normal.
Initializer random_normal_initializer(
    double mean = 0.0, double stddev = 1.0,
    std::optional<int64_t> seed = std::nullopt);
/// tf.truncated_normal_initializer(mean, stddev, seed): tf::truncated_normal.
Initializer truncated_normal_initializer(
    double mean = 0.0, double stddev = 1.0,
    std::optional<int64_t> seed = std::nullopt);
/// tf.random_uniform_initializer(minval, maxval, seed): tf::random_uniform.
Initializer random_uniform_initializer(
    double minval = 0.0, double maxval = 1.0,
    std::optional<int64_t> seed = std::nullopt);
/// tf.glorot_uniform_initializer(seed) (Xavier's): random_uniform in
/// [-limit, limit), limit = sqrt(3 / max(1, (fan_in + fan_out) / 2)).
Initializer glorot_uniform_initializer(
    std::optional<int64_t> seed = std::nullopt);

/// The fans of a weight of `shape`, as TensorFlow's _compute_fans: a scalar
/// has 1 and 1, a vector n and n, a matrix [in, out] in and out, and a
/// convolution kernel [..., in, out] each times the product of the leading
/// (receptive field) dimensions.
struct Fans {
  double fan_in;
  double fan_out;
};
Fans ComputeFans(const std::vector<int64_t>& shape);

}  // namespace minitf
