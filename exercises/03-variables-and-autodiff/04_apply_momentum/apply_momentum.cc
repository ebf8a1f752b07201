// Exercise 04_apply_momentum: this is the file you edit.
//
// Read README.md in this folder, replace the body of ApplyMomentum with the
// checks and the update, then check your work from the repository root:
//   python3 tools/learn.py check 3.4
#include "apply_momentum.h"

namespace minitf::exercises {

Status ApplyMomentum(Tensor* var, Tensor* accum, const Tensor& lr,
                     const Tensor& grad, const Tensor& momentum,
                     bool use_nesterov) {
  // ==== EXERCISE 04_apply_momentum: replace this return with your code ====
  // Check accum's and grad's shapes, lr's and momentum's ranks and var's
  // dtype; then, for float and double, update accum, then var, in place.
  return errors::Unimplemented(
      "exercise 04_apply_momentum: write ApplyMomentum (called on var ",
      var->shape(), ", accum ", accum->shape(), ", grad ", grad.shape(),
      ", use_nesterov=", use_nesterov ? "true" : "false", ", lr ", lr.shape(),
      ", momentum ", momentum.shape(), ")");
}

}  // namespace minitf::exercises
