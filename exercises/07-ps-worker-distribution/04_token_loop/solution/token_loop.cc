// Exercise 04_token_loop: one solution.
#include "token_loop.h"

#include <exception>
#include <vector>

#include "minitf/graph/node_builder.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/scope.h"
#include "minitf/tensor/errors.h"

namespace minitf::exercises {

Operation BuildTokenRefill(FIFOQueue& token_queue, Operation update,
                           int tokens_per_step) {
  graph_scope use(*update.graph());
  control_dependencies after(std::vector<Operation>{update});
  // The update's output is the new step (a read of global_step made
  // earlier in the step would hold the old one: variables are
  // copy-on-write). tf.fill([n], step) with a computed value:
  Output step = update.output(0);
  ops::OpScope scope("", "Fill", {step});
  Output dims =
      constant(Tensor({static_cast<int32_t>(tokens_per_step)}), "dims");
  Output tokens = ops::AddOp(
      NodeBuilder("Fill", scope.op_name()).ExactName().Input(dims).Input(step),
      {dims, step});
  return token_queue.enqueue_many(tokens);
}

int RunTokenLoop(Session* sess, Operation sync_op, train::Coordinator* coord) {
  int runs = 0;
  try {
    while (!coord->should_stop()) {
      sess->run(sync_op);
      ++runs;
    }
  } catch (const errors::OutOfRangeError&) {
    // An input was closed: the loop is over, and that is no error.
  } catch (...) {
    if (!coord->should_stop()) coord->request_stop(std::current_exception());
  }
  return runs;
}

}  // namespace minitf::exercises
