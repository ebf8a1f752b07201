// Exercise 03_stale_accumulator: this is the file you edit.
//
// Read README.md in this folder, replace the two bodies, then check your
// work from the repository root:
//   python3 tools/learn.py check 7.3
#include "stale_accumulator.h"

#include "minitf/tensor/errors.h"

namespace minitf::exercises {

bool StaleAccumulator::ApplyGrad(int64_t local_step,
                                 const std::vector<float>& grad) {
  // ==== EXERCISE 03_stale_accumulator: replace this throw with your code ====
  // Drop a stale gradient; check the size; add it to the sum and count it.
  (void)local_step;
  (void)grad;
  throw errors::UnimplementedError(
      "exercise 03_stale_accumulator: write ApplyGrad");
}

std::optional<std::vector<float>> StaleAccumulator::TryTakeGrad(
    int num_required) {
  // ==== EXERCISE 03_stale_accumulator: replace this throw with your code ====
  // Check num_required; wait (return nullopt) until enough are in; then the
  // mean, a cleared count and the next global step.
  (void)num_required;
  throw errors::UnimplementedError(
      "exercise 03_stale_accumulator: write TryTakeGrad");
}

}  // namespace minitf::exercises
