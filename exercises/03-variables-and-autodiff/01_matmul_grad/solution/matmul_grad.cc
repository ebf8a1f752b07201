// Reference solution of exercise 01_matmul_grad.
#include "matmul_grad.h"

#include "minitf/graph/attr_value.h"
#include "minitf/graph/ops/math_ops.h"

namespace minitf::exercises {

// C = A B gives dA = dC B^T and dB = A^T dC. With a transposed operand the
// product reads A^T (or B^T) in place of A (or B), so the gradient found for
// it is the transpose of the stored input's: transposing the formula instead
// swaps the operands, which matmul's own flags can express without building
// a Transpose node.
std::vector<Output> MatMulGrad(const Operation& op,
                               const std::vector<Output>& grads) {
  const bool ta = GetAttr<bool>(op.node()->attrs(), "transpose_a").value();
  const bool tb = GetAttr<bool>(op.node()->attrs(), "transpose_b").value();
  const Output a = op.input(0), b = op.input(1), dc = grads[0];
  if (!ta && !tb) {
    return {matmul(dc, b, false, true), matmul(a, dc, true, false)};
  }
  if (!ta && tb) {
    // C = A B^T: dA = dC B, d(B^T) = A^T dC so dB = dC^T A.
    return {matmul(dc, b), matmul(dc, a, true, false)};
  }
  if (ta && !tb) {
    // C = A^T B: d(A^T) = dC B^T so dA = B dC^T; dB = A dC.
    return {matmul(b, dc, false, true), matmul(a, dc)};
  }
  // C = A^T B^T: dA = (dC B)^T = B^T dC^T; dB = (A^T dC)^T = dC^T A^T.
  return {matmul(b, dc, true, true), matmul(dc, a, true, true)};
}

}  // namespace minitf::exercises
