// FIFOQueue: a queue of tensors that steps, sessions and tasks share.
//
// TensorFlow 1.x moves values between steps that do not run together
// through queues held by a device: an input pipeline's threads enqueue
// examples that the training step dequeues, and SyncReplicasOptimizer's
// chief enqueues one token per worker and step into a queue on the
// parameter server, where every worker's step dequeues one before it may go
// on. A queue is a resource in its device's ResourceMgr, like a variable's
// value; a queue with a shared_name is the same queue for every session that
// names it, so on a ps task it outlives the workers' sessions.
//
//   enqueue(x)       appends x; waits while the queue is full;
//   enqueue_many(x)  appends x[0], x[1], ... (x's first dimension);
//   dequeue()        removes the oldest element; waits while the queue is
//                    empty; once the queue is closed and empty, fails with
//                    OutOfRange, which ends a queue runner's loop cleanly;
//   close()          no more enqueues; waiting dequeues fail as above;
//   size()           the number of elements.
//
// The waits are asynchronous (wait_list.h): a dequeue waits without an
// executor thread, and ends with Cancelled when its step is given up.
//
// The ops are TensorFlow's FIFOQueueV2, QueueEnqueueV2, QueueEnqueueManyV2,
// QueueDequeueV2, QueueCloseV2 and QueueSizeV2, with their attrs, and two
// differences: the handle is a Ref(int32) (minitf has no resource dtype;
// conditional_accumulator.h says why a reference), and a queue holds one
// tensor per element where TensorFlow allows a tuple: component_types has
// one entry, and the enqueue and dequeue ops' Tcomponents and
// component_types attrs are that one type rather than a list of one.
//
//   tf::FIFOQueue q(-1, {tf::int64}, {{}}, "sync_token_q", "sync_token_q");
//   sess.run(q.enqueue_many(tf::constant(tf::Tensor({int64_t{1}, 2, 3}))));
//   sess.run(q.dequeue());                    // 1
//   sess.run(q.close());
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "minitf/distributed/training/wait_list.h"
#include "minitf/graph/graph.h"
#include "minitf/graph/resource_mgr.h"
#include "minitf/tensor/tensor.h"

namespace minitf {

/// tf.FIFOQueue: builds the queue's node and its ops.
///
/// Invariants: queue_ref() is a FIFOQueueV2 node with one component type;
/// the ops built take that handle, so the placer puts them on its device.
///
/// Thread safety: build on one thread; its ops may run from anywhere.
class FIFOQueue {
 public:
  /// tf.FIFOQueue(capacity, dtypes, shapes, shared_name, name). A negative
  /// capacity is unbounded. `dtypes` must have one entry (Unimplemented
  /// otherwise), `shapes` none (any shape) or one.
  FIFOQueue(int64_t capacity, const std::vector<DType>& dtypes,
            const std::vector<TensorShape>& shapes = {},
            const std::string& shared_name = "",
            const std::string& name = "fifo_queue");

  DType dtype() const { return dtype_; }
  Output queue_ref() const { return handle_; }
  /// The node's name ("sync_token_q"), which the ops' names start with.
  const std::string& name() const { return name_; }

  /// q.enqueue(x): QueueEnqueueV2 "<name>_enqueue".
  Operation enqueue(Output x, const std::string& name = "");
  /// q.enqueue_many(x): QueueEnqueueManyV2 "<name>_EnqueueMany".
  Operation enqueue_many(Output x, const std::string& name = "");
  /// q.dequeue(): QueueDequeueV2 "<name>_Dequeue".
  Output dequeue(const std::string& name = "");
  /// q.close(cancel_pending_enqueues): QueueCloseV2 "<name>_Close".
  Operation close(bool cancel_pending_enqueues = false,
                  const std::string& name = "");
  /// q.size(): QueueSizeV2 "<name>_Size", an int32 scalar.
  Output size(const std::string& name = "");

 private:
  Output Converted(Output x) const;

  DType dtype_;
  std::string name_;
  Output handle_;
};

/// The queue itself, a resource on its device.
///
/// Invariants: every element has dtype() and a shape compatible with
/// shape(); size() <= capacity(); once closed, it stays closed; waiting
/// dequeues are served in arrival order, as are waiting enqueues.
///
/// Thread safety: every method may be called from any thread; one mutex
/// guards the state.
class FifoQueueResource
    : public ResourceBase,
      public std::enable_shared_from_this<FifoQueueResource> {
 public:
  FifoQueueResource(std::string name, DType dtype, TensorShape shape,
                    int32_t capacity)
      : name_(std::move(name)),
        dtype_(dtype),
        shape_(std::move(shape)),
        capacity_(capacity) {}

  std::string DebugString() const override;

  /// Appends `elements` (one, or the rows of a batch when `many`), waiting
  /// for room; `done` may run before this returns. Cancelled "FIFOQueue
  /// 'q' is closed." once closed; InvalidArgument "Shape mismatch in tuple
  /// component 0. Expected [], got [2]" for a wrong shape.
  void Enqueue(OpKernelContext* ctx, const Tensor& value, bool many,
               StatusCallback done);
  /// Calls `done` with the oldest element, waiting for one; OutOfRange
  /// "FIFOQueue 'q' is closed and has insufficient elements (requested 1,
  /// current size 0)" once closed and empty.
  void Dequeue(OpKernelContext* ctx,
               std::function<void(const Status&, const Tensor&)> done);
  /// Closes the queue; waiting dequeues fail, and waiting enqueues too when
  /// `cancel_pending_enqueues`.
  void Close(bool cancel_pending_enqueues);
  int32_t Size();

  /// A queue opened again by another node with the same shared_name must
  /// agree: InvalidArgument in TensorFlow's words ("Shared queue 'q' has
  /// capacity 2147483647 but requested capacity was 5").
  Status MatchesSpec(DType dtype, const TensorShape& shape,
                     int32_t capacity) const;

 private:
  // Serves the waiting dequeues and enqueues while either can go on.
  void FlushLocked(DeferredCalls* calls);
  // Registers the cancellation of attempt `id` of `list` with the step.
  void CancelOnAbort(OpKernelContext* ctx, WaitList* list, uint64_t id,
                     const std::string& what);
  Status ClosedError(int64_t requested) const;

  const std::string name_;
  const DType dtype_;
  const TensorShape shape_;
  const int32_t capacity_;
  std::mutex mu_;
  std::deque<Tensor> elements_;  // guarded by mu_
  bool closed_ = false;          // guarded by mu_
  WaitList dequeuers_;           // guarded by mu_
  WaitList enqueuers_;           // guarded by mu_
};

}  // namespace minitf
