// MonitoredTrainingSession: a training loop's session that survives faults.
//
// A distributed training program does the same chores around its loop in
// every task. The chief initializes the variables, or restores them from the
// newest checkpoint when it is restarted; the other workers wait until the
// chief has done so; hooks (basic_session_run_hooks.h) save checkpoints,
// count steps and stop at the last one. And when a task of the cluster dies,
// the session's runs fail with AbortedError or UnavailableError: the session
// is then closed and a new one made, which for the chief means restoring the
// last checkpoint, and the loop goes on as if nothing happened. TensorFlow
// 1.x's tf.train.MonitoredTrainingSession does all of this; this file is its
// C++ form, piece for piece:
//
//   Scaffold              the ops the creators need (scaffold.h);
//   ChiefSessionCreator   SessionManager.prepare_session: restore or init;
//   WorkerSessionCreator  SessionManager.wait_for_session: wait for the chief,
//                         logging "Waiting for model to be ready.  ...";
//   MonitoredSession      the hooks around each run, the Coordinator, and the
//                         recovery of _RecoverableSession.
//
//   auto sess = tf::train::MonitoredTrainingSession(
//       {.master = server.target(), .is_chief = task_index == 0,
//        .checkpoint_dir = "/tmp/train_logs",
//        .hooks = {std::make_shared<tf::train::StopAtStepHook>(
//            tf::train::StopAtStepHook::LastStep(1000))}});
//   while (!sess->should_stop()) sess->run({train_op});
//   sess->close();
//
// Departures from TensorFlow: minitf's tensors hold no strings, so the
// ready op reports which variables are not initialized as a bool per
// variable and the names stay in C++ (UninitializedVariables below), as
// chapter 3's summaries travel as bytes in int32; and minitf's graph cannot
// be unfinalized, so the monitored session leaves the graph open.
#pragma once

#include <chrono>
#include <exception>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "minitf/distributed/training/coordinator.h"
#include "minitf/distributed/training/scaffold.h"
#include "minitf/distributed/training/session_run_hook.h"
#include "minitf/graph/config.h"
#include "minitf/graph/session.h"

namespace minitf::train {

/// tf.train.SessionCreator: makes the session a MonitoredSession runs, the
/// first time and after each recovery.
class SessionCreator {
 public:
  virtual ~SessionCreator() = default;
  virtual std::unique_ptr<Session> create_session() = 0;
};

/// What both creators are given.
struct SessionCreatorOptions {
  std::shared_ptr<Scaffold> scaffold = {};  // a default Scaffold when null
  std::string master = "";                  // "" or "grpc://host:port"
  ConfigProto config = {};
  /// Where log lines go: TensorFlow's INFO lines ("Restoring parameters
  /// from ...", "Waiting for model to be ready. ..."); nullptr: stderr.
  std::ostream* log_stream = nullptr;
};

/// tf.train.ChiefSessionCreator.
///
/// create_session: a Session on `master`; restores the newest checkpoint of
/// checkpoint_dir when there is one, else runs init_op; runs local_init_op;
/// checks ready_op. Throws RuntimeError (std::runtime_error) "Init
/// operations did not make model ready.  Init op: ..., error: Variables
/// not initialized: ..." when the model is still not ready; AbortedError
/// and UnavailableError when a task is gone (a MonitoredSession recovers).
class ChiefSessionCreator : public SessionCreator {
 public:
  ChiefSessionCreator(SessionCreatorOptions options,
                      std::string checkpoint_dir = "");
  std::unique_ptr<Session> create_session() override;

 private:
  SessionCreatorOptions o_;
  std::string checkpoint_dir_;
};

/// tf.train.WorkerSessionCreator: SessionManager.wait_for_session.
///
/// create_session: until the model is ready (the chief has initialized or
/// restored it), makes a Session, tries local_init_op (which needs
/// ready_for_local_init_op to report nothing) and ready_op; when either
/// reports variables, closes the session, logs "Waiting for model to be
/// ready.  Ready_for_local_init_op:  <msg or None>, ready: <msg or None>"
/// and sleeps recovery_wait_secs. Throws DeadlineExceededError "Session was
/// not ready after waiting <max_wait_secs> secs." when the next wait would
/// pass max_wait_secs.
class WorkerSessionCreator : public SessionCreator {
 public:
  WorkerSessionCreator(SessionCreatorOptions options,
                       double max_wait_secs = 30 * 60,
                       double recovery_wait_secs = 30);
  std::unique_ptr<Session> create_session() override;

