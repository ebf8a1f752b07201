// Exercise 01_round_robin_ps: this is the file you edit.
//
// Read README.md in this folder, replace the body of RoundRobinReplicaSetter
// with the round robin over ps tasks, then check your work from the
// repository root:
//   python3 tools/learn.py check 7.1
#include "round_robin_ps.h"

#include "minitf/tensor/errors.h"

namespace minitf::exercises {

DeviceFunction RoundRobinReplicaSetter(int ps_tasks,
                                       const std::string& worker_device) {
  // ==== EXERCISE 01_round_robin_ps: replace this throw with your code ====
  // Check ps_tasks; parse worker_device once; keep the next task in a
  // std::shared_ptr<int> that the returned lambda captures, so that copies
  // of the function share it.
  (void)ps_tasks;
  (void)worker_device;
  throw errors::UnimplementedError(
      "exercise 01_round_robin_ps: write RoundRobinReplicaSetter");
}

}  // namespace minitf::exercises
