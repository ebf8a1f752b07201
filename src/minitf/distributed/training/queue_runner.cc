#include "minitf/distributed/training/queue_runner.h"

#include <exception>
#include <utility>

#include "minitf/tensor/errors.h"

namespace minitf::train {

QueueRunner::QueueRunner(FIFOQueue queue, std::vector<Operation> enqueue_ops)
    : queue_(std::move(queue)),
      enqueue_ops_(std::move(enqueue_ops)),
      close_op_(queue_.close()),
      cancel_op_(queue_.close(/*cancel_pending_enqueues=*/true)) {}

int QueueRunner::create_threads(Session* sess, Coordinator* coord) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    running_ += static_cast<int>(enqueue_ops_.size());
  }
  int n = 0;
  for (const Operation& op : enqueue_ops_) {
    coord->register_thread("QueueRunner " + op.name(),
                           [this, sess, op, coord] { Run(sess, op, coord); });
    ++n;
  }
  coord->register_thread("QueueRunner close " + queue_.name(),
                         [this, sess, coord] {
                           coord->wait_for_stop();
                           // The queue may be gone with its task: nothing
                           // is left to cancel then.
                           try {
                             sess->run(cancel_op_);
                           } catch (const errors::OpError&) {
                           }
                         });
  return n + 1;
}

// --8<-- [start:run]
void QueueRunner::Run(Session* sess, Operation enqueue_op, Coordinator* coord) {
  try {
    while (!coord->should_stop()) {
      sess->run(enqueue_op);
    }
  } catch (const errors::OutOfRangeError&) {
    // The input ran out: the last thread to see it closes the queue.
    bool last = false;
    {
      std::lock_guard<std::mutex> lock(mu_);
      last = --running_ == 0;
    }
    if (last) {
      try {
        sess->run(close_op_);
      } catch (const errors::OpError&) {
      }
    }
    return;
  } catch (...) {
    // An error after the stop was asked is the stop's own doing (a step
    // cancelled as the session closes); only an earlier one is news.
    if (!coord->should_stop()) coord->request_stop(std::current_exception());
  }
  std::lock_guard<std::mutex> lock(mu_);
  --running_;
}
// --8<-- [end:run]

}  // namespace minitf::train
