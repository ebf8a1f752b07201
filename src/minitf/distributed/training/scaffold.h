// Scaffold: the ops that make a training session ready, built once.
//
// Before a training loop's first step, something must initialize the
// variables (or restore them), tell whether they are initialized, and save
// them; a chief's hooks and its session creator both need those ops, and
// every session made again after a fault reuses them, so they are built
// once, into the graph, before any session: TensorFlow 1.x's
// tf.train.Scaffold. It holds init_op, ready_op and ready_for_local_init_op
// (report_uninitialized_variables), local_init_op, the saver and the
// summary op, each TensorFlow's default unless given. The monitored session
// (monitored_session.h) and the hooks (basic_session_run_hooks.h) take it.
//
//   auto scaffold = std::make_shared<tf::train::Scaffold>();
//   scaffold->finalize();                    // builds what was not given
//   sess.run(scaffold->init_op());
//   auto names = scaffold->ready_op().uninitialized(
//       sess.run(scaffold->ready_op().op));  // {} once initialized
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "minitf/graph/graph.h"
#include "minitf/tensor/tensor.h"
#include "minitf/train/saver/saver.h"
#include "minitf/train/variables.h"

namespace minitf::train {

/// tf.report_uninitialized_variables(var_list): which of the variables
/// hold no value yet. op's value is a bool per variable of `names`, true
/// for one not initialized (TensorFlow's op outputs the names themselves,
/// a string tensor minitf has not); names(value) turns it into them.
struct UninitializedVariables {
  Output op;                       // [n] bool, "report_uninitialized_variables"
  std::vector<std::string> names;  // the variables' op names, in order
  /// The names whose entry in `value` (op's value) is true. Throws
  /// InvalidArgumentError when `value` is not [names.size()] bool.
  std::vector<std::string> uninitialized(const Tensor& value) const;
};
/// Builds the report in the default graph: one IsVariableInitialized per
/// variable (on its device), stacked and negated.
UninitializedVariables report_uninitialized_variables(
    const std::vector<Variable>& var_list,
    const std::string& name = "report_uninitialized_variables");

/// tf.train.get_global_step(): the variable in the GLOBAL_STEP collection,
/// else the global variable named "global_step"; nullopt when none.
std::optional<Variable> get_global_step();

/// tf.train.Scaffold: the ops that make a session ready, built once.
///
/// Invariants: after finalize() every member below is set, with
/// TensorFlow's defaults for those not given: init_op initializes the
/// global variables; ready_op reports the global and local variables;
/// ready_for_local_init_op the global ones; local_init_op initializes the
/// local ones; saver saves the global ones; summary_op is merge_all()
/// (invalid when the graph has no summaries).
/// Thread safety: build and finalize on one thread, before the sessions.
class Scaffold {
 public:
  struct Options {
    Operation init_op = {};
    std::optional<UninitializedVariables> ready_op = {};
    std::optional<UninitializedVariables> ready_for_local_init_op = {};
    Operation local_init_op = {};
    std::shared_ptr<Saver> saver = {};
    Output summary_op = {};
  };
  Scaffold() = default;
  explicit Scaffold(Options options) : o_(std::move(options)) {}

  /// Builds the missing ops in the default graph, which becomes the graph
  /// of the sessions made with this scaffold (on any thread). Idempotent.
  void finalize();
  bool finalized() const { return finalized_; }
  Graph* graph() const { return graph_; }

  const Operation& init_op() const { return o_.init_op; }
  const UninitializedVariables& ready_op() const { return *o_.ready_op; }
  const UninitializedVariables& ready_for_local_init_op() const {
    return *o_.ready_for_local_init_op;
  }
  const Operation& local_init_op() const { return o_.local_init_op; }
  Saver* saver() const { return o_.saver.get(); }
  const Output& summary_op() const { return o_.summary_op; }

 private:
  Options o_;
  bool finalized_ = false;
  Graph* graph_ = nullptr;
};

}  // namespace minitf::train
