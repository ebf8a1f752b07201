// The eager API of chapter 1: TensorFlow's op names, run immediately.
//
// Each function runs one CPU kernel on its inputs and returns the result, the
// way tf.add or tf.matmul behave under eager execution. It is the user-facing
// side of layer 1, so it throws the typed errors of errors.h, with the op
// named at the end of the message as TensorFlow's eager mode does:
// "Matrix size-incompatible: In[0]: [2,3], In[1]: [2,3] [Op:MatMul]".
// Chapter 2 gives the same names (tf::matmul ...) to graph-building
// functions; the kernels underneath are these.
//
//   namespace tf = minitf;
//   tf::Tensor a = tf::eager::constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3});
//   tf::Tensor b = tf::eager::constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {3, 2});
//   std::cout << tf::eager::matmul(a, b);    // [[22. 28.]\n [49. 64.]]
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <vector>

#include "minitf/tensor/errors.h"
#include "minitf/tensor/kernels/reduction_ops.h"
#include "minitf/tensor/tensor.h"

namespace minitf::eager {

namespace internal {
/// The value of a kernel's result, or its error thrown as a typed exception
/// with " [Op:<op>]" appended to the message.
Tensor ValueOrThrow(std::string_view op, StatusOr<Tensor> result);
}  // namespace internal

// --8<-- [start:constant]
/// tf.constant(values, shape=shape): a flat list laid out in `shape`, or a
/// single value filling it. Throws InvalidArgumentError when the count fits
/// neither ("Too many elements provided. Needed at most 6, but received 7").
template <TensorElement T>
Tensor constant(std::initializer_list<T> values,
                const std::vector<int64_t>& shape) {
  return internal::ValueOrThrow(
      "Const", Tensor::FromVector(std::vector<T>(values), TensorShape(shape)));
}
/// tf.constant(value): a tensor shaped by the nesting of the lists.
inline Tensor constant(const Tensor& value) { return value; }
// --8<-- [end:constant]

// Elementwise math (kernels/cwise_ops.h), with NumPy broadcasting.
Tensor add(const Tensor& x, const Tensor& y);
Tensor subtract(const Tensor& x, const Tensor& y);
Tensor multiply(const Tensor& x, const Tensor& y);
/// Floats: x / y. Integers: floor division, as tf.div.
Tensor div(const Tensor& x, const Tensor& y);
Tensor maximum(const Tensor& x, const Tensor& y);
Tensor minimum(const Tensor& x, const Tensor& y);
Tensor negative(const Tensor& x);
Tensor square(const Tensor& x);
Tensor sqrt(const Tensor& x);
Tensor exp(const Tensor& x);
Tensor log(const Tensor& x);
Tensor abs(const Tensor& x);
Tensor sign(const Tensor& x);
Tensor sigmoid(const Tensor& x);
Tensor tanh(const Tensor& x);
Tensor equal(const Tensor& x, const Tensor& y);
Tensor not_equal(const Tensor& x, const Tensor& y);
Tensor less(const Tensor& x, const Tensor& y);
Tensor less_equal(const Tensor& x, const Tensor& y);
Tensor greater(const Tensor& x, const Tensor& y);
Tensor greater_equal(const Tensor& x, const Tensor& y);
Tensor logical_and(const Tensor& x, const Tensor& y);
Tensor logical_or(const Tensor& x, const Tensor& y);
Tensor logical_not(const Tensor& x);

/// x:[m,k] y:[k,n] -> [m,n] (transposes applied first).
Tensor matmul(const Tensor& a, const Tensor& b, bool transpose_a = false,
              bool transpose_b = false);

/// `axis` std::nullopt reduces every axis, as axis=None in TensorFlow.
Tensor reduce_sum(const Tensor& x, const kernels::Axes& axis = std::nullopt,
                  bool keep_dims = false);
Tensor reduce_mean(const Tensor& x, const kernels::Axes& axis = std::nullopt,
                   bool keep_dims = false);
Tensor reduce_max(const Tensor& x, const kernels::Axes& axis = std::nullopt,
                  bool keep_dims = false);
Tensor reduce_min(const Tensor& x, const kernels::Axes& axis = std::nullopt,
                  bool keep_dims = false);
Tensor reduce_prod(const Tensor& x, const kernels::Axes& axis = std::nullopt,
                   bool keep_dims = false);
/// int64 indices along `axis`.
Tensor argmax(const Tensor& x, int axis);
Tensor argmin(const Tensor& x, int axis);

Tensor cast(const Tensor& x, DType dtype);
Tensor reshape(const Tensor& x, const std::vector<int64_t>& shape);
Tensor transpose(const Tensor& x,
                 const std::optional<std::vector<int>>& perm = std::nullopt);
Tensor concat(const std::vector<Tensor>& values, int axis);
Tensor stack(const std::vector<Tensor>& values, int axis = 0);
Tensor slice(const Tensor& x, const std::vector<int64_t>& begin,
             const std::vector<int64_t>& size);
Tensor fill(const std::vector<int64_t>& dims, const Tensor& value);
Tensor zeros(const std::vector<int64_t>& shape, DType dtype = float32);
Tensor ones(const std::vector<int64_t>& shape, DType dtype = float32);
Tensor zeros_like(const Tensor& x);
Tensor ones_like(const Tensor& x);
Tensor one_hot(const Tensor& indices, int64_t depth, float on_value = 1.f,
               float off_value = 0.f, int axis = -1);

/// Seed 0 means "pick one at random"; any other seed gives the same numbers
/// on every machine.
Tensor random_normal(const std::vector<int64_t>& shape, double mean = 0.0,
                     double stddev = 1.0, DType dtype = float32,
                     uint64_t seed = 0);
Tensor truncated_normal(const std::vector<int64_t>& shape, double mean = 0.0,
                        double stddev = 1.0, DType dtype = float32,
                        uint64_t seed = 0);
Tensor random_uniform(const std::vector<int64_t>& shape, double minval = 0.0,
                      double maxval = 1.0, DType dtype = float32,
                      uint64_t seed = 0);

namespace nn {
Tensor relu(const Tensor& x);
Tensor sigmoid(const Tensor& x);
Tensor tanh(const Tensor& x);
Tensor softmax(const Tensor& logits, int axis = -1);
Tensor log_softmax(const Tensor& logits, int axis = -1);
}  // namespace nn

}  // namespace minitf::eager
