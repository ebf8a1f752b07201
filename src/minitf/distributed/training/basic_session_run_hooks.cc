#include "minitf/distributed/training/basic_session_run_hooks.h"

#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>

#include "minitf/tensor/errors.h"
#include "minitf/train/proto/event.pb.h"

namespace minitf::train {

namespace {

std::ostream& Log(std::ostream* stream) {
  return (stream != nullptr ? *stream : std::cerr) << "INFO:tensorflow:";
}

Variable GlobalStepFor(const std::string& hook) {
  std::optional<Variable> step = get_global_step();
  if (!step) {
    throw std::runtime_error("Global step should be created to use " + hook +
                             ".");
  }
  return *step;
}

int64_t Step(const Tensor& t) {
  return t.dtype() == DT_INT32 ? t.scalar<int32_t>() : t.scalar<int64_t>();
}

int64_t ReadStep(Session* session, const Variable& global_step) {
  return Step(session->run(global_step));
}

// The hooks' before_run: the step, read before this run updates it.
SessionRunArgs FetchOnly(const Variable& global_step) {
  SessionRunArgs args;
  args.fetches.push_back(global_step.value());
  return args;
}

// The hooks' after_run: the step this run left, when `timer` triggers for
// it. The fetched step is the one before this run's update: check cheaply
// first, then read the step the run left.
std::optional<int64_t> TriggeredStep(const SecondOrStepTimer& timer,
                                     SessionRunContext& run_context,
                                     const SessionRunValues& run_values,
                                     const Variable& global_step) {
  const int64_t stale = Step(run_values.results[0]);
  if (!timer.should_trigger_for_step(stale + 1)) return std::nullopt;
  const int64_t step = ReadStep(run_context.session(), global_step);
  if (!timer.should_trigger_for_step(step)) return std::nullopt;
  return step;
}

}  // namespace

SecondOrStepTimer::SecondOrStepTimer(std::optional<double> every_secs,
                                     std::optional<int64_t> every_steps)
    : every_secs_(every_secs), every_steps_(every_steps) {
  if (!every_secs_ && !every_steps_) {
    throw errors::InvalidArgumentError(
        "Either every_secs or every_steps should be provided.");
  }
  if (every_secs_ && every_steps_) {
    throw errors::InvalidArgumentError(
        "Can not provide both every_secs and every_steps.");
  }
}

bool SecondOrStepTimer::should_trigger_for_step(int64_t step) const {
  if (!last_step_) return true;
  if (*last_step_ == step) return false;
  if (every_secs_) {
    const std::chrono::duration<double> elapsed =
        std::chrono::steady_clock::now() - last_time_;
    if (elapsed.count() >= *every_secs_) return true;
  }
  return every_steps_ && step >= *last_step_ + *every_steps_;
}

std::optional<std::pair<double, int64_t>>
SecondOrStepTimer::update_last_triggered_step(int64_t step) {
  const auto now = std::chrono::steady_clock::now();
  std::optional<std::pair<double, int64_t>> elapsed;
  if (last_step_) {
    elapsed = {std::chrono::duration<double>(now - last_time_).count(),
               step - *last_step_};
  }
  last_time_ = now;
  last_step_ = step;
  return elapsed;
}

std::shared_ptr<summary::FileWriter> FileWriterCacheGet(
    const std::string& logdir) {
  static std::mutex mu;
  static std::map<std::string, std::weak_ptr<summary::FileWriter>> writers;
  std::lock_guard<std::mutex> lock(mu);
  std::shared_ptr<summary::FileWriter> writer = writers[logdir].lock();
  if (!writer) {
    writer = std::make_shared<summary::FileWriter>(logdir);
    writers[logdir] = writer;
  }
  return writer;
}

// --- CheckpointSaverHook -----------------------------------------------------

CheckpointSaverHook::CheckpointSaverHook(std::string checkpoint_dir,
                                         SecondOrStepTimer timer,
                                         std::shared_ptr<Scaffold> scaffold,
                                         std::string checkpoint_basename,
                                         std::ostream* log_stream)
    : dir_(std::move(checkpoint_dir)),
      timer_(timer),
      scaffold_(scaffold ? std::move(scaffold) : std::make_shared<Scaffold>()),
      save_path_((std::filesystem::path(dir_) / checkpoint_basename).string()),
      log_(log_stream) {
  Log(log_) << "Create CheckpointSaverHook.\n";
}

void CheckpointSaverHook::begin() {
  global_step_ = GlobalStepFor("CheckpointSaverHook");
  std::filesystem::create_directories(dir_);
}

// --8<-- [start:checkpoint_hook]
void CheckpointSaverHook::after_create_session(Session* session,
                                               Coordinator* /*coord*/) {
  // The state the session starts from, restored or initialized, is saved
  // at once: a fault before the first timed save loses nothing before it.
  const int64_t step = ReadStep(session, global_step_);
  Save(session, step);
  timer_.update_last_triggered_step(step);
}

SessionRunArgs CheckpointSaverHook::before_run(SessionRunContext&) {
  return FetchOnly(global_step_);
}

void CheckpointSaverHook::after_run(SessionRunContext& run_context,
                                    const SessionRunValues& run_values) {
  const std::optional<int64_t> step =
      TriggeredStep(timer_, run_context, run_values, global_step_);
  if (!step) return;
  timer_.update_last_triggered_step(*step);
  Save(run_context.session(), *step);
}

void CheckpointSaverHook::end(Session* session) {
  const int64_t last = ReadStep(session, global_step_);
  if (timer_.last_triggered_step() != last) Save(session, last);
}

void CheckpointSaverHook::Save(Session* session, int64_t step) {
  Log(log_) << "Saving checkpoints for " << step << " into " << save_path_
            << ".\n";
  scaffold_->saver()->save(*session, save_path_, step);
}
// --8<-- [end:checkpoint_hook]

// --- StopAtStepHook ----------------------------------------------------------

StopAtStepHook::StopAtStepHook(std::optional<int64_t> num_steps,
                               std::optional<int64_t> last_step)
    : num_steps_(num_steps), last_step_(last_step) {
  if (!num_steps && !last_step) {
    throw errors::InvalidArgumentError(
        "One of num_steps or last_step must be specified.");
  }
  if (num_steps && last_step) {
    throw errors::InvalidArgumentError(
        "Only one of num_steps or last_step can be specified.");
  }
}

void StopAtStepHook::begin() { global_step_ = GlobalStepFor("StopAtStepHook"); }

void StopAtStepHook::after_create_session(Session* session, Coordinator*) {
  if (!last_step_) last_step_ = ReadStep(session, global_step_) + *num_steps_;
}

SessionRunArgs StopAtStepHook::before_run(SessionRunContext&) {
  return FetchOnly(global_step_);
}

// --8<-- [start:stop_at_step]
void StopAtStepHook::after_run(SessionRunContext& run_context,
                               const SessionRunValues& run_values) {
  // The value fetched is from before this run's update; another worker may
  // have moved the step further, so read it again before stopping.
  if (Step(run_values.results[0]) + 1 < *last_step_) return;
  if (ReadStep(run_context.session(), global_step_) >= *last_step_) {
    run_context.request_stop();
  }
}
// --8<-- [end:stop_at_step]

// --- StepCounterHook ---------------------------------------------------------

StepCounterHook::StepCounterHook(SecondOrStepTimer timer,
                                 std::string output_dir,
                                 std::ostream* log_stream)
    : timer_(timer), output_dir_(std::move(output_dir)), log_(log_stream) {}

void StepCounterHook::begin() {
  global_step_ = GlobalStepFor("StepCounterHook");
  tag_ = global_step_.op().name() + "/sec";
  if (!output_dir_.empty()) writer_ = FileWriterCacheGet(output_dir_);
}

SessionRunArgs StepCounterHook::before_run(SessionRunContext&) {
  return FetchOnly(global_step_);
}

void StepCounterHook::after_run(SessionRunContext& run_context,
                                const SessionRunValues& run_values) {
  const std::optional<int64_t> step =
      TriggeredStep(timer_, run_context, run_values, global_step_);
  if (!step) return;
  auto elapsed = timer_.update_last_triggered_step(*step);
  if (!elapsed || elapsed->first <= 0) return;
  const double steps_per_sec = elapsed->second / elapsed->first;
  if (writer_) {
    proto::Summary summary;
    proto::Summary::Value* value = summary.add_value();
    value->set_tag(tag_);
    value->set_simple_value(static_cast<float>(steps_per_sec));
    writer_->add_summary(summary, *step);
  }
  char text[64];
  std::snprintf(text, sizeof(text), "%g", steps_per_sec);
  Log(log_) << tag_ << ": " << text << "\n";
}

// --- SummarySaverHook --------------------------------------------------------

SummarySaverHook::SummarySaverHook(SecondOrStepTimer timer,
                                   std::string output_dir,
                                   std::shared_ptr<Scaffold> scaffold,
                                   Output summary_op)
    : timer_(timer),
      output_dir_(std::move(output_dir)),
      scaffold_(std::move(scaffold)),
      summary_op_(summary_op) {
  if ((scaffold_ != nullptr) == summary_op_.valid()) {
    throw errors::InvalidArgumentError(
        "Exactly one of scaffold or summary_op must be provided.");
  }
}

void SummarySaverHook::begin() {
  writer_ = FileWriterCacheGet(output_dir_);
  next_step_.reset();
  global_step_ = GlobalStepFor("SummarySaverHook");
}

Output SummarySaverHook::SummaryOp() const {
  return scaffold_ ? scaffold_->summary_op() : summary_op_;
}

SessionRunArgs SummarySaverHook::before_run(SessionRunContext&) {
  request_summary_ = !next_step_ || timer_.should_trigger_for_step(*next_step_);
  SessionRunArgs args = FetchOnly(global_step_);
  if (request_summary_ && SummaryOp().valid()) {
    args.fetches.push_back(SummaryOp());
  }
  return args;
}

void SummarySaverHook::after_run(SessionRunContext& run_context,
                                 const SessionRunValues& run_values) {
  int64_t step = Step(run_values.results[0]) + 1;
  if (!next_step_ || request_summary_) {
    step = ReadStep(run_context.session(), global_step_);
  }
  if (request_summary_) {
    timer_.update_last_triggered_step(step);
    if (run_values.results.size() > 1) {
      writer_->add_summary(run_values.results[1], step);
    }
  }
  next_step_ = step + 1;
}

void SummarySaverHook::end(Session*) { writer_->flush(); }

}  // namespace minitf::train
