// WaitList: kernels that wait for other steps, without holding a thread.
//
// A gradient accumulator's take_grad waits until enough workers have
// applied their gradients, and a queue's dequeue until someone enqueues.
// Those workers run other steps, often in other processes: the wait may be
// long. A kernel that blocked in Compute would hold an executor thread for
// all that time, and with the few threads of a parameter server the steps
// that would end the wait (the workers' apply_grad, the chief's enqueue)
// could find no thread left to run on: a deadlock. So these kernels are
// asynchronous (chapter 4's AsyncOpKernel, as _Recv is): when they cannot
// finish at once, they leave an *attempt* in their resource's WaitList and
// return. Whoever changes the resource (an apply_grad, an enqueue, a close)
// runs the waiting attempts in order, and each one that can finish now
// calls its kernel's `done`.
//
// A waiting kernel must also end when its step is given up: the step's
// first error elsewhere, its operation_timeout_in_ms, a RunOptions timeout,
// a CleanupGraph from the master. Every one of these aborts the step's
// rendezvous (rendezvous.h), so the rendezvous is this layer's cancellation
// signal, as TensorFlow's CancellationManager is its: CancelWithStep leaves
// a receiver in the step's rendezvous under a key nobody sends, and an
// abort calls it, which takes the attempt out of the list and fails it with
// the kernel's Cancelled error ("TakeGrad operation was cancelled").
//
//   auto id = list.Add(attempt, done);             // under the resource's lock
//   CancelWithStep(ctx, [res, id](const Status&) { res->Cancel(id); });
//   ...
//   std::vector<std::function<void()>> finished;
//   list.Run(&finished);                            // after a change, locked
//   for (auto& f : finished) f();                   // unlocked
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "minitf/device/devices/device_context.h"
#include "minitf/graph/kernel.h"

namespace minitf {

/// Callbacks to call once the resource's lock is released: a kernel's
/// `done` may start the next node of its step, which may come back to the
/// same resource.
using DeferredCalls = std::vector<std::function<void()>>;

/// The attempts waiting on one resource, in arrival order.
///
/// Invariants: an attempt is in the list until it finishes or is cancelled,
/// and it does either once; its `done` (or its finish, which calls `done`)
/// is deferred to the caller, never run under the resource's lock.
///
/// Thread safety: none of its own; the owning resource's mutex guards every
/// call.
class WaitList {
 public:
  /// Tries to finish the attempt with the resource as it stands: true when
  /// it did (the calls it appended include its `done`), false to wait on.
  using Attempt = std::function<bool(DeferredCalls* calls)>;

  /// Appends an attempt; `cancel` is called with the reason if it is taken
  /// out by Cancel. Returns its id.
  uint64_t Add(Attempt attempt, StatusCallback cancel);
  /// Runs the attempts in order. With `in_order`, the first one that cannot
  /// finish stops the run (a queue serves its dequeuers first come, first
  /// served); otherwise every one is tried.
  void Run(DeferredCalls* calls, bool in_order = true);
  /// Takes attempt `id` out and defers its `cancel(status)`; false when it
  /// has already finished.
  bool Cancel(uint64_t id, const Status& status, DeferredCalls* calls);
  /// Takes every attempt out, deferring `cancel(status)` for each.
  void CancelAll(const Status& status, DeferredCalls* calls);
  bool empty() const { return attempts_.empty(); }

 private:
  struct Entry {
    uint64_t id;
    Attempt attempt;
    StatusCallback cancel;
  };
  uint64_t next_id_ = 0;
  std::list<Entry> attempts_;
};

/// Holds a waiting kernel's `done` until the kernel has registered its
/// cancellation (CancelWithStep). Once a wait is in its WaitList, another
/// thread may satisfy it at once, and `done` ends the kernel's
/// OpKernelContext, which the registration still reads. Returns the `done`
/// to hand to the wait, and the call that says the registration is over;
/// the real `done` runs after both.
template <typename... Args>
std::pair<std::function<void(Args...)>, std::function<void()>>
HoldDoneUntilRegistered(std::function<void(Args...)> done) {
  struct Held {
    std::function<void(Args...)> done;
    std::atomic<int> left{2};
    std::tuple<std::decay_t<Args>...> args;
  };
  auto held = std::make_shared<Held>();
  held->done = std::move(done);
  std::function<void()> one_more = [held] {
    if (held->left.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::apply(held->done, held->args);
    }
  };
  std::function<void(Args...)> gated = [held, one_more](Args... args) {
    held->args = std::tuple<std::decay_t<Args>...>(args...);
    one_more();
  };
  return {std::move(gated), std::move(one_more)};
}

/// Calls `on_cancel` once the step that `ctx` runs in is aborted, with the
/// abort's status, or once the step is over (then with Cancelled, which a
/// finished attempt ignores). `tag` tells the kernel's waits apart within
/// one step (its node name). Does nothing when the kernel runs without a
/// step rendezvous (chapter 2's executor): its wait then ends only when the
/// resource changes.
void CancelWithStep(OpKernelContext* ctx, const std::string& tag,
                    StatusCallback on_cancel);

/// Runs the deferred calls, in order.
void RunDeferred(DeferredCalls* calls);

}  // namespace minitf
