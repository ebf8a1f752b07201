#include "minitf/tensor/eager.h"

#include <random>

#include "minitf/tensor/kernels/array_ops.h"
#include "minitf/tensor/kernels/cwise_ops.h"
#include "minitf/tensor/kernels/matmul.h"
#include "minitf/tensor/kernels/nn_ops.h"
#include "minitf/tensor/kernels/random_ops.h"

namespace minitf::eager {

namespace internal {
Tensor ValueOrThrow(std::string_view op, StatusOr<Tensor> result) {
  if (!result.ok()) {
    const Status& s = result.status();
    errors::ThrowIfError(
        Status(s.code(), StrCat(s.message(), " [Op:", op, "]")));
  }
  return std::move(result).value();
}
}  // namespace internal

namespace {
using internal::ValueOrThrow;

// Seed 0 asks for fresh randomness, as an unseeded TensorFlow op.
uint64_t SeedOrRandom(uint64_t seed) {
  if (seed != 0) return seed;
  static thread_local std::mt19937_64 source{std::random_device{}()};
  return source() | 1;
}
}  // namespace

Tensor add(const Tensor& x, const Tensor& y) {
  return ValueOrThrow("Add", kernels::Add(x, y));
}
Tensor subtract(const Tensor& x, const Tensor& y) {
  return ValueOrThrow("Sub", kernels::Sub(x, y));
}
Tensor multiply(const Tensor& x, const Tensor& y) {
  return ValueOrThrow("Mul", kernels::Mul(x, y));
}
Tensor div(const Tensor& x, const Tensor& y) {
  return ValueOrThrow("Div", kernels::Div(x, y));
}
Tensor maximum(const Tensor& x, const Tensor& y) {
  return ValueOrThrow("Maximum", kernels::Maximum(x, y));
}
Tensor minimum(const Tensor& x, const Tensor& y) {
  return ValueOrThrow("Minimum", kernels::Minimum(x, y));
}
Tensor negative(const Tensor& x) {
  return ValueOrThrow("Neg", kernels::Neg(x));
}
Tensor square(const Tensor& x) {
  return ValueOrThrow("Square", kernels::Square(x));
}
Tensor sqrt(const Tensor& x) { return ValueOrThrow("Sqrt", kernels::Sqrt(x)); }
Tensor exp(const Tensor& x) { return ValueOrThrow("Exp", kernels::Exp(x)); }
Tensor log(const Tensor& x) { return ValueOrThrow("Log", kernels::Log(x)); }
Tensor abs(const Tensor& x) { return ValueOrThrow("Abs", kernels::Abs(x)); }
Tensor sign(const Tensor& x) { return ValueOrThrow("Sign", kernels::Sign(x)); }
Tensor sigmoid(const Tensor& x) {
  return ValueOrThrow("Sigmoid", kernels::Sigmoid(x));
}
Tensor tanh(const Tensor& x) { return ValueOrThrow("Tanh", kernels::Tanh(x)); }
Tensor equal(const Tensor& x, const Tensor& y) {
  return ValueOrThrow("Equal", kernels::Equal(x, y));
}
Tensor not_equal(const Tensor& x, const Tensor& y) {
  return ValueOrThrow("NotEqual", kernels::NotEqual(x, y));
}
Tensor less(const Tensor& x, const Tensor& y) {
  return ValueOrThrow("Less", kernels::Less(x, y));
}
Tensor less_equal(const Tensor& x, const Tensor& y) {
  return ValueOrThrow("LessEqual", kernels::LessEqual(x, y));
}
Tensor greater(const Tensor& x, const Tensor& y) {
  return ValueOrThrow("Greater", kernels::Greater(x, y));
}
Tensor greater_equal(const Tensor& x, const Tensor& y) {
  return ValueOrThrow("GreaterEqual", kernels::GreaterEqual(x, y));
}
Tensor logical_and(const Tensor& x, const Tensor& y) {
  return ValueOrThrow("LogicalAnd", kernels::LogicalAnd(x, y));
}
Tensor logical_or(const Tensor& x, const Tensor& y) {
  return ValueOrThrow("LogicalOr", kernels::LogicalOr(x, y));
}
Tensor logical_not(const Tensor& x) {
  return ValueOrThrow("LogicalNot", kernels::LogicalNot(x));
}

Tensor matmul(const Tensor& a, const Tensor& b, bool transpose_a,
              bool transpose_b) {
  return ValueOrThrow("MatMul",
                      kernels::MatMul(a, b, transpose_a, transpose_b));
}

Tensor reduce_sum(const Tensor& x, const kernels::Axes& axis, bool keep_dims) {
  return ValueOrThrow("Sum", kernels::ReduceSum(x, axis, keep_dims));
}
Tensor reduce_mean(const Tensor& x, const kernels::Axes& axis, bool keep_dims) {
  return ValueOrThrow("Mean", kernels::ReduceMean(x, axis, keep_dims));
}
Tensor reduce_max(const Tensor& x, const kernels::Axes& axis, bool keep_dims) {
  return ValueOrThrow("Max", kernels::ReduceMax(x, axis, keep_dims));
}
Tensor reduce_min(const Tensor& x, const kernels::Axes& axis, bool keep_dims) {
  return ValueOrThrow("Min", kernels::ReduceMin(x, axis, keep_dims));
}
Tensor reduce_prod(const Tensor& x, const kernels::Axes& axis, bool keep_dims) {
  return ValueOrThrow("Prod", kernels::ReduceProd(x, axis, keep_dims));
}
Tensor argmax(const Tensor& x, int axis) {
  return ValueOrThrow("ArgMax", kernels::ArgMax(x, axis));
}
Tensor argmin(const Tensor& x, int axis) {
  return ValueOrThrow("ArgMin", kernels::ArgMin(x, axis));
}

Tensor cast(const Tensor& x, DType dtype) {
  return ValueOrThrow("Cast", kernels::Cast(x, dtype));
}
Tensor reshape(const Tensor& x, const std::vector<int64_t>& shape) {
  return ValueOrThrow("Reshape", kernels::Reshape(x, shape));
}
Tensor transpose(const Tensor& x, const std::optional<std::vector<int>>& perm) {
  return ValueOrThrow("Transpose", kernels::Transpose(x, perm));
}
Tensor concat(const std::vector<Tensor>& values, int axis) {
  return ValueOrThrow("ConcatV2", kernels::Concat(values, axis));
}
Tensor stack(const std::vector<Tensor>& values, int axis) {
  return ValueOrThrow("Pack", kernels::Stack(values, axis));
}
Tensor slice(const Tensor& x, const std::vector<int64_t>& begin,
             const std::vector<int64_t>& size) {
  return ValueOrThrow("Slice", kernels::Slice(x, begin, size));
}
Tensor fill(const std::vector<int64_t>& dims, const Tensor& value) {
  return ValueOrThrow("Fill", kernels::Fill(dims, value));
}
Tensor zeros(const std::vector<int64_t>& shape, DType dtype) {
  return ValueOrThrow("Zeros", kernels::Zeros(shape, dtype));
}
Tensor ones(const std::vector<int64_t>& shape, DType dtype) {
  return ValueOrThrow("Ones", kernels::Ones(shape, dtype));
}
Tensor zeros_like(const Tensor& x) {
  return ValueOrThrow("ZerosLike", kernels::ZerosLike(x));
}
Tensor ones_like(const Tensor& x) {
  return ValueOrThrow("OnesLike", kernels::OnesLike(x));
}
Tensor one_hot(const Tensor& indices, int64_t depth, float on_value,
               float off_value, int axis) {
  return ValueOrThrow(
      "OneHot", kernels::OneHot(indices, depth, on_value, off_value, axis));
}

Tensor random_normal(const std::vector<int64_t>& shape, double mean,
                     double stddev, DType dtype, uint64_t seed) {
  return ValueOrThrow(
      "RandomStandardNormal",
      kernels::RandomNormal(shape, dtype, mean, stddev, SeedOrRandom(seed), 0));
}
Tensor truncated_normal(const std::vector<int64_t>& shape, double mean,
                        double stddev, DType dtype, uint64_t seed) {
  return ValueOrThrow("TruncatedNormal",
                      kernels::TruncatedNormal(shape, dtype, mean, stddev,
                                               SeedOrRandom(seed), 0));
}
Tensor random_uniform(const std::vector<int64_t>& shape, double minval,
                      double maxval, DType dtype, uint64_t seed) {
  return ValueOrThrow("RandomUniform",
                      kernels::RandomUniform(shape, dtype, minval, maxval,
                                             SeedOrRandom(seed), 0));
}

namespace nn {
Tensor relu(const Tensor& x) { return ValueOrThrow("Relu", kernels::Relu(x)); }
Tensor sigmoid(const Tensor& x) { return eager::sigmoid(x); }
Tensor tanh(const Tensor& x) { return eager::tanh(x); }
Tensor softmax(const Tensor& logits, int axis) {
  return ValueOrThrow("Softmax", kernels::Softmax(logits, axis));
}
Tensor log_softmax(const Tensor& logits, int axis) {
  return ValueOrThrow("LogSoftmax", kernels::LogSoftmax(logits, axis));
}
}  // namespace nn

}  // namespace minitf::eager
