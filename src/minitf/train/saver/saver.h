// tf.train.Saver: saving variables to checkpoints and restoring them.
//
// A variable's value lives in a session (var.h), so it dies with it. A Saver
// copies the values of a list of variables into a checkpoint in TensorFlow's
// format (tensor_bundle.h: PREFIX.index and PREFIX.data-00000-of-00001) and
// later assigns them back, in this session or a fresh one, so training can
// stop and resume, and a trained model can be shipped, to minitf or to
// TensorFlow. Beside the checkpoints it keeps, in the same folder, the text
// file `checkpoint` (TensorFlow's CheckpointState) that names the newest one
// (what latest_checkpoint reads) and the ones still kept; with max_to_keep =
// 5 the sixth save deletes the oldest. Each save also writes `PREFIX.meta`,
// the graph as a MetaGraphDef (meta_graph.h), so a reader can see what the
// values belong to. Every file is written atomically, and the state file
// last, so a crash in the middle of a save leaves the previous checkpoint
// restorable.
//
//   auto w = tf::Variable(tf::Tensor({1.f, 2.f}), "weight");
//   tf::train::Saver saver;                        // all global variables
//   saver.save(sess, "/tmp/run/model.ckpt", 100);  // model.ckpt-100
//   tf::Session fresh;                             // later; no initializer:
//   saver.restore(fresh, *tf::train::latest_checkpoint("/tmp/run"));
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "minitf/graph/graph.h"
#include "minitf/graph/session.h"
#include "minitf/tensor/status.h"
#include "minitf/train/proto/meta_graph.pb.h"
#include "minitf/train/variables.h"

namespace minitf::train {

/// The contents of a folder's `checkpoint` file (TensorFlow's
/// CheckpointState message, in its text form).
struct CheckpointState {
  /// The newest checkpoint's prefix, as written: relative to the folder
  /// when the checkpoint is in it ("model.ckpt-100").
  std::string model_checkpoint_path;
  /// Every checkpoint still kept, oldest first, the newest last.
  std::vector<std::string> all_model_checkpoint_paths;
};

/// The text form of TensorFlow's CheckpointState, one field a line:
/// `model_checkpoint_path: "model.ckpt-100"` then one
/// `all_model_checkpoint_paths: "..."` line per kept checkpoint.
std::string CheckpointStateToText(const CheckpointState& state);

/// tf.train.get_checkpoint_state(dir): the parsed `checkpoint` file, or
/// nullopt when there is none. Throws DataLossError naming the file when it
/// is not a CheckpointState in the text format (TensorFlow's timestamps
/// are read and dropped).
std::optional<CheckpointState> get_checkpoint_state(const std::string& dir);

/// tf.train.latest_checkpoint(dir): the newest checkpoint's prefix, joined
/// to `dir` when relative, or nullopt (Python's None) when the folder has no
/// `checkpoint` file or the checkpoint it names is gone.
std::optional<std::string> latest_checkpoint(const std::string& dir);

/// tf.train.Saver.
///
/// Invariants: the restore graph is built once, by the constructor, under
/// the name scope "save": for each variable a placeholder
/// "save/restore_value" of the variable's dtype and shape and an Assign
/// "save/Assign" of it to the variable, and the NoOp "save/restore_all"
/// that runs every Assign. last_checkpoints() holds at most max_to_keep
/// prefixes, oldest first; the files of every other checkpoint this Saver
/// wrote have been deleted.
///
/// Algorithm: save fetches every variable's read op in one run, encodes the
/// values under the variables' op names ("weight") and writes, each
/// atomically, the data file, the index, the `.meta` graph and then the
/// `checkpoint` state file; only after that does it delete the checkpoints
/// past max_to_keep. restore reads and checks every tensor of the
/// checkpoint (all its data files), matches each variable to its tensor by
/// name, dtype and shape, and runs "save/restore_all" once, feeding each
/// tensor to its placeholder.
///
/// Thread safety: none; one thread saves and restores through a Saver.
class Saver {
 public:
  /// REQUIRES: the variables are in the default graph (the constructor adds
  /// the restore ops there) and their names are distinct. `max_to_keep <= 0`
  /// keeps every checkpoint. Throws InvalidArgumentError "No variables to
  /// save" when `var_list` is empty.
  explicit Saver(const std::vector<Variable>& var_list = global_variables(),
                 int max_to_keep = 5);

  /// Saves the variables' values in `sess`; returns the checkpoint's prefix:
  /// `save_path`, or "SAVE_PATH-STEP" with a global step. Throws
  /// FailedPreconditionError when a variable is not initialized, NotFound
  /// when the folder of `save_path` does not exist.
  std::string save(Session& sess, const std::string& save_path,
                   std::optional<int64_t> global_step = std::nullopt,
                   bool write_meta_graph = true);

  /// Assigns every variable its value in checkpoint `save_path` (a prefix,
  /// as save returned, or one TensorFlow wrote, in any number of data
  /// files). The variables need no initializer first. Throws NotFoundError
  /// "Failed to find any matching files for PATH" when there is no such
  /// checkpoint, ReadBundle's errors naming the file (and tensor) when it is
  /// damaged, NotFoundError "Key weight not found in checkpoint" for a
  /// variable the checkpoint lacks, and InvalidArgumentError naming the
  /// variable, the checkpoint and both shapes (TensorFlow's "Assign requires
  /// shapes of both tensors to match. lhs shape= [2,2] rhs shape= [3]") or
  /// dtypes when they differ.
  void restore(Session& sess, const std::string& save_path);

  /// The prefixes of the checkpoints kept, oldest first.
  const std::vector<std::string>& last_checkpoints() const {
    return last_checkpoints_;
  }
  /// The restore op, "save/restore_all".
  Operation restore_op() const { return restore_all_; }
  /// The variables saved, in the order given.
  const std::vector<Variable>& var_list() const { return var_list_; }
  /// The name scope of the saver's ops, with its '/': "save/".
  const std::string& scope() const { return scope_; }
  /// saver.saver_def: the names TensorFlow's save and restore ops have in
  /// the meta graph this saver exports (meta_graph.h), V2 format.
  proto::SaverDef saver_def() const;

 private:
  std::vector<Variable> var_list_;
  std::string scope_;
  int max_to_keep_;
  std::vector<Output> restore_values_;
  Operation restore_all_;
  std::vector<std::string> last_checkpoints_;
};

}  // namespace minitf::train
