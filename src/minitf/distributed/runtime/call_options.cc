#include "minitf/distributed/runtime/call_options.h"

#include <algorithm>

namespace minitf {

int64_t CallOptions::MillisecondsLeft() const {
  if (!deadline_) return 0;
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      *deadline_ - Clock::now());
  return std::max<int64_t>(1, left.count());
}

void CallOptions::StartCancel() {
  std::function<void()> cancel;
  {
    std::lock_guard<std::mutex> lock(mu_);
    cancelled_ = true;
    cancel = cancel_;
    if (cancel) cancelling_.push_back(std::this_thread::get_id());
  }
  if (!cancel) return;
  // Run without the lock: a cancellation may answer the call at once, on
  // this thread, and the answer clears the callback.
  cancel();
  std::lock_guard<std::mutex> lock(mu_);
  cancelling_.erase(std::find(cancelling_.begin(), cancelling_.end(),
                              std::this_thread::get_id()));
  cancel_done_.notify_all();
}

void CallOptions::SetCancelCallback(std::function<void()> cancel) {
  bool cancelled;
  {
    std::lock_guard<std::mutex> lock(mu_);
    cancelled = cancelled_;
    if (!cancelled) cancel_ = cancel;
  }
  if (cancelled) cancel();
}

void CallOptions::ClearCancelCallback() {
  std::unique_lock<std::mutex> lock(mu_);
  cancel_ = nullptr;
  // A cancellation on this thread is the one that answered the call.
  const std::thread::id self = std::this_thread::get_id();
  cancel_done_.wait(lock, [&] {
    return std::all_of(cancelling_.begin(), cancelling_.end(),
                       [&](std::thread::id t) { return t == self; });
  });
}

}  // namespace minitf
