// The hooks MonitoredTrainingSession gives a chief, and the one that stops
// a loop: TensorFlow 1.x's basic_session_run_hooks, with its names, rules and
// log lines.
//
//   CheckpointSaverHook  saves the variables every N seconds or N steps
//                        ("Saving checkpoints for 120 into dir/model.ckpt."),
//                        once when a session is made and once at the end;
//   StopAtStepHook       asks the loop to stop once global_step reaches a
//                        step (last_step) or N steps past where it started;
//   SummarySaverHook     runs the summary op every N steps or seconds and
//                        appends its value to the event file;
//   StepCounterHook      logs "global_step/sec: 41.7" every N steps or
//                        seconds, and writes it as a summary.
//
// Each reads the graph's global step (get_global_step), fetching it with
// each step, and throws RuntimeError "Global step should be created to use
// <Hook>." from begin() when the graph has none.
//
//   auto stop = std::make_shared<tf::train::StopAtStepHook>(
//       tf::train::StopAtStepHook::LastStep(1000));
//   auto save = std::make_shared<tf::train::CheckpointSaverHook>(
//       "/tmp/run", tf::train::SecondOrStepTimer::Steps(100));
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "minitf/distributed/training/scaffold.h"
#include "minitf/distributed/training/session_run_hook.h"
#include "minitf/train/summary/file_writer.h"

namespace minitf::train {

/// tf.train.SecondOrStepTimer: triggers every `every_secs` seconds or every
/// `every_steps` steps (exactly one). Throws InvalidArgumentError (Python's
/// ValueError) "Either every_secs or every_steps should be provided." or
/// "Can not provide both every_secs and every_steps.".
class SecondOrStepTimer {
 public:
  SecondOrStepTimer(std::optional<double> every_secs,
                    std::optional<int64_t> every_steps);
  static SecondOrStepTimer Secs(double s) { return {s, std::nullopt}; }
  static SecondOrStepTimer Steps(int64_t n) { return {std::nullopt, n}; }

  /// True the first time, and when enough time or steps have passed since
  /// the last trigger; never twice for one step.
  bool should_trigger_for_step(int64_t step) const;
  /// Records a trigger at `step`; returns the seconds and steps since the
  /// previous one (nullopt the first time).
  std::optional<std::pair<double, int64_t>> update_last_triggered_step(
      int64_t step);
  std::optional<int64_t> last_triggered_step() const { return last_step_; }

 private:
  std::optional<double> every_secs_;
  std::optional<int64_t> every_steps_;
  std::optional<int64_t> last_step_;
  std::chrono::steady_clock::time_point last_time_;
};

/// tf.summary.FileWriterCache.get(logdir): one FileWriter per folder, shared
/// by the hooks that write there (two writers opened in one second would
/// name the same file).
std::shared_ptr<summary::FileWriter> FileWriterCacheGet(
    const std::string& logdir);

/// tf.train.CheckpointSaverHook(checkpoint_dir, save_secs | save_steps,
/// saver | scaffold, checkpoint_basename="model.ckpt").
class CheckpointSaverHook : public SessionRunHook {
 public:
  /// `scaffold`'s saver is used (the default Scaffold's when null).
  CheckpointSaverHook(std::string checkpoint_dir, SecondOrStepTimer timer,
                      std::shared_ptr<Scaffold> scaffold = nullptr,
                      std::string checkpoint_basename = "model.ckpt",
                      std::ostream* log_stream = nullptr);
  void begin() override;
  void after_create_session(Session* session, Coordinator* coord) override;
  SessionRunArgs before_run(SessionRunContext& run_context) override;
  void after_run(SessionRunContext& run_context,
                 const SessionRunValues& run_values) override;
  void end(Session* session) override;

 private:
  void Save(Session* session, int64_t step);

  std::string dir_;
  SecondOrStepTimer timer_;
  std::shared_ptr<Scaffold> scaffold_;
  std::string save_path_;
  std::ostream* log_;
  Variable global_step_;
};

/// tf.train.StopAtStepHook(num_steps | last_step).
class StopAtStepHook : public SessionRunHook {
 public:
  /// Throws InvalidArgumentError "One of num_steps or last_step must be
  /// specified." / "Only one of num_steps or last_step can be specified.".
  StopAtStepHook(std::optional<int64_t> num_steps,
                 std::optional<int64_t> last_step);
  static StopAtStepHook NumSteps(int64_t n) { return {n, std::nullopt}; }
  static StopAtStepHook LastStep(int64_t s) { return {std::nullopt, s}; }
  void begin() override;
  /// With num_steps: last_step = global_step now + num_steps (the first
  /// session only; a recovered session keeps the target).
  void after_create_session(Session* session, Coordinator* coord) override;
  SessionRunArgs before_run(SessionRunContext& run_context) override;
  void after_run(SessionRunContext& run_context,
                 const SessionRunValues& run_values) override;
  std::optional<int64_t> last_step() const { return last_step_; }

 private:
  std::optional<int64_t> num_steps_;
  std::optional<int64_t> last_step_;
  Variable global_step_;
};

/// tf.train.StepCounterHook(every_n_steps=100 | every_n_secs, output_dir).
class StepCounterHook : public SessionRunHook {
 public:
  /// `output_dir` empty: log only. The line goes to `log_stream` (stderr
  /// when null): "INFO:tensorflow:global_step/sec: <%g>".
  StepCounterHook(SecondOrStepTimer timer, std::string output_dir = "",
                  std::ostream* log_stream = nullptr);
  void begin() override;
  SessionRunArgs before_run(SessionRunContext& run_context) override;
  void after_run(SessionRunContext& run_context,
                 const SessionRunValues& run_values) override;

 private:
  SecondOrStepTimer timer_;
  std::string output_dir_;
  std::ostream* log_;
  std::shared_ptr<summary::FileWriter> writer_;
  std::string tag_;
  Variable global_step_;
};

/// tf.train.SummarySaverHook(save_steps | save_secs, output_dir, scaffold |
/// summary_op).
class SummarySaverHook : public SessionRunHook {
 public:
  /// Exactly one of `scaffold` and `summary_op`: InvalidArgumentError
  /// "Exactly one of scaffold or summary_op must be provided." otherwise.
  SummarySaverHook(SecondOrStepTimer timer, std::string output_dir,
                   std::shared_ptr<Scaffold> scaffold, Output summary_op = {});
  void begin() override;
  SessionRunArgs before_run(SessionRunContext& run_context) override;
  void after_run(SessionRunContext& run_context,
                 const SessionRunValues& run_values) override;
  void end(Session* session) override;

 private:
  Output SummaryOp() const;

  SecondOrStepTimer timer_;
  std::string output_dir_;
  std::shared_ptr<Scaffold> scaffold_;
  Output summary_op_;
  std::shared_ptr<summary::FileWriter> writer_;
  std::optional<int64_t> next_step_;
  bool request_summary_ = false;
  Variable global_step_;
};

}  // namespace minitf::train
