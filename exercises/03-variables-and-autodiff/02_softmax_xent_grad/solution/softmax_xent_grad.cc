// Reference solution of exercise 02_softmax_xent_grad.
#include "softmax_xent_grad.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace minitf::exercises {

StatusOr<Tensor> SoftmaxXentGrad(const Tensor& logits, const Tensor& labels,
                                 const Tensor& grad_loss) {
  for (const Tensor* t : {&logits, &labels, &grad_loss}) {
    if (t->dtype() != DT_FLOAT) {
      return errors::InvalidArgument(
          "SoftmaxXentGrad needs float tensors, got ", t->dtype());
    }
  }
  if (logits.dims() != 2 || labels.shape() != logits.shape()) {
    return errors::InvalidArgument(
        "logits and labels must be same size and 2-D: logits_size=",
        logits.shape(), " labels_size=", labels.shape());
  }
  const int64_t batch = logits.dim_size(0);
  const int64_t classes = logits.dim_size(1);
  if (grad_loss.shape() != TensorShape({batch})) {
    return errors::InvalidArgument(
        "grad_loss must have one value per example: grad_loss_size=",
        grad_loss.shape(), " logits_size=", logits.shape());
  }
  TF_ASSIGN_OR_RETURN(Tensor result,
                      Tensor::Allocate(DT_FLOAT, logits.shape()));
  for (int64_t b = 0; b < batch; ++b) {
    const float* z = logits.data<float>() + b * classes;
    const float* y = labels.data<float>() + b * classes;
    float* g = result.data<float>() + b * classes;
    // --8<-- [start:xent_grad_row]
    // Shifting by the row's maximum leaves the softmax unchanged and keeps
    // every exponent at most 0, so nothing overflows and the sum is >= 1.
    float max = -std::numeric_limits<float>::infinity();
    for (int64_t c = 0; c < classes; ++c) max = std::max(max, z[c]);
    float sum_exp = 0.f, label_sum = 0.f;
    for (int64_t c = 0; c < classes; ++c) {
      g[c] = std::exp(z[c] - max);
      sum_exp += g[c];
      label_sum += y[c];
    }
    // d loss / d z_c = p_c * sum(labels) - labels_c; the chain rule scales
    // the whole row by the gradient that arrived for this example's loss.
    for (int64_t c = 0; c < classes; ++c) {
      g[c] = grad_loss.data<float>()[b] * (g[c] / sum_exp * label_sum - y[c]);
    }
    // --8<-- [end:xent_grad_row]
  }
  return result;
}

}  // namespace minitf::exercises
