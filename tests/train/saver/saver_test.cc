#include "minitf/train/saver/saver.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "file_test_util.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/tensor/errors.h"
#include "minitf/train/saver/atomic_file.h"
#include "minitf/train/saver/tensor_bundle.h"
#include "minitf/train/variables.h"

namespace minitf::train {
namespace {
namespace fs = std::filesystem;
using testing::ErrorOf;
using testing::ReadFile;
using testing::WriteFile;

std::string TestDir() { return testing::TestDir("saver_test"); }

std::vector<float> Values(const Tensor& t) {
  const float* p = t.data<float>();
  return std::vector<float>(p, p + t.NumElements());
}

// The NotFound message of restoring checkpoint `prefix` into a graph of one
// variable.
std::string RestoreNotFound(const std::string& prefix) {
  Graph g;
  graph_scope use(g);
  Variable w(0.0f, "weight");
  Saver saver;
  Session sess;
  return ErrorOf<errors::NotFoundError>([&] { saver.restore(sess, prefix); });
}

bool HasTmpFile(const std::string& dir) {
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().filename().string().find(".tmp") != std::string::npos) {
      return true;
    }
  }
  return false;
}

TEST(SaverTest, RoundTripIntoAFreshSessionWithoutInit) {
  const std::string dir = TestDir();
  Graph g;
  graph_scope use(g);
  Variable w(Tensor({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}}), "weight");
  Variable b(Tensor(int64_t{7}), "bias");
  Saver saver;
  std::string prefix;
  {
    Session sess;
    sess.run(global_variables_initializer());
    sess.run(w.assign(Tensor({{9.f, 8.f, 7.f}, {6.f, 5.f, 4.f}})));
    prefix = saver.save(sess, dir + "/model.ckpt");
  }
  EXPECT_EQ(prefix, dir + "/model.ckpt");
  EXPECT_TRUE(fs::exists(dir + "/model.ckpt.data-00000-of-00001"));
  EXPECT_TRUE(fs::exists(dir + "/model.ckpt.index"));
  EXPECT_TRUE(fs::exists(dir + "/model.ckpt.meta"));
  EXPECT_FALSE(HasTmpFile(dir));
  Session fresh;  // No initializer: restore sets every variable.
  saver.restore(fresh, prefix);
  EXPECT_EQ(Values(fresh.run(w)), (std::vector<float>{9, 8, 7, 6, 5, 4}));
  EXPECT_EQ(fresh.run(b).scalar<int64_t>(), 7);
}

TEST(SaverTest, GlobalStepNamingStateFileAndLatestCheckpoint) {
  const std::string dir = TestDir();
  Graph g;
  graph_scope use(g);
  Variable w(0.0f, "weight");
  Saver saver;
  Session sess;
  sess.run(global_variables_initializer());
  EXPECT_EQ(latest_checkpoint(dir), std::nullopt);
  EXPECT_EQ(saver.save(sess, dir + "/model.ckpt", 90), dir + "/model.ckpt-90");
  EXPECT_EQ(saver.save(sess, dir + "/model.ckpt", 100),
            dir + "/model.ckpt-100");
  EXPECT_EQ(ReadFile(dir + "/checkpoint"),
            "model_checkpoint_path: \"model.ckpt-100\"\n"
            "all_model_checkpoint_paths: \"model.ckpt-90\"\n"
            "all_model_checkpoint_paths: \"model.ckpt-100\"\n");
  EXPECT_EQ(latest_checkpoint(dir), dir + "/model.ckpt-100");
  const auto state = get_checkpoint_state(dir);
  ASSERT_TRUE(state.has_value());
  EXPECT_EQ(state->all_model_checkpoint_paths.size(), 2u);
  EXPECT_FALSE(HasTmpFile(dir));
}

TEST(SaverTest, MaxToKeepDeletesTheOldest) {
  const std::string dir = TestDir();
  Graph g;
  graph_scope use(g);
  Variable w(0.0f, "weight");
  Saver saver(global_variables(), /*max_to_keep=*/2);
  Session sess;
  sess.run(global_variables_initializer());
  for (int step = 1; step <= 3; ++step) saver.save(sess, dir + "/m", step);
  EXPECT_FALSE(fs::exists(dir + "/m-1.data-00000-of-00001"));
  EXPECT_FALSE(fs::exists(dir + "/m-1.index"));
  EXPECT_FALSE(fs::exists(dir + "/m-1.meta"));
  EXPECT_TRUE(fs::exists(dir + "/m-2.data-00000-of-00001"));
  EXPECT_TRUE(fs::exists(dir + "/m-3.data-00000-of-00001"));
  EXPECT_EQ(ReadFile(dir + "/checkpoint"),
            "model_checkpoint_path: \"m-3\"\n"
            "all_model_checkpoint_paths: \"m-2\"\n"
            "all_model_checkpoint_paths: \"m-3\"\n");
  EXPECT_EQ(saver.last_checkpoints(),
            (std::vector<std::string>{dir + "/m-2", dir + "/m-3"}));
}

