// Notification: one thread waits until another says "done", once.
//
// Asynchronous calls (a _Recv's RecvAsync, an asynchronous kernel, an
// executor's RunAsync) report through callbacks. A caller that would rather
// wait creates a Notification, has the callback store the result and call
// Notify(), and waits. Unlike a std::promise, the notifier is finished with
// the object once Notify() has released its lock, so the waiter may destroy
// it as soon as the wait returns. TensorFlow has the same class.
//
//   tf::Notification done;
//   tf::Status result;
//   rendezvous->RecvAsync(key, args, [&](const tf::Status& s, ...) {
//     result = s;
//     done.Notify();
//   });
//   done.WaitForNotification();
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace minitf {

/// Invariants: once notified, stays notified. Thread safety: any thread may
/// notify and any number may wait; the object may be destroyed as soon as
/// every wait has returned.
class Notification {
 public:
  /// REQUIRES: not yet notified.
  void Notify() {
    std::lock_guard<std::mutex> lock(mu_);
    notified_ = true;
    cv_.notify_all();
  }
  bool HasBeenNotified() {
    std::lock_guard<std::mutex> lock(mu_);
    return notified_;
  }
  void WaitForNotification() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [this] { return notified_; });
  }
  /// Waits at most `timeout`; true when notified.
  bool WaitForNotificationWithTimeout(std::chrono::milliseconds timeout) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, timeout, [this] { return notified_; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool notified_ = false;  // guarded by mu_
};

}  // namespace minitf
