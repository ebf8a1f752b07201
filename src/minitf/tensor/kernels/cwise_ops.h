// Elementwise ("cwise") kernels: y = f(x) and z = f(x, y), with broadcasting.
//
// These are the eager CPU kernels behind tf.add, tf.exp, tf.equal ... Each
// binary kernel first broadcasts its inputs' shapes as NumPy does (see
// broadcast.h), then runs the math as a functor over Eigen arrays: the
// vectorised loop is Eigen's, the shapes and dtypes are minitf's.
//
//   StatusOr<Tensor> z = kernels::Add(x, y);       // x:[2,3] y:[3] -> [2,3]
//   StatusOr<Tensor> m = kernels::Less(x, y);      // -> bool [2,3]
//   StatusOr<Tensor> e = kernels::Exp(x);          // float and double only
//
// Errors: inputs of different dtypes, a dtype the op has no kernel for, and
// shapes that do not broadcast are InvalidArgument with TensorFlow's wording.
// Integer add/sub/mul/neg/square wrap around on overflow (two's complement),
// as TensorFlow's do, and so does Abs of the most negative integer; integer
// division by zero is InvalidArgument "Integer division by zero". Maximum,
// Minimum and Relu propagate NaN.
#pragma once

#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor.h"

namespace minitf::kernels {

// Unary math. Neg, Square, Abs and Sign take every numeric dtype; Sqrt, Exp,
// Log, Sigmoid and Tanh take float and double; Relu takes every numeric dtype.
StatusOr<Tensor> Neg(const Tensor& x);
StatusOr<Tensor> Square(const Tensor& x);
StatusOr<Tensor> Sqrt(const Tensor& x);
StatusOr<Tensor> Exp(const Tensor& x);
StatusOr<Tensor> Log(const Tensor& x);
StatusOr<Tensor> Abs(const Tensor& x);
StatusOr<Tensor> Sign(const Tensor& x);
StatusOr<Tensor> Relu(const Tensor& x);
StatusOr<Tensor> Sigmoid(const Tensor& x);
StatusOr<Tensor> Tanh(const Tensor& x);

// Binary arithmetic over numeric dtypes, broadcasting.
StatusOr<Tensor> Add(const Tensor& x, const Tensor& y);
StatusOr<Tensor> Sub(const Tensor& x, const Tensor& y);
StatusOr<Tensor> Mul(const Tensor& x, const Tensor& y);
/// Floats: true division. Integers: floor division (tf.div's Python 2 rule).
StatusOr<Tensor> Div(const Tensor& x, const Tensor& y);
StatusOr<Tensor> Maximum(const Tensor& x, const Tensor& y);
StatusOr<Tensor> Minimum(const Tensor& x, const Tensor& y);
/// The gradient of Relu: gradients where features > 0, else gradients * 0
/// (0, or NaN for a NaN or infinite gradient, as in TensorFlow).
StatusOr<Tensor> ReluGrad(const Tensor& gradients, const Tensor& features);

// Comparisons, broadcasting, giving bool tensors. Equal and NotEqual also take
// bool.
StatusOr<Tensor> Equal(const Tensor& x, const Tensor& y);
StatusOr<Tensor> NotEqual(const Tensor& x, const Tensor& y);
StatusOr<Tensor> Less(const Tensor& x, const Tensor& y);
StatusOr<Tensor> LessEqual(const Tensor& x, const Tensor& y);
StatusOr<Tensor> Greater(const Tensor& x, const Tensor& y);
StatusOr<Tensor> GreaterEqual(const Tensor& x, const Tensor& y);

// Logic on bool tensors, broadcasting.
StatusOr<Tensor> LogicalAnd(const Tensor& x, const Tensor& y);
StatusOr<Tensor> LogicalOr(const Tensor& x, const Tensor& y);
StatusOr<Tensor> LogicalNot(const Tensor& x);

}  // namespace minitf::kernels
