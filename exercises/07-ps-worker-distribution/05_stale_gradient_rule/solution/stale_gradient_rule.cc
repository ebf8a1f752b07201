// Exercise 05_stale_gradient_rule: one answer.
#include "stale_gradient_rule.h"

namespace minitf::exercises {

bool GradientIsStale(int64_t local_step, int64_t global_step) {
  // Computed before the last update: the variables it was computed from are
  // gone. A gradient of the current step, or of a later one, counts.
  return local_step < global_step;
}

}  // namespace minitf::exercises
