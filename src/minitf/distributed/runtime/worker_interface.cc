#include "minitf/distributed/runtime/worker_interface.h"

#include <condition_variable>
#include <memory>
#include <mutex>

namespace minitf {

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
