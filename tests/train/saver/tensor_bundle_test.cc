#include "minitf/train/saver/tensor_bundle.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../graph/memory_probe.h"
#include "file_test_util.h"
#include "minitf/graph/proto_convert.h"
#include "minitf/tensor/allocator.h"
#include "minitf/tensor/errors.h"
#include "minitf/train/crc32c.h"
#include "minitf/train/proto/tensor_bundle.pb.h"
#include "minitf/train/saver/table.h"

namespace minitf::train {
namespace {
namespace fs = std::filesystem;
using testing::ErrorOf;
using testing::ReadFile;
using testing::WriteFile;

std::string TestDir() { return testing::TestDir("tensor_bundle_test"); }

const std::string kTfDir = MINITF_TF_CHECKPOINTS_DIR;

// The tensors of TensorFlow's testdata/tf_checkpoints/model.ckpt, in the
// order its Saver wrote them (sorted by name).
std::vector<NamedTensor> TfModelTensors() {
  return {{"bias", Tensor(int64_t{7})},
          {"weight", Tensor({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}})}};
}

TEST(TableTest, EntriesRoundTripAcrossBlocksAndRestarts) {
  // Blocks of about 64 bytes and a restart every 3 entries: many of each.
  TableBuilder builder(/*block_size=*/64, /*restart_interval=*/3);
  std::vector<std::pair<std::string, std::string>> want;
  for (int i = 0; i < 100; ++i) {
    char key[32];
    std::snprintf(key, sizeof(key), "layer_%03d/weights", i);
    want.emplace_back(key, std::string(i % 7, static_cast<char>('a' + i % 26)));
    builder.Add(want.back().first, want.back().second);
  }
  const std::string file = builder.Finish();
  std::vector<std::pair<std::string, std::string>> got;
  ASSERT_TRUE(ReadTable(file, "t", &got).ok());
  EXPECT_EQ(got, want);
}

TEST(TableTest, EmptyTableAndShortOrForeignFiles) {
  std::vector<std::pair<std::string, std::string>> got;
  ASSERT_TRUE(ReadTable(TableBuilder().Finish(), "t", &got).ok());
  EXPECT_TRUE(got.empty());
  const Status short_file = ReadTable("abc", "/x/t", &got);
  EXPECT_EQ(short_file.code(), error::DATA_LOSS);
  EXPECT_EQ(short_file.message(),
            "Unable to read table /x/t: file is too short to be an sstable");
  EXPECT_EQ(ReadTable(std::string(48, 'z'), "/x/t", &got).message(),
            "Unable to read table /x/t: not an sstable (bad magic number)");
}

TEST(TensorBundleTest, WritesTensorFlowsBytesExactly) {
  // The same tensors in the same order give the very bytes TensorFlow wrote:
  // header entry, prefix-compressed keys, restart array, trailers, the index
  // key "x" after "weight", and the footer.
  const BundleBytes bytes = EncodeBundle({TfModelTensors()});
  EXPECT_EQ(bytes.index, ReadFile(kTfDir + "/model.ckpt.index"));
  ASSERT_EQ(bytes.data.size(), 1u);
  EXPECT_EQ(bytes.data[0],
            ReadFile(kTfDir + "/model.ckpt.data-00000-of-00001"));
}

TEST(TensorBundleTest, ReadsTensorFlowsCheckpoint) {
  std::vector<NamedTensor> tensors;
  ASSERT_TRUE(ReadBundle(kTfDir + "/model.ckpt", &tensors).ok());
  ASSERT_EQ(tensors.size(), 2u);
  EXPECT_EQ(tensors[0].first, "bias");
  EXPECT_EQ(tensors[0].second.scalar<int64_t>(), 7);
  EXPECT_EQ(tensors[1].first, "weight");
  EXPECT_EQ(tensors[1].second.shape(), TensorShape({2, 3}));
  const float* w = tensors[1].second.data<float>();
  EXPECT_EQ(std::vector<float>(w, w + 6),
            (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST(TensorBundleTest, ReadsTensorFlowsShardedCheckpoint) {
  // Two data files, one per device, and one index naming the shard of each.
  std::vector<NamedTensor> tensors;
  ASSERT_TRUE(ReadBundle(kTfDir + "/sharded/m", &tensors).ok());
  ASSERT_EQ(tensors.size(), 2u);
  EXPECT_EQ(tensors[0].first, "a");
  EXPECT_EQ(tensors[0].second.data<float>()[1], 2.f);
  EXPECT_EQ(tensors[1].first, "c");
  EXPECT_EQ(tensors[1].second.data<int32_t>()[1], 4);
}

TEST(TensorBundleTest, ShardedRoundTrip) {
  const std::string prefix = TestDir() + "/m";
  ASSERT_TRUE(WriteBundle(prefix, {{{"b", Tensor({1.f, 2.f})}},
                                   {{"a", Tensor(3)}, {"c", Tensor(true)}},
                                   {{"d", Tensor({4.0, 5.0})}}})
                  .ok());
  EXPECT_TRUE(fs::exists(prefix + ".data-00002-of-00003"));
  std::vector<NamedTensor> tensors;
  ASSERT_TRUE(ReadBundle(prefix, &tensors).ok());
  ASSERT_EQ(tensors.size(), 4u);
  EXPECT_EQ(tensors[0].first, "a");
  EXPECT_EQ(tensors[0].second.scalar<int32_t>(), 3);
  EXPECT_EQ(tensors[3].second.data<double>()[1], 5.0);
  // A data file gone is NotFound naming it.
  fs::remove(prefix + ".data-00001-of-00003");
  const Status s = ReadBundle(prefix, &tensors);
  EXPECT_EQ(s.code(), error::NOT_FOUND);
  EXPECT_NE(s.message().find(prefix + ".data-00001-of-00003"),
            std::string::npos)
      << s.message();
}

TEST(TensorBundleTest, EveryAlteredOrMissingByteIsATypedErrorNamingTheFile) {
  const std::string prefix = TestDir() + "/model.ckpt";
  ASSERT_TRUE(WriteBundle(prefix, TfModelTensors()).ok());
  const std::string index = BundleIndexPath(prefix);
  const std::string data = BundleDataPath(prefix, 0, 1);
  std::vector<NamedTensor> tensors;
  for (const std::string& path : {index, data}) {
    const std::string good = ReadFile(path);
    // A flipped byte: refused naming the file, except in the footer's
    // padding, which no reader looks at, TensorFlow's included.
    for (size_t i = 0; i < good.size(); ++i) {
      std::string bad = good;
      bad[i] ^= 0x01;
      WriteFile(path, bad);
      const Status s = ReadBundle(prefix, &tensors);
      if (s.ok()) {
        EXPECT_EQ(path, index);
        EXPECT_GE(i, good.size() - kTableFooterSize);
        continue;
      }
      EXPECT_TRUE(s.code() == error::DATA_LOSS) << s;
      EXPECT_NE(s.message().find(path), std::string::npos) << i << ": " << s;
      if (path == data) {
        EXPECT_NE(s.message().find("Checksum does not match"),
                  std::string::npos);
        EXPECT_NE(s.message().find(i < 8 ? "tensor bias" : "tensor weight"),
                  std::string::npos)
            << s;
      }
    }
    for (size_t n = 0; n < good.size(); ++n) {
      WriteFile(path, good.substr(0, n));
      const Status s = ReadBundle(prefix, &tensors);
      EXPECT_TRUE(s.code() ==
                  (path == index ? error::DATA_LOSS : error::OUT_OF_RANGE))
          << n << ": " << s;
      EXPECT_NE(s.message().find(path), std::string::npos) << n << ": " << s;
    }
    WriteFile(path, good);
  }
  ASSERT_TRUE(ReadBundle(prefix, &tensors).ok());
  EXPECT_EQ(tensors[0].second.scalar<int64_t>(), 7);
}

// An index whose checksums are all right but whose entry for "w" says what
// `entry` says, as a file made to mislead the reader would.
std::string IndexWithEntry(const proto::BundleEntryProto& entry) {
  proto::BundleHeaderProto header;
  header.set_num_shards(1);
  TableBuilder table;
  table.Add("", header.SerializeAsString());
  table.Add("w", entry.SerializeAsString());
  return table.Finish();
}

TEST(TensorBundleTest, EntriesBeyondTheDataAreRefusedWithoutAllocating) {
  const std::string prefix = TestDir() + "/m";
  const std::string four_floats(16, '\0');
  WriteFile(BundleDataPath(prefix, 0, 1), four_floats);
  auto entry = [&](std::vector<int64_t> dims, int64_t size, int shard = 0,
                   int64_t offset = 0) {
    proto::BundleEntryProto e;
    e.set_dtype(proto::DT_FLOAT);
    for (int64_t d : dims) e.mutable_shape()->add_dim()->set_size(d);
    e.set_shard_id(shard);
    e.set_offset(offset);
    e.set_size(size);
    e.set_crc32c(crc32c::Mask(crc32c::Value(four_floats)));
    return e;
  };
  const int64_t k2to31 = int64_t{1} << 31, k2to60 = int64_t{1} << 60;
  const std::pair<proto::BundleEntryProto, error::Code> cases[] = {
      {entry({4}, 16), error::OK},
      // Sizes the file cannot hold.
      {entry({k2to60 / 4}, k2to60), error::OUT_OF_RANGE},
      {entry({k2to31 / 4}, k2to31), error::OUT_OF_RANGE},
      {entry({4}, 16, 0, k2to60), error::OUT_OF_RANGE},
      // Dims that disagree with the size, or overflow.
      {entry({k2to60}, 16), error::DATA_LOSS},
      {entry({int64_t{1} << 62, 4}, 0), error::DATA_LOSS},
      {entry({4}, 12), error::DATA_LOSS},
      // A shard the header does not have, a negative offset.
      {entry({4}, 16, 1), error::DATA_LOSS},
      {entry({4}, 16, 0, -1), error::DATA_LOSS},
  };
  const int64_t before = testing::PeakResidentBytes();
  testing::LargestRequest allocator;
  for (const auto& [e, code] : cases) {
    WriteFile(BundleIndexPath(prefix), IndexWithEntry(e));
    std::vector<NamedTensor> tensors;
    Status s;
    {
      ScopedDefaultAllocator use(&allocator);
      s = ReadBundle(prefix, &tensors);
      tensors.clear();
    }
    EXPECT_EQ(s.code(), code) << e.DebugString() << s;
    if (!s.ok()) {
      EXPECT_NE(s.message().find("w"), std::string::npos) << s;
    }
  }
  EXPECT_LT(allocator.largest(), size_t{1} << 20);
  EXPECT_LT(testing::PeakResidentBytes() - before, testing::kHugeBytes);
}

TEST(TensorBundleTest, SlicesAndForeignDtypesAreUnimplementedNamingTheTensor) {
  const std::string prefix = TestDir() + "/m";
  WriteFile(BundleDataPath(prefix, 0, 1), "");
  proto::BundleEntryProto sliced;
  sliced.set_dtype(proto::DT_FLOAT);
  sliced.add_slices()->add_extent()->set_start(0);
  WriteFile(BundleIndexPath(prefix), IndexWithEntry(sliced));
  std::vector<NamedTensor> tensors;
  Status s = ReadBundle(prefix, &tensors);
  EXPECT_EQ(s.code(), error::UNIMPLEMENTED);
  EXPECT_NE(s.message().find("Tensor w"), std::string::npos) << s;
  proto::BundleEntryProto half;
  half.set_dtype(proto::DT_HALF);
  WriteFile(BundleIndexPath(prefix), IndexWithEntry(half));
  s = ReadBundle(prefix, &tensors);
  EXPECT_EQ(s.code(), error::UNIMPLEMENTED);
  EXPECT_NE(s.message().find("Tensor w"), std::string::npos) << s;
}

}  // namespace
}  // namespace minitf::train
