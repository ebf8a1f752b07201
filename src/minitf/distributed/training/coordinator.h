// Coordinator: stops a group of threads together, and passes on their error.
//
// A training loop runs with helper threads beside it: the queue runners
// that fill input queues, the chief's token loop of SyncReplicasOptimizer.
// When any of them fails, or the loop is done, all of them must stop, and
// the first error must reach the loop's thread rather than vanish on
// another. tf.train.Coordinator is that meeting point: any thread may
// request_stop(error); every thread polls should_stop(); the loop's thread
// calls join(), which waits for the threads and rethrows the first error.
// An OutOfRangeError (an input that ran out) stops cleanly, as in TF.
//
//   tf::train::Coordinator coord;
//   coord.register_thread("filler", [&] {
//     while (!coord.should_stop()) sess.run(enqueue_op);
//   });
//   ... train ...
//   coord.request_stop();
//   coord.join();                 // rethrows a filler's error, if any
#pragma once

#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <list>
#include <mutex>
#include <string>
#include <thread>

namespace minitf::train {

/// tf.train.Coordinator.
///
/// Invariants: once stop is requested it stays requested until
/// clear_stop(); the recorded error is the first non-clean one requested.
///
/// Unlike Python's, a C++ thread cannot be asked whether it is alive, so the
/// coordinator starts the threads it is to watch (register_thread) and
/// notes when each returns. The destructor requests a stop and joins every
/// thread it started, stragglers included: it never leaves a thread running
/// on memory that is gone.
///
/// Thread safety: every method may be called from any thread.
class Coordinator {
 public:
  Coordinator() = default;
  ~Coordinator();
  Coordinator(const Coordinator&) = delete;
  Coordinator& operator=(const Coordinator&) = delete;

  /// Asks every thread to stop. An `error` is kept for join() to rethrow,
  /// unless one is kept already or it is an OutOfRangeError (a clean stop).
  void request_stop(std::exception_ptr error = nullptr);
  /// Forgets the stop and the error, so the coordinator can be used again.
  /// REQUIRES: no registered thread is still running.
  void clear_stop();
  bool should_stop() const;
  /// Waits until a stop is requested or `timeout` passes; true if stopped.
  bool wait_for_stop(std::chrono::milliseconds timeout) const;
  /// Waits until a stop is requested.
  void wait_for_stop() const;

  /// Starts `body` on a thread that this coordinator watches. An exception
  /// escaping `body` requests a stop with it (TF's stop_on_exception).
  void register_thread(std::string name, std::function<void()> body);

  /// Waits for every registered thread to return, or for a stop to be
  /// requested and then at most `stop_grace_period` for the threads to
  /// return. Rethrows the recorded error, if any; otherwise, with threads
  /// still running, throws std::runtime_error "Coordinator stopped with
  /// threads still running: <names>" unless `ignore_live_threads`.
  void join(
      std::chrono::milliseconds stop_grace_period = std::chrono::seconds(120),
      bool ignore_live_threads = false);
  /// True once join() has returned or thrown.
  bool joined() const;
  /// Rethrows the recorded error, if any.
  void raise_requested_exception() const;

 private:
  struct Watched {
    std::string name;
    bool done = false;
    std::thread thread;
  };

  bool AnyRunningLocked() const;

  mutable std::mutex mu_;
  mutable std::condition_variable changed_;  // a stop, or a thread returned
  bool stop_ = false;
  bool joined_ = false;
  std::exception_ptr error_;
  // std::list: a thread's entry must not move while the thread runs.
  std::list<Watched> threads_;
};

}  // namespace minitf::train
