#include "minitf/train/saver/saver.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../graph/memory_probe.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/tensor/allocator.h"
#include "minitf/tensor/errors.h"
#include "minitf/train/crc32c.h"
#include "minitf/train/saver/checkpoint_format.h"
#include "minitf/train/variables.h"

namespace minitf::train {
namespace {
namespace fs = std::filesystem;

// A fresh folder per test: CTest runs the tests of this binary in parallel.
std::string TestDir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path dir =
      fs::path(::testing::TempDir()) / "saver_test" / info->name();
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::vector<float> Values(const Tensor& t) {
  const float* p = t.data<float>();
  return std::vector<float>(p, p + t.NumElements());
}

template <typename E, typename F>
std::string ErrorOf(F f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "";
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

TEST(SaverTest, EveryAlteredByteAndEveryTruncationIsDataLoss) {
  const std::string dir = TestDir();
  Graph g;
  graph_scope use(g);
  Variable w(Tensor({1.f, 2.f}), "weight");
  Saver saver;
  Session sess;
  sess.run(global_variables_initializer());
  const std::string prefix = saver.save(sess, dir + "/model.ckpt");
  const std::string path = CheckpointDataPath(prefix);
  const std::string good = ReadFile(path);
  for (size_t i = 0; i < good.size(); ++i) {
    std::string bad = good;
    bad[i] ^= 0x01;
    WriteFile(path, bad);
    const std::string msg =
        ErrorOf<errors::DataLossError>([&] { saver.restore(sess, prefix); });
    EXPECT_NE(msg.find(path), std::string::npos) << "byte " << i;
  }
  for (size_t n = 0; n < good.size(); ++n) {
    WriteFile(path, good.substr(0, n));
    const std::string msg =
        ErrorOf<errors::DataLossError>([&] { saver.restore(sess, prefix); });
    EXPECT_NE(msg.find(path), std::string::npos) << "length " << n;
  }
  WriteFile(path, good);
  Session fresh;
  saver.restore(fresh, prefix);
  EXPECT_EQ(Values(fresh.run(w)), (std::vector<float>{1, 2}));
}

// Checkpoint bytes with any header count and record fields, every checksum
// right, as a file made to mislead the reader would have them.
class CheckpointBytes {
 public:
  explicit CheckpointBytes(uint64_t count) {
    out_ = std::string(kCheckpointMagic);
    Put(kCheckpointVersion, 4);
    Put(count, 4);
    Crc(0);
  }
  // One record: `name_len` may differ from name.size(), `data_len` from
  // data.size().
  CheckpointBytes& Record(uint64_t name_len, const std::string& name,
                          const std::vector<uint64_t>& dims, uint64_t data_len,
                          const std::string& data) {
    const size_t start = out_.size();
    Put(name_len, 4);
    out_ += name;
    Put(DT_FLOAT, 4);
    Put(dims.size(), 4);
    for (uint64_t d : dims) Put(d, 8);
    Put(data_len, 8);
    Crc(start);
    const size_t data_start = out_.size();
    out_ += data;
    Crc(data_start);
    return *this;
  }
  std::string Finish() const {
    std::string whole = out_;
    const std::string body = out_;
    for (int i = 0; i < 8; ++i) {
      whole.push_back(static_cast<char>(body.size() >> (8 * i)));
    }
    const uint32_t crc = crc32c::Mask(crc32c::Value(body));
    for (int i = 0; i < 4; ++i)
      whole.push_back(static_cast<char>(crc >> (8 * i)));
    return whole + std::string(kCheckpointFooterMagic);
  }

 private:
  void Put(uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i)
      out_.push_back(static_cast<char>(v >> (8 * i)));
  }
  void Crc(size_t from) {
    Put(crc32c::Mask(crc32c::Value(std::string_view(out_).substr(from))), 4);
  }
  std::string out_;
};

TEST(SaverTest, LengthsAndDimsBeyondTheFileAreDataLossWithoutAllocating) {
  const std::string path = TestDir() + "/model.ckpt.data-00000-of-00001";
  const std::string four_floats(16, '\0');
  // The format itself, read back whole, as a check of the helper.
  WriteFile(path,
            CheckpointBytes(1).Record(1, "w", {4}, 16, four_floats).Finish());
  std::vector<NamedTensor> tensors;
  ASSERT_TRUE(ReadCheckpoint(path, &tensors).ok());
  ASSERT_EQ(tensors.size(), 1u);
  EXPECT_EQ(tensors[0].second.shape(), TensorShape({4}));

  const uint64_t k2to31 = uint64_t{1} << 31, k2to60 = uint64_t{1} << 60;
  const std::pair<std::string, std::string> cases[] = {
      // Data lengths the file cannot hold.
      {CheckpointBytes(1)
           .Record(1, "w", {k2to60 / 4}, k2to60, four_floats)
           .Finish(),
       "bad data in record 0 (w)"},
      {CheckpointBytes(1)
           .Record(1, "w", {k2to31 / 4}, k2to31, four_floats)
           .Finish(),
       "bad data in record 0 (w)"},
      // Dims whose product wraps to 0 in 64 bits, with no data at all, and
      // dims of 2^31 and 2^60 elements with the 16 bytes there are.
      {CheckpointBytes(1)
           .Record(1, "w", {uint64_t{1} << 62, 4}, 0, "")
           .Finish(),
       "bad data in record 0 (w)"},
      {CheckpointBytes(1).Record(1, "w", {k2to31}, 16, four_floats).Finish(),
       "bad data in record 0 (w)"},
      {CheckpointBytes(1).Record(1, "w", {k2to60}, 16, four_floats).Finish(),
       "bad data in record 0 (w)"},
      // A name length past the end.
      {CheckpointBytes(1).Record(k2to31, "w", {4}, 16, four_floats).Finish(),
       "bad record 0"},
      // A count of 2^31 records with one there.
      {CheckpointBytes(k2to31).Record(1, "w", {4}, 16, four_floats).Finish(),
       "bad record 1"},
  };
  const int64_t before = testing::PeakResidentBytes();
  testing::LargestRequest allocator;
  for (const auto& [bytes, what] : cases) {
    WriteFile(path, bytes);
    Status s;
    {
      ScopedDefaultAllocator use(&allocator);
      s = ReadCheckpoint(path, &tensors);
    }
    // A read that fails after its first record keeps that tensor, whose
    // buffer `allocator` must free: let go of it while `allocator` lives.
    tensors.clear();
    EXPECT_EQ(s.code(), error::DATA_LOSS) << what;
    EXPECT_EQ(s.message(),
              "Unable to read checkpoint file " + path + ": " + what);
  }
  EXPECT_LT(allocator.largest(), size_t{1} << 20);
  EXPECT_LT(testing::PeakResidentBytes() - before, testing::kHugeBytes);
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
  Graph g;
  graph_scope use(g);
  Variable w(0.0f, "weight");
  Saver saver;
  Session sess;
  EXPECT_EQ(ErrorOf<errors::NotFoundError>(
                [&] { saver.restore(sess, dir + "/model.ckpt-7"); }),
            "Failed to find any matching files for " + dir + "/model.ckpt-7");
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
  WriteFile(dir + "/model.ckpt-2.data-00000-of-00001.tmp999_0", "minitfck\x01");
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