TEST(SaverTest, ADamagedCheckpointIsATypedErrorNamingTheFile) {
  // tensor_bundle_test.cc flips every byte; here one in each file reaches
  // restore as the typed error.
  const std::string dir = TestDir();
  Graph g;
  graph_scope use(g);
  Variable w(Tensor({1.f, 2.f}), "weight");
  Saver saver;
  Session sess;
  sess.run(global_variables_initializer());
  const std::string prefix = saver.save(sess, dir + "/model.ckpt");
  const std::string index = BundleIndexPath(prefix);
  const std::string data = BundleDataPath(prefix, 0, 1);
  const std::string good_index = ReadFile(index), good_data = ReadFile(data);
  std::string bad = good_data;
  bad[5] ^= 0x01;
  WriteFile(data, bad);
  std::string msg =
      ErrorOf<errors::DataLossError>([&] { saver.restore(sess, prefix); });
  EXPECT_NE(msg.find("Checksum does not match"), std::string::npos) << msg;
  EXPECT_NE(msg.find("tensor weight in " + data), std::string::npos) << msg;
  WriteFile(data, good_data.substr(0, 4));
  msg = ErrorOf<errors::OutOfRangeError>([&] { saver.restore(sess, prefix); });
  EXPECT_NE(msg.find("Read less bytes than requested"), std::string::npos);
  EXPECT_NE(msg.find(data), std::string::npos) << msg;
  WriteFile(data, good_data);
  bad = good_index;
  bad[3] ^= 0x01;
  WriteFile(index, bad);
  msg = ErrorOf<errors::DataLossError>([&] { saver.restore(sess, prefix); });
  EXPECT_NE(msg.find("Unable to read file (" + index + ")"), std::string::npos)
      << msg;
  EXPECT_NE(msg.find("block checksum mismatch"), std::string::npos) << msg;
  WriteFile(index, good_index.substr(0, 20));
  msg = ErrorOf<errors::DataLossError>([&] { saver.restore(sess, prefix); });
  EXPECT_NE(msg.find("file is too short to be an sstable"), std::string::npos)
      << msg;
  WriteFile(index, good_index);
  Session fresh;
  saver.restore(fresh, prefix);
  EXPECT_EQ(Values(fresh.run(w)), (std::vector<float>{1, 2}));
}

TEST(SaverTest, AStateFileThatIsNotOneIsDataLossNamingIt) {
  // The `checkpoint` state file has no lengths to trust: it is lines of
  // text, read as far as they go.
  const std::string dir = TestDir();
  WriteFile(dir + "/checkpoint", std::string("\x01\xff\xff\xff\x0f", 5));
  EXPECT_EQ(
      ErrorOf<errors::DataLossError>([&] {
        get_checkpoint_state(dir);
      }).find("Unable to parse checkpoint state file " + dir + "/checkpoint"),
      0u);
}

TEST(SaverTest, MissingCheckpointIsNotFoundNamingThePath) {
  const std::string dir = TestDir();
  // TensorFlow's state file, timestamps included, naming a checkpoint that
  // is gone: latest_checkpoint is None, and restoring it is NotFound.
  WriteFile(dir + "/checkpoint",
            "model_checkpoint_path: \"model.ckpt-7\"\n"
            "all_model_checkpoint_paths: \"model.ckpt-7\"\n"
            "all_model_checkpoint_timestamps: 1795866354.06\n"
            "last_preserved_timestamp: 1795866350.5\n");
  ASSERT_TRUE(get_checkpoint_state(dir).has_value());
  EXPECT_EQ(get_checkpoint_state(dir)->model_checkpoint_path, "model.ckpt-7");
  EXPECT_EQ(latest_checkpoint(dir), std::nullopt);
  EXPECT_EQ(RestoreNotFound(dir + "/model.ckpt-7"),
            "Failed to find any matching files for " + dir + "/model.ckpt-7");
}

