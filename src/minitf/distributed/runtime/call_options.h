// CallOptions: what a call to another part of the cluster is given besides
// its request.
//
// A master's call to a worker (worker_interface.h), a worker's RecvTensor
// of another, and a client's call to a master (master_interface.h) may each
// go to an object of the caller's own process or over gRPC to another. The
// options are the same either way: a deadline, whether to wait for a task
// that is not up yet, and a way to cancel the call while it runs. The gRPC
// implementations turn them into a ClientContext's settings and its
// TryCancel; an in-process one reads the deadline as its own timeout and
// sets what a cancellation does (a worker ends the step's wait).
//
//   CallOptions opts;
//   opts.set_deadline(std::chrono::system_clock::now() + 5s);
//   worker->RunGraphAsync(&opts, &request, &response, done);
//   ...
//   opts.StartCancel();   // from another thread: the call answers soon
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>  // IWYU pragma: keep (std::thread::id)
#include <vector>

#include "minitf/tensor/status.h"

namespace minitf {

/// What a call answers with.
using StatusCallback = std::function<void(const Status&)>;

/// What a call is given besides its request. One CallOptions serves one
/// call at a time.
/// Thread safety: StartCancel may be called from any thread while the call
/// runs; the setters only before the call starts.
class CallOptions {
 public:
  using Clock = std::chrono::system_clock;

  /// When the call gives up with DeadlineExceeded; none by default.
  void set_deadline(Clock::time_point deadline) { deadline_ = deadline; }
  const std::optional<Clock::time_point>& deadline() const { return deadline_; }
  /// Milliseconds left before the deadline, at least 1; 0 without one.
  int64_t MillisecondsLeft() const;

  /// Whether a call to a task that is not reachable yet waits for it (until
  /// the deadline) rather than fail at once. Off by default.
  void set_wait_for_ready(bool wait) { wait_for_ready_ = wait; }
  bool wait_for_ready() const { return wait_for_ready_; }

  /// Cancels the call: runs the callback its worker set, now or as soon as
  /// it sets one. The call then answers soon, with an error.
  void StartCancel();
  /// For implementations: what StartCancel runs while the call is in
  /// flight. Runs `cancel` at once when StartCancel came first.
  void SetCancelCallback(std::function<void()> cancel);
  /// For implementations: the call has answered; StartCancel does nothing
  /// from now on. Waits for a cancellation that runs on another thread
  /// now, so that what the callback holds may go once this returns.
  void ClearCancelCallback();

 private:
  std::optional<Clock::time_point> deadline_;
  bool wait_for_ready_ = false;
  std::mutex mu_;
  std::condition_variable cancel_done_;
  bool cancelled_ = false;        // guarded by mu_
  std::function<void()> cancel_;  // guarded by mu_
  // The threads that run cancel_ now (Close and a caller's cancellation
  // may at once); guarded by mu_.
  std::vector<std::thread::id> cancelling_;
};

}  // namespace minitf
