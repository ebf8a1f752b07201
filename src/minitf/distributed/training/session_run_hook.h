// SessionRunHook: code that runs around every step of a training loop.
//
// A training program's loop does more than run the train op: it saves
// checkpoints every so often, writes summaries, counts steps per second,
// stops at a step, and (with SyncReplicasOptimizer) starts the chief's token
// loop once the session exists. TensorFlow 1.x gathers each of these into a
// hook, and MonitoredTrainingSession (monitored_session.h) calls every hook
// at fixed points of a session's life:
//
//   begin()                     once, before the graph is finalized;
//   after_create_session(s, c)  each time a session is made (again after a
//                               recovery), with the loop's Coordinator;
//   before_run(ctx)             before each step: may add fetches and feeds;
//   after_run(ctx, values)      after each step, with the added fetches'
//                               values; may ask the loop to stop;
//   end(s)                      once, when the loop ends without an error.
//
// The interface is TensorFlow's tf.train.SessionRunHook, name for name.
//
//   class PrintLoss : public tf::train::SessionRunHook {
//     tf::train::SessionRunArgs before_run(tf::train::SessionRunContext&)
//     override {
//       return {.fetches = {loss_}};
//     }
//     void after_run(tf::train::SessionRunContext&,
//                    const tf::train::SessionRunValues& v) override {
//       std::cout << v.results[0] << "\n";
//     }
//   };
#pragma once

#include <vector>

#include "minitf/graph/session.h"

namespace minitf::train {

class Coordinator;  // coordinator.h

/// tf.train.SessionRunArgs: what a hook adds to one step.
struct SessionRunArgs {
  std::vector<Fetch> fetches;
  FeedDict feeds;
};

/// tf.train.SessionRunContext: the step a hook is called around.
///
/// Thread safety: a context belongs to one step of one thread.
class SessionRunContext {
 public:
  /// `session` (not owned) runs the step; `original_args` are the fetches
  /// and feeds of the loop's own run call.
  SessionRunContext(SessionRunArgs original_args, Session* session)
      : original_args_(std::move(original_args)), session_(session) {}

  const SessionRunArgs& original_args() const { return original_args_; }
  Session* session() const { return session_; }
  /// Asks the loop to stop after this step (should_stop() becomes true).
  void request_stop() { stop_requested_ = true; }
  bool stop_requested() const { return stop_requested_; }

 private:
  SessionRunArgs original_args_;
  Session* session_;
  bool stop_requested_ = false;
};

/// tf.train.SessionRunValues: the values of a hook's own fetches, in the
/// order its before_run listed them.
struct SessionRunValues {
  std::vector<Tensor> results;
};

/// tf.train.SessionRunHook. Every method does nothing unless overridden.
///
/// Thread safety: a hook is called from the thread that runs the loop; a
/// hook that starts threads of its own registers them with the Coordinator
/// it is given.
class SessionRunHook {
 public:
  virtual ~SessionRunHook() = default;

  /// Once, before the session is made; the hook may still add ops.
  virtual void begin() {}
  /// Each time the monitored session makes a session: the first time and
  /// after every recovery. `coord` stops the hook's threads.
  virtual void after_create_session(Session* session, Coordinator* coord) {
    (void)session;
    (void)coord;
  }
  /// Before each step: fetches and feeds to add to the step.
  virtual SessionRunArgs before_run(SessionRunContext& run_context) {
    (void)run_context;
    return {};
  }
  /// After each step, with the values of this hook's fetches.
  virtual void after_run(SessionRunContext& run_context,
                         const SessionRunValues& run_values) {
    (void)run_context;
    (void)run_values;
  }
  /// Once, when the loop ends without an error (not after an exception).
  virtual void end(Session* session) { (void)session; }
};

}  // namespace minitf::train
