// Exercise 03_ring_step: the reference solution.
#include "ring_step.h"

#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"

namespace minitf::exercises {

void ScatterReduceStep(RingChunks* chunks,
                       const std::vector<std::string>& devices, int step) {
  const int n = static_cast<int>(chunks->size());
  for (int d = 0; d < n; ++d) {
    const int next = (d + 1) % n;
    const int c = ((d - step) % n + n) % n;  // C++'s % keeps the sign
    device_scope on_next(devices[next]);
    (*chunks)[next][c] = add((*chunks)[d][c], (*chunks)[next][c]);
  }
}

}  // namespace minitf::exercises
