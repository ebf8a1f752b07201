#include "minitf/distributed/runtime/worker_interface.h"

#include <algorithm>
#include <condition_variable>
#include <memory>

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

Status CallAndWait(const std::function<void(StatusCallback)>& call) {
  return FanOut(1, [&](size_t, StatusCallback done) { call(std::move(done)); })
      .front();
}

// --8<-- [start:fan_out]
std::vector<Status> FanOut(
    size_t n, const std::function<void(size_t, StatusCallback)>& send,
    const FanOutOptions& options) {
  struct Answers {
    std::mutex mu;
    std::condition_variable cv;
    std::vector<Status> statuses;
    std::vector<bool> answered;
    size_t pending;
  } answers{{}, {}, std::vector<Status>(n), std::vector<bool>(n), n};
  for (size_t i = 0; i < n; ++i) {
    send(i, [&answers, &options, i](const Status& s) {
      if (options.on_answer) options.on_answer(i, s);
      std::lock_guard<std::mutex> lock(answers.mu);
      answers.statuses[i] = s;
      answers.answered[i] = true;
      if (--answers.pending == 0) answers.cv.notify_all();
    });
  }
  std::unique_lock<std::mutex> lock(answers.mu);
  auto all_answered = [&] { return answers.pending == 0; };
  if (options.still_waiting_interval.count() <= 0) {
    answers.cv.wait(lock, all_answered);
    return answers.statuses;
  }
  while (!answers.cv.wait_for(lock, options.still_waiting_interval,
                              all_answered)) {
    for (size_t i = 0; i < n; ++i) {
      if (!answers.answered[i]) options.still_waiting(i);
    }
  }
  return answers.statuses;
}
// --8<-- [end:fan_out]

}  // namespace minitf
