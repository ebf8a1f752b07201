#include "minitf/distributed/training/coordinator.h"

#include <stdexcept>
#include <utility>

#include "minitf/tensor/errors.h"

namespace minitf::train {

namespace {

bool IsCleanStop(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const errors::OutOfRangeError&) {
    return true;
  } catch (...) {
    return false;
  }
}

}  // namespace

Coordinator::~Coordinator() {
  request_stop();
  for (Watched& watched : threads_) {
    if (watched.thread.joinable()) watched.thread.join();
  }
}

void Coordinator::request_stop(std::exception_ptr error) {
  std::lock_guard<std::mutex> lock(mu_);
  if (error && !error_ && !IsCleanStop(error)) error_ = std::move(error);
  stop_ = true;
  changed_.notify_all();
}

void Coordinator::clear_stop() {
  std::lock_guard<std::mutex> lock(mu_);
  stop_ = false;
  joined_ = false;
  error_ = nullptr;
}

bool Coordinator::should_stop() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stop_;
}

bool Coordinator::wait_for_stop(std::chrono::milliseconds timeout) const {
  std::unique_lock<std::mutex> lock(mu_);
  return changed_.wait_for(lock, timeout, [this] { return stop_; });
}

void Coordinator::wait_for_stop() const {
  std::unique_lock<std::mutex> lock(mu_);
  changed_.wait(lock, [this] { return stop_; });
}

void Coordinator::register_thread(std::string name,
                                  std::function<void()> body) {
  std::lock_guard<std::mutex> lock(mu_);
  Watched& watched = threads_.emplace_back();
  watched.name = std::move(name);
  // The entry is complete before the thread can touch it: the thread takes
  // mu_ to mark itself done, and mu_ is held here until it is started.
  watched.thread = std::thread([this, &watched, body = std::move(body)] {
    try {
      body();
    } catch (...) {
      request_stop(std::current_exception());
    }
    std::lock_guard<std::mutex> done_lock(mu_);
    watched.done = true;
    changed_.notify_all();
  });
}

bool Coordinator::AnyRunningLocked() const {
  for (const Watched& watched : threads_) {
    if (!watched.done) return true;
  }
  return false;
}

void Coordinator::join(std::chrono::milliseconds stop_grace_period,
                       bool ignore_live_threads) {
  std::unique_lock<std::mutex> lock(mu_);
  // Every thread returns, or a stop is requested ...
  changed_.wait(lock, [this] { return stop_ || !AnyRunningLocked(); });
  // ... and then the threads have the grace period to return.
  changed_.wait_for(lock, stop_grace_period,
                    [this] { return !AnyRunningLocked(); });
  std::string stragglers;
  for (auto it = threads_.begin(); it != threads_.end();) {
    if (it->done) {
      it->thread.join();
      it = threads_.erase(it);
    } else {
      stragglers += (stragglers.empty() ? "" : " ") + it->name;
      ++it;
    }
  }
  joined_ = true;
  if (error_) std::rethrow_exception(error_);
  if (!stragglers.empty() && !ignore_live_threads) {
    throw std::runtime_error(
        "Coordinator stopped with threads still running: " + stragglers);
  }
}

bool Coordinator::joined() const {
  std::lock_guard<std::mutex> lock(mu_);
  return joined_;
}

void Coordinator::raise_requested_exception() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (error_) std::rethrow_exception(error_);
}

}  // namespace minitf::train
