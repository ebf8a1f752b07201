// Exercise 04_token_loop: the chief's side of synchronous training.
//
// A worker's synchronous step ends with a dequeue from the token queue on
// the ps: it waits there until the chief has made the update its gradients
// went into. The chief makes each update in a loop: take the gradients'
// means, apply them (which adds one to global_step), and put one token per
// worker, each holding the new global step, into the queue. The tokens
// release the workers, and become their local steps for the next step.
#pragma once

#include "minitf/distributed/training/coordinator.h"
#include "minitf/distributed/training/fifo_queue.h"
#include "minitf/graph/graph.h"
#include "minitf/graph/session.h"

namespace minitf::exercises {

/// The chief's sync op: once `update` has run, an enqueue_many into
/// `token_queue` of `tokens_per_step` tokens, each the new global step.
/// REQUIRES: `update` is the wrapped optimizer's op with global_step, an
/// AssignAdd of global_step whose output 0 is the step after the update;
/// the queue holds int64 scalars like global_step.
Operation BuildTokenRefill(FIFOQueue& token_queue, Operation update,
                           int tokens_per_step);

/// Runs `sync_op` in `sess` again and again until `coord` asks to stop, and
/// returns how many runs finished. A run that fails with OutOfRange ends the
/// loop quietly (an input was closed). Any other error requests a stop of
/// `coord` with it and ends the loop, unless a stop was requested already:
/// then the error is the stop's own doing and is ignored.
int RunTokenLoop(Session* sess, Operation sync_op, train::Coordinator* coord);

}  // namespace minitf::exercises
