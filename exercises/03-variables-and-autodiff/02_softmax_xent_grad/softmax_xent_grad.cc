// Exercise 02_softmax_xent_grad: this is the file you edit.
//
// Read README.md in this folder, replace the body of SoftmaxXentGrad with the
// gradient of the softmax cross-entropy, then check your work from the
// repository root:
//   python3 tools/learn.py check 3.2
#include "softmax_xent_grad.h"

namespace minitf::exercises {

StatusOr<Tensor> SoftmaxXentGrad(const Tensor& logits, const Tensor& labels,
                                 const Tensor& grad_loss) {
  // ==== EXERCISE 02_softmax_xent_grad: replace this return with your code ===
  // Check dtypes and shapes, then per row: a stable softmax p, the sum of the
  // labels, and grad_loss[b] * (p * sum - labels).
  return errors::Unimplemented(
      "exercise 02_softmax_xent_grad: write SoftmaxXentGrad (called on logits ",
      logits.shape(), ", labels ", labels.shape(), ", grad_loss ",
      grad_loss.shape(), ")");
}

}  // namespace minitf::exercises
