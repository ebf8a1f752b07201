// Graph ops for arithmetic, comparison, reduction and linear algebra, under
// TensorFlow 1.x's names.
//
// Each function adds one node (sometimes a few, as TensorFlow's Python
// functions do) and returns its output; nothing is computed until a Session
// runs it. Shapes are checked now: an impossible product fails on the line
// that builds it, with TensorFlow's message. The operators + - * / and unary
// - build the same nodes as TensorFlow's Python operators ("add", "sub",
// "mul", "truediv", "Neg"); a C++ number on either side becomes a Const of
// the other operand's dtype, as Python numbers do. Comparisons are functions
// (tf::less ...), not operators, as in TensorFlow 1.x.
//
//   auto y = tf::matmul(x, w) + b;                  // MatMul, then "add"
//   auto loss = tf::reduce_mean(tf::square(y - y_));
//   auto hits = tf::equal(tf::argmax(y, 1), tf::argmax(y_, 1));
//   auto acc = tf::reduce_mean(tf::cast(hits, tf::float32));
#pragma once

#include <concepts>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "minitf/graph/graph.h"

namespace minitf {

// --- Elementwise binary ops, with NumPy broadcasting: x, y -> broadcast ---

/// tf.add (op "AddV2", as TensorFlow builds since 1.15): x + y.
Output add(Output x, Output y, const std::string& name = "");
/// tf.subtract (op "Sub"): x - y.
Output subtract(Output x, Output y, const std::string& name = "");
/// tf.multiply (op "Mul"): x * y.
Output multiply(Output x, Output y, const std::string& name = "");
/// tf.div (op "Div"): floats divide; integers floor-divide (-7 div 2 = -4).
Output div(Output x, Output y, const std::string& name = "");
/// tf.truediv (op "RealDiv", node "truediv"): floats divide; int32 and int64
/// are first cast to float64, as Python 3's `/`.
Output truediv(Output x, Output y, const std::string& name = "");
/// tf.divide: truediv.
Output divide(Output x, Output y, const std::string& name = "");
/// tf.maximum / tf.minimum (ops "Maximum", "Minimum"); NaN propagates.
Output maximum(Output x, Output y, const std::string& name = "");
Output minimum(Output x, Output y, const std::string& name = "");

// --- Elementwise unary ops: x -> same shape ---

/// tf.negative (op "Neg").
Output negative(Output x, const std::string& name = "");
Output square(Output x, const std::string& name = "");
/// Sqrt, Exp, Log, Sigmoid and Tanh take float and double only.
Output sqrt(Output x, const std::string& name = "");
Output exp(Output x, const std::string& name = "");
Output log(Output x, const std::string& name = "");
Output abs(Output x, const std::string& name = "");
Output sign(Output x, const std::string& name = "");
Output sigmoid(Output x, const std::string& name = "");
Output tanh(Output x, const std::string& name = "");

// --- Comparisons and logic: x, y -> bool, broadcast ---

Output equal(Output x, Output y, const std::string& name = "");
Output not_equal(Output x, Output y, const std::string& name = "");
Output less(Output x, Output y, const std::string& name = "");
Output less_equal(Output x, Output y, const std::string& name = "");
Output greater(Output x, Output y, const std::string& name = "");
Output greater_equal(Output x, Output y, const std::string& name = "");
/// x, y: bool.
Output logical_and(Output x, Output y, const std::string& name = "");
Output logical_or(Output x, Output y, const std::string& name = "");
Output logical_not(Output x, const std::string& name = "");

// --- Linear algebra ---

/// tf.matmul: a:[m,k] b:[k,n] -> [m,n], after the optional transposes.
Output matmul(Output a, Output b, bool transpose_a = false,
              bool transpose_b = false, const std::string& name = "");

// --- Reductions ---

/// Which axes a reduction removes: std::nullopt (TensorFlow's None) means
/// all of them; one int or a list otherwise. Negative axes count from the
/// end.
using ReductionAxes = std::optional<std::vector<int>>;

/// tf.reduce_sum(x, axis, keep_dims, name) (op "Sum"): the TF 1.x parameter
/// order, so reduce_sum(x, 1) is reduce_sum(x, reduction_indices=[1]).
/// x:[2,3] axis 1 -> [2] ([2,1] with keep_dims); axis nullopt -> [].
Output reduce_sum(Output x, const ReductionAxes& axis = std::nullopt,
                  bool keep_dims = false, const std::string& name = "");
/// tf.reduce_mean (op "Mean"); integer means truncate.
Output reduce_mean(Output x, const ReductionAxes& axis = std::nullopt,
                   bool keep_dims = false, const std::string& name = "");
/// tf.reduce_max / reduce_min / reduce_prod (ops "Max", "Min", "Prod").
Output reduce_max(Output x, const ReductionAxes& axis = std::nullopt,
                  bool keep_dims = false, const std::string& name = "");
Output reduce_min(Output x, const ReductionAxes& axis = std::nullopt,
                  bool keep_dims = false, const std::string& name = "");
Output reduce_prod(Output x, const ReductionAxes& axis = std::nullopt,
                   bool keep_dims = false, const std::string& name = "");
// A list of axes, as reduce_sum(x, {0, 1}); a braced list does not convert
// to the optional by itself.
Output reduce_sum(Output x, const std::vector<int>& axis,
                  bool keep_dims = false, const std::string& name = "");
Output reduce_mean(Output x, const std::vector<int>& axis,
                   bool keep_dims = false, const std::string& name = "");
Output reduce_max(Output x, const std::vector<int>& axis,
                  bool keep_dims = false, const std::string& name = "");
Output reduce_min(Output x, const std::vector<int>& axis,
                  bool keep_dims = false, const std::string& name = "");
Output reduce_prod(Output x, const std::vector<int>& axis,
                   bool keep_dims = false, const std::string& name = "");
// One axis, as reduce_sum(x, 1), is a scalar Const as TensorFlow makes of a
// Python int.
Output reduce_sum(Output x, int axis, bool keep_dims = false,
                  const std::string& name = "");
Output reduce_mean(Output x, int axis, bool keep_dims = false,
                   const std::string& name = "");
Output reduce_max(Output x, int axis, bool keep_dims = false,
                  const std::string& name = "");
Output reduce_min(Output x, int axis, bool keep_dims = false,
                  const std::string& name = "");
Output reduce_prod(Output x, int axis, bool keep_dims = false,
                   const std::string& name = "");

/// tf.argmax(input, axis) (op "ArgMax", axis as input `dimension`):
/// x:[2,3] axis 1 -> [2] of `output_type` (int64 or int32).
Output argmax(Output input, int axis = 0, const std::string& name = "",
              DType output_type = DT_INT64);
Output argmin(Output input, int axis = 0, const std::string& name = "",
              DType output_type = DT_INT64);

// --- Types and sums ---

/// tf.cast (op "Cast", attrs SrcT and DstT). Casting to x's own dtype returns
/// x itself, adding no node, as TensorFlow does.
Output cast(Output x, DType dtype, const std::string& name = "");
/// tf.add_n (op "AddN"): the sum of tensors of one shape and dtype. One input
/// is returned as it is (through an Identity when a name is given).
Output add_n(const std::vector<Output>& inputs, const std::string& name = "");

// --- Operators, as TensorFlow's Python operators ---

namespace internal {
/// A Const named `name` in the current scope holding `value` as `dtype`.
/// Throws InvalidArgumentError when the value does not fit an integer or
/// bool dtype exactly ("Expected int32, got 1.5").
Output ScalarConst(double value, DType dtype, const std::string& name);
}  // namespace internal

/// A C++ number usable where TensorFlow accepts a Python number.
template <typename S>
concept Scalar = std::is_arithmetic_v<S> && !std::same_as<S, bool>;

Output operator+(Output x, Output y);
Output operator-(Output x, Output y);
Output operator*(Output x, Output y);
/// Python 3's `/`: truediv.
Output operator/(Output x, Output y);
Output operator-(Output x);

// With a number on one side: x + 1.0 builds Const "add/y" and node "add";
// 1.0 + x builds "add/x", as TensorFlow names the converted operand.
Output BinaryOperator(const char* op, Output x, double y, bool scalar_first);
template <Scalar S>
Output operator+(Output x, S y) {
  return BinaryOperator("add", x, static_cast<double>(y), false);
}
template <Scalar S>
Output operator+(S x, Output y) {
  return BinaryOperator("add", y, static_cast<double>(x), true);
}
template <Scalar S>
Output operator-(Output x, S y) {
  return BinaryOperator("sub", x, static_cast<double>(y), false);
}
template <Scalar S>
Output operator-(S x, Output y) {
  return BinaryOperator("sub", y, static_cast<double>(x), true);
}
template <Scalar S>
Output operator*(Output x, S y) {
  return BinaryOperator("mul", x, static_cast<double>(y), false);
}
template <Scalar S>
Output operator*(S x, Output y) {
  return BinaryOperator("mul", y, static_cast<double>(x), true);
}
template <Scalar S>
Output operator/(Output x, S y) {
  return BinaryOperator("truediv", x, static_cast<double>(y), false);
}
template <Scalar S>
Output operator/(S x, Output y) {
  return BinaryOperator("truediv", y, static_cast<double>(x), true);
}

}  // namespace minitf