 private:
  SessionCreatorOptions o_;
  double max_wait_secs_;
  double recovery_wait_secs_;
};

/// Hooks, shared: a program keeps its own pointer to read a hook's state.
using Hooks = std::vector<std::shared_ptr<SessionRunHook>>;

/// tf.train.MonitoredSession.
///
/// Invariants: while open, session() is a live session on which every
/// hook's after_create_session has run with coordinator(); hooks are called
/// in the order given.
///
/// Recovery (TensorFlow's _RecoverableSession): an AbortedError or
/// UnavailableError from making the session, from a run or from
/// should_stop() closes the session (its coordinator is stopped and joined)
/// and makes a new one with the creator; the run is then tried again. Any
/// other error reaches the caller.
///
/// Thread safety: one thread runs the loop.
class MonitoredSession {
 public:
  struct Options {
    double stop_grace_period_secs = 120;
    std::ostream* log_stream = nullptr;  // nullptr: stderr
  };
  /// Calls begin() on every hook, then makes the first session.
  MonitoredSession(std::unique_ptr<SessionCreator> creator, Hooks hooks,
                   Options options);
  MonitoredSession(std::unique_ptr<SessionCreator> creator, Hooks hooks = {})
      : MonitoredSession(std::move(creator), std::move(hooks), Options{}) {}
  /// close() when the loop left normally; while an exception unwinds the
  /// loop, closes without calling end() on the hooks, as TensorFlow's
  /// __exit__ does.
  ~MonitoredSession();
  MonitoredSession(const MonitoredSession&) = delete;
  MonitoredSession& operator=(const MonitoredSession&) = delete;

  /// One step: each hook's before_run adds fetches and feeds, the step
  /// runs, each hook's after_run gets its values. Returns the values of
  /// `fetches`. Throws RuntimeError "Run called even after should_stop
  /// requested." after a hook asked to stop; "Same tensor is fed by a
  /// SessionRunHook and user." / "Same tensor is fed by two hooks." when
  /// feeds collide.
  std::vector<Tensor> run(const std::vector<Fetch>& fetches,
                          const FeedDict& feeds = {});
  /// True once closed, a hook asked to stop, or the coordinator was asked
  /// to stop; rethrows an error a coordinated thread recorded.
  bool should_stop();
  /// Calls end() on every hook, stops the coordinator and closes the
  /// session. Throws RuntimeError "Session is already closed." the second
  /// time.
  void close();

  /// The session now in use (it changes after a recovery); nullptr when
  /// closed.
  Session* session() const { return sess_.get(); }
  Coordinator* coordinator() const { return coord_.get(); }
  /// How many times the session was made again after an error.
  int recoveries() const { return recoveries_; }

 private:
  void CreateSession();  // with recovery
  // Stops and joins the coordinator, closes the session; returns the
  // error a coordinated thread recorded, if any.
  std::exception_ptr CloseSession() noexcept;
  std::vector<Tensor> HookedRun(const std::vector<Fetch>& fetches,
                                const FeedDict& feeds);
  void CloseInternal(bool call_end);
  std::ostream& log() const;

  std::unique_ptr<SessionCreator> creator_;
  Hooks hooks_;
  Options options_;
  std::unique_ptr<Session> sess_;
  std::unique_ptr<Coordinator> coord_;
  bool hook_stop_ = false;
  bool closed_ = false;
  int recoveries_ = 0;
  int uncaught_at_construction_ = 0;
};

/// tf.train.MonitoredTrainingSession's arguments, with TensorFlow's names.
/// An unset optional is TensorFlow's USE_DEFAULT: checkpoints every 600 s
/// when neither secs nor steps is given, summaries every 100 steps likewise;
/// 0 turns one off (TensorFlow's None).
struct MonitoredTrainingSessionOptions {
  std::string master = "";
  bool is_chief = true;
  std::string checkpoint_dir = "";
  std::shared_ptr<Scaffold> scaffold = {};
  Hooks hooks = {};
  Hooks chief_only_hooks = {};
  std::optional<double> save_checkpoint_secs = {};
  std::optional<int64_t> save_summaries_steps = {};
  std::optional<double> save_summaries_secs = {};
  ConfigProto config = {};
  double stop_grace_period_secs = 120;
  int64_t log_step_count_steps = 100;
  double max_wait_secs = 7200;
  std::optional<int64_t> save_checkpoint_steps = {};
  std::string summary_dir = "";  // checkpoint_dir when empty
  /// minitf's own: SessionManager's recovery_wait_secs (30 in TensorFlow,
  /// which offers it only through SessionManager), and the log stream.
  double recovery_wait_secs = 30;
  std::ostream* log_stream = nullptr;
};

/// tf.train.MonitoredTrainingSession: the chief gets a ChiefSessionCreator
/// and, before `hooks`, chief_only_hooks, a StepCounterHook, a
/// SummarySaverHook and a CheckpointSaverHook as the options ask; a
/// non-chief gets a WorkerSessionCreator and `hooks`.
std::unique_ptr<MonitoredSession> MonitoredTrainingSession(
    MonitoredTrainingSessionOptions options);

}  // namespace minitf::train
