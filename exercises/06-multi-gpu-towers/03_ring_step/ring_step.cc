// Exercise 03_ring_step: this is the file you edit.
//
// Read README.md in this folder, replace the body of ScatterReduceStep with
// one step of the ring's scatter-reduce, then check your work from the
// repository root:
//   python3 tools/learn.py check 6.3
#include "ring_step.h"

#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/tensor/errors.h"

namespace minitf::exercises {

void ScatterReduceStep(RingChunks* chunks,
                       const std::vector<std::string>& devices, int step) {
  // ==== EXERCISE 03_ring_step: replace this throw with your code
  // For each device d: the chunk it sends this step, an Add of it and the
  // next device's own chunk, on the next device, in the next device's slot.
  (void)chunks;
  (void)devices;
  errors::ThrowIfError(errors::Unimplemented(
      "exercise 03_ring_step: write ScatterReduceStep (step ", step, ")"));
}

}  // namespace minitf::exercises
