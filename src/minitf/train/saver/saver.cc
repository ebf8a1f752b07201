#include "minitf/train/saver/saver.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "minitf/graph/graph_def.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/tensor/errors.h"
#include "minitf/train/ops/state_ops.h"
#include "minitf/train/proto/tensor_bundle.pb.h"
#include "minitf/train/saver/atomic_file.h"
#include "minitf/train/saver/meta_graph.h"
#include "minitf/train/saver/tensor_bundle.h"

namespace minitf::train {
namespace fs = std::filesystem;
namespace {

constexpr std::string_view kLatestField = "model_checkpoint_path: ";

// Whether checkpoint `prefix` has its index. A name the file system refuses
// to look up (too long, in a folder that cannot be read) names no
// checkpoint, as TensorFlow's file matching finds no file for it.
bool IndexExists(const std::string& prefix) {
  std::error_code error;
  return fs::exists(BundleIndexPath(prefix), error);
}
constexpr std::string_view kAllField = "all_model_checkpoint_paths: ";

std::string Folder(const std::string& path) {
  const std::string dir = fs::path(path).parent_path().string();
  return dir.empty() ? "." : dir;
}

// The state file names a checkpoint relative to the folder when it is in it.
std::string Relative(const std::string& prefix, const std::string& dir) {
  return Folder(prefix) == dir ? fs::path(prefix).filename().string() : prefix;
}

}  // namespace

std::string CheckpointStateToText(const CheckpointState& state) {
  proto::CheckpointState message;
  message.set_model_checkpoint_path(state.model_checkpoint_path);
  for (const std::string& p : state.all_model_checkpoint_paths) {
    message.add_all_model_checkpoint_paths(p);
  }
  std::string text;
  google::protobuf::TextFormat::PrintToString(message, &text);
  return text;
}

std::optional<CheckpointState> get_checkpoint_state(const std::string& dir) {
  const std::string path = (fs::path(dir) / "checkpoint").string();
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  proto::CheckpointState message;
  if (!google::protobuf::TextFormat::ParseFromString(text.str(), &message)) {
    errors::ThrowIfError(
        errors::DataLoss("Unable to parse checkpoint state file ", path,
                         ": not a CheckpointState in the text format"));
  }
  CheckpointState state;
  state.model_checkpoint_path = message.model_checkpoint_path();
  state.all_model_checkpoint_paths.assign(
      message.all_model_checkpoint_paths().begin(),
      message.all_model_checkpoint_paths().end());
  return state;
}

std::optional<std::string> latest_checkpoint(const std::string& dir) {
  const std::optional<CheckpointState> state = get_checkpoint_state(dir);
  if (!state || state->model_checkpoint_path.empty()) return std::nullopt;
  fs::path prefix(state->model_checkpoint_path);
  if (prefix.is_relative()) prefix = fs::path(dir) / prefix;
  if (!IndexExists(prefix.string())) return std::nullopt;
  return prefix.string();
}

Saver::Saver(const std::vector<Variable>& var_list, int max_to_keep)
    : var_list_(var_list), max_to_keep_(max_to_keep) {
  if (var_list_.empty()) {
    errors::ThrowIfError(errors::InvalidArgument("No variables to save"));
  }
  name_scope scope("save");
  scope_ = scope.name();
  std::vector<Operation> assigns;
  for (const Variable& v : var_list_) {
    const Output value = placeholder(v.dtype(), v.shape(), "restore_value");
    restore_values_.push_back(value);
    assigns.push_back(assign(v.ref(), value, /*validate_shape=*/true,
                             /*use_locking=*/true, "Assign")
                          .op());
  }
  restore_all_ = group(assigns, "restore_all");
}

proto::SaverDef Saver::saver_def() const {
  proto::SaverDef def;
  def.set_filename_tensor_name(scope_ + "Const:0");
  def.set_save_tensor_name(scope_ + "control_dependency:0");
  def.set_restore_op_name(scope_ + "restore_all");
  def.set_max_to_keep(max_to_keep_);
  def.set_keep_checkpoint_every_n_hours(10000.0f);
  def.set_version(proto::SaverDef::V2);
  return def;
}

std::string Saver::save(Session& sess, const std::string& save_path,
                        std::optional<int64_t> global_step,
                        bool write_meta_graph) {
  const std::string prefix =
      global_step ? StrCat(save_path, "-", *global_step) : save_path;
  std::vector<Fetch> fetches;
  for (const Variable& v : var_list_) fetches.emplace_back(v.value());
  const std::vector<Tensor> values = sess.run(fetches);
  std::vector<NamedTensor> tensors;
  for (size_t i = 0; i < var_list_.size(); ++i) {
    tensors.emplace_back(var_list_[i].op().name(), values[i]);
  }
  // The data first, the state file that points at it last: a crash between
  // them leaves the state file naming the previous, complete checkpoint.
  errors::ThrowIfError(WriteBundle(prefix, tensors));
  if (write_meta_graph) {
    const MetaGraphDef meta =
        errors::ValueOrThrow(ExportMetaGraph(*sess.graph(), this));
    std::string bytes;
    {
      google::protobuf::io::StringOutputStream stream(&bytes);
      google::protobuf::io::CodedOutputStream coded(&stream);
      coded.SetSerializationDeterministic(true);
      meta.SerializeToCodedStream(&coded);
    }
    errors::ThrowIfError(WriteFileAtomically(prefix + ".meta", bytes));
  }

  std::erase(last_checkpoints_, prefix);
  last_checkpoints_.push_back(prefix);
  std::vector<std::string> dropped;
  while (max_to_keep_ > 0 &&
         static_cast<int>(last_checkpoints_.size()) > max_to_keep_) {
    dropped.push_back(last_checkpoints_.front());
    last_checkpoints_.erase(last_checkpoints_.begin());
  }
  const std::string dir = Folder(prefix);
  CheckpointState state;
  state.model_checkpoint_path = Relative(prefix, dir);
  for (const std::string& p : last_checkpoints_) {
    state.all_model_checkpoint_paths.push_back(Relative(p, dir));
  }
  errors::ThrowIfError(WriteFileAtomically(
      (fs::path(dir) / "checkpoint").string(), CheckpointStateToText(state)));
  // Deleted only once the state file no longer names them.
  for (const std::string& p : dropped) {
    std::error_code ignored;
    fs::remove(BundleDataPath(p, 0, 1), ignored);
    fs::remove(BundleIndexPath(p), ignored);
    fs::remove(p + ".meta", ignored);
  }
  return prefix;
}

void Saver::restore(Session& sess, const std::string& save_path) {
  if (!IndexExists(save_path)) {
    errors::ThrowIfError(
        errors::NotFound("Failed to find any matching files for ", save_path));
  }
  std::vector<NamedTensor> tensors;
  errors::ThrowIfError(ReadBundle(save_path, &tensors));
  FeedDict feeds;
  for (size_t i = 0; i < var_list_.size(); ++i) {
    const Variable& v = var_list_[i];
    const std::string key = v.op().name();
    const auto it = std::lower_bound(
        tensors.begin(), tensors.end(), key,
        [](const NamedTensor& t, const std::string& k) { return t.first < k; });
    if (it == tensors.end() || it->first != key) {
      errors::ThrowIfError(errors::NotFound(
          "Key ", key, " not found in checkpoint ", save_path));
    }
    const Tensor& value = it->second;
    if (value.dtype() != v.dtype()) {
      errors::ThrowIfError(errors::InvalidArgument(
          "Restoring variable ", key, " from checkpoint ", save_path,
          ": dtype ", DataTypeString(v.dtype()), " in the graph but ",
          DataTypeString(value.dtype()), " in the checkpoint"));
    }
    if (value.shape() != v.shape()) {
      errors::ThrowIfError(errors::InvalidArgument(
          "Restoring variable ", key, " from checkpoint ", save_path,
          ": Assign requires shapes of both tensors to match. lhs shape= ",
          v.shape().DebugString(),
          " rhs shape= ", value.shape().DebugString()));
    }
    feeds.emplace_back(restore_values_[i], value);
  }
  sess.run(restore_all_, feeds);
}

}  // namespace minitf::train
