// Exercise 01_matmul_grad: this is the file you edit.
//
// Read README.md in this folder, replace the body of MatMulGrad with the
// gradients of a matrix product, then check your work from the repository
// root:
//   python3 tools/learn.py check 3.1
#include "matmul_grad.h"

#include "minitf/tensor/errors.h"

namespace minitf::exercises {

std::vector<Output> MatMulGrad(const Operation& op,
                               const std::vector<Output>& grads) {
  // ==== EXERCISE 01_matmul_grad: replace this throw with your code ====
  // Read the two transpose attributes, then build {da, db} with matmul from
  // grads[0], op.input(0) and op.input(1).
  throw errors::UnimplementedError(
      StrCat("exercise 01_matmul_grad: write MatMulGrad (called for ",
             op.name(), " with ", grads.size(), " gradient)"));
}

}  // namespace minitf::exercises
