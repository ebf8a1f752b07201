// Exercise 03_apply_gradient_descent: this is the file you edit.
//
// Read README.md in this folder, replace the body of ApplyGradientDescent
// with the checks and the update, then check your work from the repository
// root:
//   python3 tools/learn.py check 3.3
#include "apply_gradient_descent.h"

namespace minitf::exercises {

Status ApplyGradientDescent(Tensor* var, const Tensor& alpha,
                            const Tensor& delta) {
  // ==== EXERCISE 03_apply_gradient_descent: replace this return ====
  // Check delta's shape, alpha's rank and var's dtype; then, for float and
  // double, subtract alpha * delta from var's values where they are.
  return errors::Unimplemented(
      "exercise 03_apply_gradient_descent: write ApplyGradientDescent (called "
      "on var ",
      var->shape(), ", alpha ", alpha.shape(), ", delta ", delta.shape(), ")");
}

}  // namespace minitf::exercises
