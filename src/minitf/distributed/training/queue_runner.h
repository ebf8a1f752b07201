// QueueRunner: threads that keep running a queue's enqueue ops.
//
// A queue fills only when something runs its enqueue ops. tf.train.QueueRunner
// holds a queue and the ops that fill it; create_threads starts one thread
// per op, each running its op in a loop until the Coordinator says stop, and
// one more thread that, once the stop comes, closes the queue (cancelling
// the enqueues that wait for room), so that nobody waits on it for ever.
// An enqueue op that fails with OutOfRange (its own input queue was closed
// and is empty) ends its thread quietly; when the last thread has so ended,
// the runner closes its queue too, passing the end of the input down the
// pipeline. Any other error stops the coordinator with it.
//
// SyncReplicasOptimizer's chief runs its update-and-refill op this way
// (sync_replicas_optimizer.h): the op waits on the gradient accumulators,
// applies, and enqueues the next step's tokens, again and again.
//
//   tf::train::QueueRunner qr(queue, {queue.enqueue(example)});
//   tf::train::Coordinator coord;
//   qr.create_threads(&sess, &coord);
//   ... sess.run(queue.dequeue()) ...
//   coord.request_stop();
//   coord.join();
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "minitf/distributed/training/coordinator.h"
#include "minitf/distributed/training/fifo_queue.h"
#include "minitf/graph/session.h"

namespace minitf::train {

/// tf.train.QueueRunner.
///
/// Invariants: close_op() closes queue(); cancel_op() closes it and
/// cancels waiting enqueues.
///
/// Thread safety: create_threads may be called from any thread; the
/// threads it starts share the session, which allows concurrent runs.
class QueueRunner {
 public:
  /// QueueRunner(queue, enqueue_ops): builds the queue's close ops now, as
  /// TensorFlow does, so call it before the graph is finalized.
  QueueRunner(FIFOQueue queue, std::vector<Operation> enqueue_ops);

  FIFOQueue queue() const { return queue_; }
  const std::vector<Operation>& enqueue_ops() const { return enqueue_ops_; }
  Operation close_op() const { return close_op_; }
  Operation cancel_op() const { return cancel_op_; }

  /// Starts the threads on `coord`: one per enqueue op, and one that runs
  /// cancel_op() once a stop is requested. Returns their number.
  /// REQUIRES: `sess` outlives the threads (join the coordinator first).
  int create_threads(Session* sess, Coordinator* coord);

 private:
  void Run(Session* sess, Operation enqueue_op, Coordinator* coord);

  FIFOQueue queue_;
  std::vector<Operation> enqueue_ops_;
  Operation close_op_;
  Operation cancel_op_;
  std::mutex mu_;
  int running_ = 0;  // enqueue threads not yet ended; guarded by mu_
};

}  // namespace minitf::train
