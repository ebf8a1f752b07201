// Exercise 04_token_loop: this is the file you edit.
//
// Read README.md in this folder, replace the two bodies, then check your
// work from the repository root:
//   python3 tools/learn.py check 7.4
#include "token_loop.h"

#include "minitf/tensor/errors.h"

namespace minitf::exercises {

Operation BuildTokenRefill(FIFOQueue& token_queue, Operation update,
                           int tokens_per_step) {
  // ==== EXERCISE 04_token_loop: replace this throw with your code ====
  // After `update`: fill [tokens_per_step] with the new step, enqueue_many.
  (void)token_queue;
  (void)update;
  (void)tokens_per_step;
  throw errors::UnimplementedError(
      "exercise 04_token_loop: write BuildTokenRefill");
}

int RunTokenLoop(Session* sess, Operation sync_op, train::Coordinator* coord) {
  // ==== EXERCISE 04_token_loop: replace this throw with your code ====
  // Loop until coord->should_stop(); handle OutOfRange and other errors.
  (void)sess;
  (void)sync_op;
  (void)coord;
  throw errors::UnimplementedError(
      "exercise 04_token_loop: write RunTokenLoop");
}

}  // namespace minitf::exercises