TEST(SaverTest, ACheckpointNameTooLongForTheFileSystemIsNotThere) {
  // A name of 300 bytes in one folder: the file system refuses to look it
  // up (ENAMETOOLONG) rather than answering that it is not there.
  const std::string dir = TestDir();
  const std::string name = std::string(300, 'm') + ".ckpt-200";
  WriteFile(dir + "/checkpoint", "model_checkpoint_path: \"" + name + "\"\n");
  EXPECT_EQ(latest_checkpoint(dir), std::nullopt);
  EXPECT_EQ(RestoreNotFound(dir + "/" + name),
            "Failed to find any matching files for " + dir + "/" + name);
}

TEST(SaverTest, MissingKeyAndShapeMismatch) {
  const std::string dir = TestDir();
  std::string prefix;
  {
    Graph g;
    graph_scope use(g);
    Variable w(Tensor({1.f, 2.f, 3.f}), "weight");
    Saver saver;
    Session sess;
    sess.run(global_variables_initializer());
    prefix = saver.save(sess, dir + "/model.ckpt");
  }
  {
    Graph g;
    graph_scope use(g);
    Variable w(Tensor({1.f, 2.f, 3.f}), "weight");
    Variable b(0.0f, "bias");
    Saver saver;
    Session sess;
    EXPECT_NE(ErrorOf<errors::NotFoundError>([&] {
                saver.restore(sess, prefix);
              }).find("Key bias not found in checkpoint"),
              std::string::npos);
  }
  {
    Graph g;
    graph_scope use(g);
    Variable w(Tensor({{1.f, 2.f}, {3.f, 4.f}}), "weight");
    Saver saver;
    Session sess;
    const std::string msg = ErrorOf<errors::InvalidArgumentError>(
        [&] { saver.restore(sess, prefix); });
    EXPECT_NE(msg.find("weight"), std::string::npos) << msg;
    EXPECT_NE(msg.find("[2,2]"), std::string::npos) << msg;
    EXPECT_NE(msg.find("[3]"), std::string::npos) << msg;
  }
  {
    Graph g;
    graph_scope use(g);
    Variable w(Tensor({1, 2, 3}), "weight");
    Saver saver;
    Session sess;
    const std::string msg = ErrorOf<errors::InvalidArgumentError>(
        [&] { saver.restore(sess, prefix); });
    EXPECT_NE(msg.find("int32"), std::string::npos) << msg;
    EXPECT_NE(msg.find("float"), std::string::npos) << msg;
  }
}

// A crash mid-save leaves a temporary file; the previous checkpoint and the
// state file naming it are untouched, and the stray file is ignored.
TEST(SaverTest, StrayTmpFilesFromACrashedSaveAreIgnored) {
  const std::string dir = TestDir();
  Graph g;
  graph_scope use(g);
  Variable w(Tensor({1.f, 2.f}), "weight");
  Saver saver;
  Session sess;
  sess.run(global_variables_initializer());
  saver.save(sess, dir + "/model.ckpt", 1);
  const std::string state = ReadFile(dir + "/checkpoint");
  // What a save of step 2 killed before its renames would leave.
  WriteFile(dir + "/model.ckpt-2.data-00000-of-00001", "\x01\x02");
  WriteFile(dir + "/model.ckpt-2.index.tmp999_0", "\x01");
  WriteFile(dir + "/checkpoint.tmp999_1", "model_checkpoint_path: \"mo");
  EXPECT_EQ(ReadFile(dir + "/checkpoint"), state);
  const std::optional<std::string> latest = latest_checkpoint(dir);
  ASSERT_EQ(latest, dir + "/model.ckpt-1");
  Session fresh;
  saver.restore(fresh, *latest);
  EXPECT_EQ(Values(fresh.run(w)), (std::vector<float>{1, 2}));
}

TEST(SaverTest, WriteFileAtomicallyReplacesWholeFiles) {
  const std::string dir = TestDir();
  const std::string path = dir + "/f";
  ASSERT_TRUE(WriteFileAtomically(path, "old").ok());
  ASSERT_TRUE(WriteFileAtomically(path, "new contents").ok());
  EXPECT_EQ(ReadFile(path), "new contents");
  EXPECT_FALSE(HasTmpFile(dir));
  EXPECT_TRUE(errors::IsNotFound(WriteFileAtomically(dir + "/no/f", "x")));
}

}  // namespace
}  // namespace minitf::train
