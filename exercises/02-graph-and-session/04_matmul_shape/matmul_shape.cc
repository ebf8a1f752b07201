// Exercise 04_matmul_shape: this is the file you edit.
//
// Read README.md in this folder, replace the body of MatMulShape with the
// shape rules of tf.matmul, then check your work from the repository root:
//   python3 tools/learn.py check 2.4
// and run seed 001 on it:
//   python3 tools/learn.py run 2.4
#include "matmul_shape.h"

namespace minitf::exercises {

Status MatMulShape(InferenceContext* c) {
  // ==== EXERCISE 04_matmul_shape: replace this return with your code ====
  // Check both ranks, read the two transpose flags, check the inner
  // dimensions agree, then c->set_output(0, ...) with the outer ones.
  return errors::Unimplemented(
      "exercise 04_matmul_shape: write MatMulShape (called with ",
      c->num_inputs(), " inputs)");
}

}  // namespace minitf::exercises
