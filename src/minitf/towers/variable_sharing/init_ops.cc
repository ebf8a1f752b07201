#include "minitf/towers/variable_sharing/init_ops.h"

#include <algorithm>
#include <cmath>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/random_ops.h"
#include "minitf/tensor/eager.h"

namespace minitf {

Initializer zeros_initializer() {
  return [](const std::vector<int64_t>& shape, DType dtype) {
    return zeros(shape, dtype);
  };
}

Initializer ones_initializer() {
  return [](const std::vector<int64_t>& shape, DType dtype) {
    return ones(shape, dtype);
  };
}

// TensorFlow's constant_op.constant(value, dtype, shape): one Const holding
// every element, whatever the size (tf::zeros would switch to a Fill).
Initializer constant_initializer(double value) {
  return [value](const std::vector<int64_t>& shape, DType dtype) {
    const Tensor scalar = SwitchDType(
        dtype, [&]<typename T>() { return Tensor(static_cast<T>(value)); });
    return constant(eager::fill(shape, scalar));
  };
}

Initializer random_normal_initializer(double mean, double stddev,
                                      std::optional<int64_t> seed) {
  return [=](const std::vector<int64_t>& shape, DType dtype) {
    return random_normal(shape, mean, stddev, dtype, seed);
  };
}

Initializer truncated_normal_initializer(double mean, double stddev,
                                         std::optional<int64_t> seed) {
  return [=](const std::vector<int64_t>& shape, DType dtype) {
    return truncated_normal(shape, mean, stddev, dtype, seed);
  };
}

Initializer random_uniform_initializer(double minval, double maxval,
                                       std::optional<int64_t> seed) {
  return [=](const std::vector<int64_t>& shape, DType dtype) {
    return random_uniform(shape, minval, maxval, dtype, seed);
  };
}

Fans ComputeFans(const std::vector<int64_t>& shape) {
  if (shape.empty()) return {1.0, 1.0};
  if (shape.size() == 1) {
    return {static_cast<double>(shape[0]), static_cast<double>(shape[0])};
  }
  double receptive_field = 1.0;
  for (size_t i = 0; i + 2 < shape.size(); ++i) receptive_field *= shape[i];
  return {shape[shape.size() - 2] * receptive_field,
          shape[shape.size() - 1] * receptive_field};
}

// --8<-- [start:glorot_uniform]
// TensorFlow's VarianceScaling(scale=1, mode="fan_avg",
// distribution="uniform"): a uniform draw of variance
// 1 / ((fan_in + fan_out) / 2), so that a layer's outputs and its gradients
// keep the scale of its inputs.
Initializer glorot_uniform_initializer(std::optional<int64_t> seed) {
  return [seed](const std::vector<int64_t>& shape, DType dtype) {
    const Fans fans = ComputeFans(shape);
    const double scale = 1.0 / std::max(1.0, (fans.fan_in + fans.fan_out) / 2);
    const double limit = std::sqrt(3.0 * scale);
    return random_uniform(shape, -limit, limit, dtype, seed);
  };
}
// --8<-- [end:glorot_uniform]

}  // namespace minitf
