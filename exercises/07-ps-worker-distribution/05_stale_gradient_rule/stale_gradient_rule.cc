// Exercise 05_stale_gradient_rule: this is the file you edit.
//
// Read README.md in this folder, replace the body of GradientIsStale with the
// accumulator's rule, then check your work from the repository root:
//   python3 tools/learn.py check 7.5
//   python3 tools/learn.py run 7.5     (seed 003 trains on your rule)
#include "stale_gradient_rule.h"

#include "minitf/tensor/errors.h"

namespace minitf::exercises {

bool GradientIsStale(int64_t local_step, int64_t global_step) {
  // ==== EXERCISE 05_stale_gradient_rule: replace this throw with your code
  // ====
  (void)local_step;
  (void)global_step;
  throw errors::UnimplementedError(
      "exercise 05_stale_gradient_rule: write GradientIsStale");
}

}  // namespace minitf::exercises
