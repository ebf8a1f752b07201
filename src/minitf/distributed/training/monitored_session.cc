#include "minitf/distributed/training/monitored_session.h"

#include <exception>
#include <iostream>
#include <stdexcept>
#include <thread>

#include "minitf/distributed/training/basic_session_run_hooks.h"
#include "minitf/tensor/errors.h"
#include "minitf/train/saver/saver.h"

namespace minitf::train {

namespace {

std::ostream& Log(std::ostream* stream) {
  return (stream != nullptr ? *stream : std::cerr) << "INFO:tensorflow:";
}

// TensorFlow's _PREEMPTION_ERRORS: a task of the cluster went away (or came
// back as a new incarnation); a new session can go on where this one was.
// The end of TensorFlow's three log lines on such an error.
constexpr const char* kPreemptionAdvice =
    "This error may also occur due to a gRPC failure caused by high memory or "
    "network bandwidth usage in the parameter servers. If this error occurs "
    "repeatedly, try increasing the number of parameter servers assigned to "
    "the job. Error: ";

bool IsPreemption(const errors::OpError& e) {
  return e.code() == error::ABORTED || e.code() == error::UNAVAILABLE;
}

std::string Join(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

// SessionManager's _ready: nullopt when `report` reports no variable, else
// why the model is not ready. A FailedPrecondition about an uninitialized
// value means the same (a variable the report itself reads is gone).
std::optional<std::string> NotReady(const UninitializedVariables& report,
                                    Session& sess) {
  try {
    std::vector<std::string> names = report.uninitialized(sess.run(report.op));
    if (names.empty()) return std::nullopt;
    return "Variables not initialized: " + Join(names);
  } catch (const errors::FailedPreconditionError& e) {
    if (std::string(e.what()).find("uninitialized") == std::string::npos) {
      throw;
    }
    return std::string(e.what());
  }
}

// SessionManager._try_run_local_init_op: runs local_init_op once
// ready_for_local_init_op reports nothing; otherwise why not.
std::optional<std::string> TryRunLocalInitOp(const Scaffold& scaffold,
                                             Session& sess, std::ostream* log) {
  if (!scaffold.local_init_op().valid()) return std::nullopt;
  std::optional<std::string> not_ready =
      NotReady(scaffold.ready_for_local_init_op(), sess);
  if (not_ready) return not_ready;
  Log(log) << "Running local_init_op.\n";
  sess.run(scaffold.local_init_op());
  Log(log) << "Done running local_init_op.\n";
  return std::nullopt;
}

std::unique_ptr<Session> NewSession(const SessionCreatorOptions& o) {
  return std::make_unique<Session>(
      SessionOptions{.target = o.master, .config = o.config},
      o.scaffold->graph());
}

void CloseQuietly(Session& sess) {
  try {
    sess.close();
  } catch (const std::exception&) {
    // As TensorFlow's _safe_close: a session that cannot close is gone.
  }
}

}  // namespace

// --8<-- [start:chief_creator]
ChiefSessionCreator::ChiefSessionCreator(SessionCreatorOptions options,
                                         std::string checkpoint_dir)
    : o_(std::move(options)), checkpoint_dir_(std::move(checkpoint_dir)) {
  if (!o_.scaffold) o_.scaffold = std::make_shared<Scaffold>();
}

// SessionManager.prepare_session: restore the newest checkpoint, or
// initialize; then the local init and the readiness check.
std::unique_ptr<Session> ChiefSessionCreator::create_session() {
  Scaffold& scaffold = *o_.scaffold;
  scaffold.finalize();
  std::unique_ptr<Session> sess = NewSession(o_);
  bool restored = false;
  if (!checkpoint_dir_.empty() && scaffold.saver() != nullptr) {
    if (std::optional<std::string> ckpt = latest_checkpoint(checkpoint_dir_)) {
      Log(o_.log_stream) << "Restoring parameters from " << *ckpt << "\n";
      scaffold.saver()->restore(*sess, *ckpt);
      restored = true;
    }
  }
  if (!restored) sess->run(scaffold.init_op());
  if (std::optional<std::string> msg =
          TryRunLocalInitOp(scaffold, *sess, o_.log_stream)) {
    throw std::runtime_error(
        "Init operations did not make model ready for local_init.  Init op: " +
        scaffold.init_op().name() + ", init fn: None, error: " + *msg);
  }
  if (std::optional<std::string> msg = NotReady(scaffold.ready_op(), *sess)) {
    throw std::runtime_error(
        "Init operations did not make model ready.  Init op: " +
        scaffold.init_op().name() + ", init fn: None, local_init_op: " +
        scaffold.local_init_op().name() + ", error: " + *msg);
  }
  return sess;
}
// --8<-- [end:chief_creator]

WorkerSessionCreator::WorkerSessionCreator(SessionCreatorOptions options,
                                           double max_wait_secs,
                                           double recovery_wait_secs)
    : o_(std::move(options)),
      max_wait_secs_(max_wait_secs),
      recovery_wait_secs_(recovery_wait_secs) {
  if (!o_.scaffold) o_.scaffold = std::make_shared<Scaffold>();
}

// --8<-- [start:worker_creator]
// SessionManager.wait_for_session: the chief makes the model ready; this
// task only looks, every recovery_wait_secs, until it is.
std::unique_ptr<Session> WorkerSessionCreator::create_session() {
  Scaffold& scaffold = *o_.scaffold;
  scaffold.finalize();
  const auto deadline =
      std::chrono::steady_clock::now() +
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double>(max_wait_secs_));
  while (true) {
    std::unique_ptr<Session> sess = NewSession(o_);
    std::optional<std::string> not_ready;
    std::optional<std::string> not_ready_local =
        TryRunLocalInitOp(scaffold, *sess, o_.log_stream);
    if (!not_ready_local) {
      not_ready = NotReady(scaffold.ready_op(), *sess);
      if (!not_ready) return sess;
    }
    CloseQuietly(*sess);
    const auto wait = std::chrono::duration<double>(recovery_wait_secs_);
    if (std::chrono::steady_clock::now() + wait > deadline) {
      throw errors::DeadlineExceededError(
          "Session was not ready after waiting " +
          std::to_string(static_cast<int64_t>(max_wait_secs_)) + " secs.");
    }
    Log(o_.log_stream) << "Waiting for model to be ready.  "
                       << "Ready_for_local_init_op:  "
                       << not_ready_local.value_or("None")
                       << ", ready: " << not_ready.value_or("None") << "\n";
    std::this_thread::sleep_for(wait);
  }
}
// --8<-- [end:worker_creator]

MonitoredSession::MonitoredSession(std::unique_ptr<SessionCreator> creator,
                                   Hooks hooks, Options options)
    : creator_(std::move(creator)),
      hooks_(std::move(hooks)),
      options_(options),
      uncaught_at_construction_(std::uncaught_exceptions()) {
  for (const auto& h : hooks_) h->begin();
  CreateSession();
}

MonitoredSession::~MonitoredSession() {
  if (closed_) return;
  // Leaving the loop by an exception: no end(), as TensorFlow's __exit__.
  const bool unwinding = std::uncaught_exceptions() > uncaught_at_construction_;
  try {
    CloseInternal(!unwinding);
  } catch (const std::exception& e) {
    Log(options_.log_stream)
        << "Error closing the monitored session: " << e.what() << "\n";
  }
}

std::ostream& MonitoredSession::log() const { return Log(options_.log_stream); }

// --8<-- [start:recover]
// _CoordinatedSessionCreator inside _RecoverableSession: a session, a fresh
// coordinator, the hooks told; a task that is gone means try again.
void MonitoredSession::CreateSession() {
  while (true) {
    try {
      sess_ = creator_->create_session();
      coord_ = std::make_unique<Coordinator>();
      hook_stop_ = false;
      for (const auto& h : hooks_) {
        h->after_create_session(sess_.get(), coord_.get());
      }
      return;
    } catch (const errors::OpError& e) {
      if (!IsPreemption(e)) throw;
      log() << "An error was raised while a session was being created. This "
               "may be due to a preemption of a connected worker or parameter "
               "server. A new session will be created. "
            << kPreemptionAdvice << e.what() << "\n";
      CloseSession();
    }
  }
}

std::vector<Tensor> MonitoredSession::run(const std::vector<Fetch>& fetches,
                                          const FeedDict& feeds) {
  if (closed_) throw std::runtime_error("Session is already closed.");
  while (true) {
    try {
      if (!sess_) CreateSession();
      return HookedRun(fetches, feeds);
    } catch (const errors::OpError& e) {
      if (!IsPreemption(e)) throw;
      log() << "An error was raised. This may be due to a preemption in a "
               "connected worker or parameter server. The current session "
               "will be closed and a new session will be created. "
            << kPreemptionAdvice << e.what() << "\n";
      CloseSession();
      ++recoveries_;
    }
  }
}
// --8<-- [end:recover]

bool MonitoredSession::should_stop() {
  if (closed_) return true;
  try {
    if (!sess_) return true;
    coord_->raise_requested_exception();
    return hook_stop_ || coord_->should_stop();
  } catch (const errors::OpError& e) {
    if (!IsPreemption(e)) throw;
    log() << "An error was raised while considering whether the session is "
             "complete. This may be due to a preemption in a connected worker "
             "or parameter server. The current session will be closed and a "
             "new session will be created. "
          << kPreemptionAdvice << e.what() << "\n";
    CloseSession();
    ++recoveries_;
    CreateSession();
    return false;
  }
}

// --8<-- [start:hooked_run]
// _HookedSession.run: the hooks' fetches and feeds ride along with the
// caller's, in one step.
std::vector<Tensor> MonitoredSession::HookedRun(
    const std::vector<Fetch>& fetches, const FeedDict& feeds) {
  if (hook_stop_) {
    throw std::runtime_error("Run called even after should_stop requested.");
  }
  SessionRunContext context({fetches, feeds}, sess_.get());
  std::vector<Fetch> all_fetches = fetches;
  FeedDict all_feeds = feeds;
  std::vector<size_t> first(hooks_.size()), count(hooks_.size());
  for (size_t i = 0; i < hooks_.size(); ++i) {
    SessionRunArgs args = hooks_[i]->before_run(context);
    first[i] = all_fetches.size();
    count[i] = args.fetches.size();
    all_fetches.insert(all_fetches.end(), args.fetches.begin(),
                       args.fetches.end());
    for (auto& [key, value] : args.feeds) {
      for (size_t j = 0; j < all_feeds.size(); ++j) {
        if (all_feeds[j].first.name() != key.name()) continue;
        throw std::runtime_error(j < feeds.size()
                                     ? "Same tensor is fed by a SessionRunHook "
                                       "and user."
                                     : "Same tensor is fed by two hooks.");
      }
      all_feeds.emplace_back(key, value);
    }
  }
  std::vector<Tensor> results = sess_->run(all_fetches, all_feeds);
  for (size_t i = 0; i < hooks_.size(); ++i) {
    SessionRunValues values;
    values.results.assign(results.begin() + first[i],
                          results.begin() + first[i] + count[i]);
    hooks_[i]->after_run(context, values);
  }
  hook_stop_ = hook_stop_ || context.stop_requested();
  results.resize(fetches.size());
  return results;
}
// --8<-- [end:hooked_run]

std::exception_ptr MonitoredSession::CloseSession() noexcept {
  std::exception_ptr error;
  if (coord_) {
    coord_->request_stop();
    try {
      coord_->join(std::chrono::milliseconds(static_cast<int64_t>(
                       options_.stop_grace_period_secs * 1000)),
                   /*ignore_live_threads=*/true);
    } catch (...) {
      error = std::current_exception();
    }
  }
  if (sess_) CloseQuietly(*sess_);
  sess_.reset();
  coord_.reset();
  return error;
}

void MonitoredSession::close() { CloseInternal(/*call_end=*/true); }

void MonitoredSession::CloseInternal(bool call_end) {
  if (closed_) throw std::runtime_error("Session is already closed.");
  closed_ = true;
  std::exception_ptr error;
  try {
    if (call_end && sess_) {
      for (const auto& h : hooks_) h->end(sess_.get());
    }
  } catch (...) {
    error = std::current_exception();
  }
  // The first error wins: a hook's, else a coordinated thread's.
  std::exception_ptr joined = CloseSession();
  if (!error) error = joined;
  if (error) std::rethrow_exception(error);
}

// --8<-- [start:mts]
std::unique_ptr<MonitoredSession> MonitoredTrainingSession(
    MonitoredTrainingSessionOptions o) {
  if (!o.scaffold) o.scaffold = std::make_shared<Scaffold>();
  // TensorFlow's USE_DEFAULT: summaries every 100 steps and checkpoints
  // every 600 s unless the other of the pair is given.
  if (!o.save_summaries_steps && !o.save_summaries_secs) {
    o.save_summaries_steps = 100;
  }
  if (!o.save_checkpoint_steps && !o.save_checkpoint_secs) {
    o.save_checkpoint_secs = 600;
  }
  const double ckpt_secs = o.save_checkpoint_secs.value_or(0);
  const int64_t ckpt_steps = o.save_checkpoint_steps.value_or(0);
  const double summary_secs = o.save_summaries_secs.value_or(0);
  const int64_t summary_steps = o.save_summaries_steps.value_or(0);
  const std::string summary_dir =
      o.summary_dir.empty() ? o.checkpoint_dir : o.summary_dir;
  SessionCreatorOptions creator_options{.scaffold = o.scaffold,
                                        .master = o.master,
                                        .config = o.config,
                                        .log_stream = o.log_stream};
  std::unique_ptr<SessionCreator> creator;
  Hooks all_hooks;
  if (o.is_chief) {
    creator = std::make_unique<ChiefSessionCreator>(creator_options,
                                                    o.checkpoint_dir);
    all_hooks = o.chief_only_hooks;
    if (o.log_step_count_steps > 0) {
      all_hooks.push_back(std::make_shared<StepCounterHook>(
          SecondOrStepTimer::Steps(o.log_step_count_steps), summary_dir,
          o.log_stream));
    }
    if (!summary_dir.empty() && (summary_steps > 0 || summary_secs > 0)) {
      all_hooks.push_back(std::make_shared<SummarySaverHook>(
          SecondOrStepTimer(
              summary_secs > 0 ? std::optional<double>(summary_secs)
                               : std::nullopt,
              summary_steps > 0 ? std::optional<int64_t>(summary_steps)
                                : std::nullopt),
          summary_dir, o.scaffold));
    }
    if (!o.checkpoint_dir.empty() && (ckpt_secs > 0 || ckpt_steps > 0)) {
      all_hooks.push_back(std::make_shared<CheckpointSaverHook>(
          o.checkpoint_dir,
          SecondOrStepTimer(
              ckpt_secs > 0 ? std::optional<double>(ckpt_secs) : std::nullopt,
              ckpt_steps > 0 ? std::optional<int64_t>(ckpt_steps)
                             : std::nullopt),
          o.scaffold, "model.ckpt", o.log_stream));
    }
  } else {
    creator = std::make_unique<WorkerSessionCreator>(
        creator_options, o.max_wait_secs, o.recovery_wait_secs);
  }
  all_hooks.insert(all_hooks.end(), o.hooks.begin(), o.hooks.end());
  return std::make_unique<MonitoredSession>(
      std::move(creator), std::move(all_hooks),
      MonitoredSession::Options{
          .stop_grace_period_secs = o.stop_grace_period_secs,
          .log_stream = o.log_stream});
}
// --8<-- [end:mts]

}  // namespace minitf::train
