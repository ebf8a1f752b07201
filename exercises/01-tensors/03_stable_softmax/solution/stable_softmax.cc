// Reference solution of exercise 03_stable_softmax.
#include "stable_softmax.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace minitf::exercises {

StatusOr<Tensor> StableSoftmax(const Tensor& logits) {
  if (logits.dtype() != DT_FLOAT) {
    return errors::InvalidArgument("StableSoftmax needs a float tensor, got ",
                                   logits.dtype());
  }
  if (logits.dims() != 2) {
    return errors::InvalidArgument("logits must be 2-dimensional, got shape ",
                                   logits.shape());
  }
  const int64_t batch = logits.dim_size(0);
  const int64_t classes = logits.dim_size(1);
  TF_ASSIGN_OR_RETURN(Tensor probs, Tensor::Allocate(DT_FLOAT, logits.shape()));
  const float* in = logits.data<float>();
  float* out = probs.data<float>();
  for (int64_t b = 0; b < batch; ++b) {
    const float* x =
        in + b * classes;  // row b starts `classes` floats further on
    float* p = out + b * classes;
    // --8<-- [start:stable_softmax_row]
    // exp(x - max) <= 1 cannot overflow, and the largest term is exactly 1,
    // so the sum is at least 1 and the division cannot be 0 / 0.
    float max = -std::numeric_limits<float>::infinity();
    for (int64_t j = 0; j < classes; ++j) max = std::max(max, x[j]);
    float sum = 0.f;
    for (int64_t j = 0; j < classes; ++j) {
      p[j] = std::exp(x[j] - max);
      sum += p[j];
    }
    for (int64_t j = 0; j < classes; ++j) p[j] /= sum;
    // --8<-- [end:stable_softmax_row]
  }
  return probs;
}

}  // namespace minitf::exercises
