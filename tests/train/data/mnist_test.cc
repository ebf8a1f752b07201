// Tests of the IDX reader and read_data_sets. Each test writes its own small
// IDX files (plain and gzipped) into a fresh folder; only RealFashionMnist
// reads the Debian package, and skips when it is not installed.
#include "minitf/train/data/mnist.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "../graph/memory_probe.h"
#include "minitf/tensor/errors.h"
#include "minitf/train/data/idx.h"

namespace minitf::datasets {
namespace {

namespace fs = std::filesystem;
using mnist::Batch;
using mnist::Datasets;
using mnist::read_data_sets;
using mnist::ReadDataSets;
using ::testing::HasSubstr;

std::string IdxBytes(uint32_t magic, const std::vector<uint32_t>& dims,
                     const std::vector<uint8_t>& data) {
  std::string out;
  auto put32 = [&out](uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(v >> shift);
  };
  put32(magic);
  for (uint32_t d : dims) put32(d);
  out.append(data.begin(), data.end());
  return out;
}

void WritePlain(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string Gzip(const std::string& bytes) {
  z_stream zs{};
  EXPECT_EQ(deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY),
            Z_OK);
  std::string out(deflateBound(&zs, bytes.size()), '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  zs.avail_in = bytes.size();
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = out.size();
  EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

// Example i of a small set: image pixels i, i+1, ... (so each image is
// recognisable by its first pixel), label i % 10.
struct Examples {
  std::vector<uint8_t> pixels;
  std::vector<uint8_t> labels;
};
Examples MakeExamples(uint32_t n, uint32_t rows, uint32_t cols,
                      uint8_t first = 0) {
  Examples e;
  for (uint32_t i = 0; i < n; ++i) {
    for (uint32_t p = 0; p < rows * cols; ++p) {
      e.pixels.push_back(static_cast<uint8_t>(first + i + p * 7));
    }
    e.labels.push_back((first + i) % 10);
  }
  return e;
}

class MnistTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char name[] = "/tmp/minitf_mnist_test_XXXXXX";
    ASSERT_NE(mkdtemp(name), nullptr);
    dir_ = name;
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Writes one pair of files, gzipped (with ".gz") or plain.
  void WritePair(const std::string& prefix, const Examples& e, uint32_t rows,
                 uint32_t cols, bool gzip) {
    const uint32_t n = e.labels.size();
    const std::string images =
        IdxBytes(kIdxImagesMagic, {n, rows, cols}, e.pixels);
    const std::string labels = IdxBytes(kIdxLabelsMagic, {n}, e.labels);
    Write(prefix + "-images-idx3-ubyte", images, gzip);
    Write(prefix + "-labels-idx1-ubyte", labels, gzip);
  }
  void Write(const std::string& name, const std::string& bytes, bool gzip) {
    if (gzip) {
      WritePlain(dir_ / (name + ".gz"), Gzip(bytes));
    } else {
      WritePlain(dir_ / name, bytes);
    }
  }
  // 12 training examples and 4 test examples of 2x3 pixels.
  void WriteSmallSet(bool gzip = true) {
    WritePair("train", MakeExamples(12, 2, 3), 2, 3, gzip);
    WritePair("t10k", MakeExamples(4, 2, 3, 100), 2, 3, gzip);
  }
  std::string Dir() const { return dir_.string(); }

  fs::path dir_;
};

// The first pixel of each row of `images` [n, pixels], back in 0..255.
std::vector<int> FirstPixels(const Tensor& images) {
  std::vector<int> out;
  const int64_t width = images.shape().dim_size(1);
  for (int64_t i = 0; i < images.shape().dim_size(0); ++i) {
    out.push_back(
        static_cast<int>(images.data<float>()[i * width] * 255.f + 0.5f));
  }
  return out;
}

TEST_F(MnistTest, IdxReadsPlainAndGzippedFilesAlike) {
  const std::string bytes =
      IdxBytes(kIdxImagesMagic, {2, 1, 3}, {1, 2, 3, 4, 5, 255});
  WritePlain(dir_ / "plain", bytes);
  WritePlain(dir_ / "packed.gz", Gzip(bytes));
  for (const char* name : {"plain", "packed.gz"}) {
    StatusOr<IdxArray> idx = ReadIdx((dir_ / name).string(), kIdxImagesMagic);
    ASSERT_TRUE(idx.ok()) << idx.status();
    EXPECT_EQ(idx->magic, kIdxImagesMagic);
    EXPECT_EQ(idx->dims, (std::vector<int64_t>{2, 1, 3}));
    EXPECT_EQ(idx->data, (std::vector<uint8_t>{1, 2, 3, 4, 5, 255}));
  }
}

TEST_F(MnistTest, IdxReadsConcatenatedGzipMembers) {
  const std::string bytes = IdxBytes(kIdxLabelsMagic, {4}, {1, 2, 3, 4});
  WritePlain(dir_ / "two.gz", Gzip(bytes.substr(0, 6)) + Gzip(bytes.substr(6)));
  StatusOr<IdxArray> idx = ReadIdx((dir_ / "two.gz").string());
  ASSERT_TRUE(idx.ok()) << idx.status();
  EXPECT_EQ(idx->data, (std::vector<uint8_t>{1, 2, 3, 4}));
}

TEST_F(MnistTest, ImagesAreScaledToUnitRangeAndLabelsAreClassIds) {
  WriteSmallSet();
  Datasets sets = read_data_sets(Dir(), /*one_hot=*/false,
                                 /*validation_size=*/2);
  const Tensor& x = sets.train.images();
  ASSERT_EQ(x.dtype(), float32);
  ASSERT_EQ(x.shape(), TensorShape({10, 6}));
  const Examples e = MakeExamples(12, 2, 3);
  for (int64_t i = 0; i < 10 * 6; ++i) {
    // As TF: uint8 -> float32, times float32(1/255).
    EXPECT_EQ(x.data<float>()[i], static_cast<float>(e.pixels[12 + i]) *
                                      static_cast<float>(1.0 / 255.0));
  }
  const Tensor& y = sets.train.labels();
  ASSERT_EQ(y.dtype(), int64);
  ASSERT_EQ(y.shape(), TensorShape({10}));
  for (int64_t i = 0; i < 10; ++i)
    EXPECT_EQ(y.data<int64_t>()[i], (i + 2) % 10);
  EXPECT_EQ(FirstPixels(sets.validation.images()), (std::vector<int>{0, 1}));
  EXPECT_EQ(FirstPixels(sets.test.images()),
            (std::vector<int>{100, 101, 102, 103}));
}

TEST_F(MnistTest, WhitePixelIsExactlyOne) {
  Examples e{{0, 255, 128, 1}, {3}};
  WritePair("train", e, 2, 2, false);
  WritePair("t10k", e, 2, 2, false);
  Datasets sets = read_data_sets(Dir(), false, 0);
  const float* x = sets.test.images().data<float>();
  EXPECT_EQ(x[0], 0.f);
  EXPECT_EQ(x[1], 1.f);
  EXPECT_FLOAT_EQ(x[2], 128.f / 255.f);
}

TEST_F(MnistTest, OneHotLabelsAreFloatRowsOfTen) {
  WriteSmallSet();
  Datasets sets = read_data_sets(Dir(), /*one_hot=*/true, 2);
  const Tensor& y = sets.test.labels();
  ASSERT_EQ(y.dtype(), float32);
  ASSERT_EQ(y.shape(), TensorShape({4, 10}));
  for (int64_t i = 0; i < 4; ++i) {
    for (int64_t c = 0; c < 10; ++c) {
      EXPECT_EQ(y.data<float>()[i * 10 + c], c == (100 + i) % 10 ? 1.f : 0.f)
          << i << "," << c;
    }
  }
}

TEST_F(MnistTest, PlainFilesWorkWithoutGz) {
  WriteSmallSet(/*gzip=*/false);
  Datasets sets = read_data_sets(Dir(), false, 3);
  EXPECT_EQ(sets.train.num_examples(), 9);
  EXPECT_EQ(sets.validation.num_examples(), 3);
  EXPECT_EQ(sets.test.num_examples(), 4);
}

TEST_F(MnistTest, ValidationIsTheFirstTrainingExamples) {
  WriteSmallSet();
  for (int64_t v : {0, 1, 5, 12}) {
    Datasets sets = read_data_sets(Dir(), false, v);
    EXPECT_EQ(sets.validation.num_examples(), v);
    EXPECT_EQ(sets.validation.images().shape(), TensorShape({v, 6}));
    EXPECT_EQ(sets.train.num_examples(), 12 - v);
    EXPECT_EQ(sets.test.num_examples(), 4);
    if (v > 0) {
      EXPECT_EQ(FirstPixels(sets.validation.images())[0], 0);
    }
    if (v < 12) {
      EXPECT_EQ(FirstPixels(sets.train.images())[0], v);
    }
  }
}

TEST_F(MnistTest, ValidationSizeOutOfRangeIsInvalidArgument) {
  WriteSmallSet();
  for (int64_t v : {-1, 13}) {
    StatusOr<Datasets> sets = ReadDataSets(Dir(), false, v);
    ASSERT_FALSE(sets.ok());
    EXPECT_EQ(sets.status().code(), error::INVALID_ARGUMENT);
    EXPECT_THAT(sets.status().message(),
                HasSubstr("Validation size should be between 0 and 12"));
  }
  EXPECT_THROW(read_data_sets(Dir(), false, 13), errors::InvalidArgumentError);
}

TEST_F(MnistTest, NextBatchWithoutShuffleWalksInOrderAcrossEpochs) {
  WriteSmallSet();
  Datasets sets = read_data_sets(Dir(), false, 7);  // Train: examples 7..11.
  mnist::DataSet& train = sets.train;
  auto [x1, y1] = train.next_batch(3, /*shuffle=*/false);
  EXPECT_EQ(x1.shape(), TensorShape({3, 6}));
  EXPECT_EQ(y1.shape(), TensorShape({3}));
  EXPECT_EQ(FirstPixels(x1), (std::vector<int>{7, 8, 9}));
  EXPECT_EQ(train.epochs_completed(), 0);
  // Past the end: the rest of epoch 0, then the start of epoch 1.
  auto [x2, y2] = train.next_batch(3, false);
  EXPECT_EQ(FirstPixels(x2), (std::vector<int>{10, 11, 7}));
  EXPECT_EQ(y2.data<int64_t>()[0], 0);
  EXPECT_EQ(y2.data<int64_t>()[2], 7);
  EXPECT_EQ(train.epochs_completed(), 1);
  auto [x3, y3] = train.next_batch(3, false);
  EXPECT_EQ(FirstPixels(x3), (std::vector<int>{8, 9, 10}));
}

TEST_F(MnistTest, AnEpochEndingExactlyIsCountedOnTheNextCall) {
  WriteSmallSet();
  Datasets sets = read_data_sets(Dir(), false, 7);
  sets.train.next_batch(5, false);
  EXPECT_EQ(sets.train.epochs_completed(), 0);  // As TF: counted lazily.
  auto [x, y] = sets.train.next_batch(2, false);
  EXPECT_EQ(sets.train.epochs_completed(), 1);
  EXPECT_EQ(FirstPixels(x), (std::vector<int>{7, 8}));
}

TEST_F(MnistTest, ShuffledEpochIsAPermutationAndKeepsPairs) {
  WritePair("train", MakeExamples(60, 2, 2), 2, 2, true);
  WritePair("t10k", MakeExamples(5, 2, 2), 2, 2, true);
  Datasets sets = read_data_sets(Dir(), false, 10);
  auto [x, y] = sets.train.next_batch(50);
  const std::vector<int> first = FirstPixels(x);
  EXPECT_EQ(std::set<int>(first.begin(), first.end()).size(), 50u);
  EXPECT_EQ(*std::min_element(first.begin(), first.end()), 10);
  EXPECT_EQ(*std::max_element(first.begin(), first.end()), 59);
  std::vector<int> sorted(first);
  std::sort(sorted.begin(), sorted.end());
  EXPECT_NE(first, sorted);
  for (int i = 0; i < 50; ++i) {
    EXPECT_EQ(y.data<int64_t>()[i], first[i] % 10) << "row " << i;
  }
  // images() and labels() show the shuffled order, as TF's properties.
  EXPECT_EQ(FirstPixels(sets.train.images()), first);
}

TEST_F(MnistTest, BatchStraddlingEpochsJoinsOldRestAndNewShuffle) {
  WritePair("train", MakeExamples(20, 1, 1), 1, 1, true);
  WritePair("t10k", MakeExamples(2, 1, 1), 1, 1, true);
  Datasets sets = read_data_sets(Dir(), false, 0);
  mnist::DataSet& train = sets.train;
  train.next_batch(15);
  const std::vector<int> epoch0 = FirstPixels(train.images());
  auto [x, y] = train.next_batch(8);
  const std::vector<int> epoch1 = FirstPixels(train.images());
  EXPECT_NE(epoch0, epoch1);  // Reshuffled at the epoch boundary.
  const std::vector<int> expected = {epoch0[15], epoch0[16], epoch0[17],
                                     epoch0[18], epoch0[19], epoch1[0],
                                     epoch1[1],  epoch1[2]};
  EXPECT_EQ(FirstPixels(x), expected);
  EXPECT_EQ(train.epochs_completed(), 1);
  auto [x2, y2] = train.next_batch(2);
  EXPECT_EQ(FirstPixels(x2), (std::vector<int>{epoch1[3], epoch1[4]}));
}

TEST_F(MnistTest, SameSeedSameBatchesOtherSeedOthers) {
  WritePair("train", MakeExamples(40, 1, 1), 1, 1, true);
  WritePair("t10k", MakeExamples(2, 1, 1), 1, 1, true);
  auto batches = [&](uint64_t seed) {
    Datasets sets = read_data_sets(Dir(), false, 0, seed);
    std::vector<int> all;
    for (int i = 0; i < 7; ++i) {
      for (int p : FirstPixels(sets.train.next_batch(13).images)) {
        all.push_back(p);
      }
    }
    return all;
  };
  EXPECT_EQ(batches(1), batches(1));
  EXPECT_NE(batches(1), batches(2));
  EXPECT_EQ(batches(mnist::kDefaultSeed), batches(mnist::kDefaultSeed));
}

TEST_F(MnistTest, BadBatchSizeIsInvalidArgument) {
  WriteSmallSet();
  Datasets sets = read_data_sets(Dir(), false, 2);
  EXPECT_THROW(sets.train.next_batch(0), errors::InvalidArgumentError);
  EXPECT_THROW(sets.train.next_batch(11), errors::InvalidArgumentError);
  EXPECT_EQ(sets.train.next_batch(10).images.shape(), TensorShape({10, 6}));
}

// Error paths: each must be a typed error whose message names the file.
void ExpectError(const StatusOr<Datasets>& sets, error::Code code,
                 const std::string& path, const std::string& what) {
  ASSERT_FALSE(sets.ok());
  EXPECT_EQ(sets.status().code(), code) << sets.status();
  EXPECT_THAT(sets.status().message(), HasSubstr(path));
  EXPECT_THAT(sets.status().message(), HasSubstr(what));
}

TEST_F(MnistTest, MissingFileIsNotFoundNamingThePath) {
  WriteSmallSet();
  fs::remove(dir_ / "t10k-labels-idx1-ubyte.gz");
  ExpectError(ReadDataSets(Dir()), error::NOT_FOUND,
              (dir_ / "t10k-labels-idx1-ubyte.gz").string(), "not found");
  EXPECT_THROW(read_data_sets(Dir()), errors::NotFoundError);
  StatusOr<IdxArray> idx = ReadIdx((dir_ / "nothing").string());
  EXPECT_EQ(idx.status().code(), error::NOT_FOUND);
  EXPECT_THAT(idx.status().message(), HasSubstr((dir_ / "nothing").string()));
}

TEST_F(MnistTest, WrongMagicIsDataLoss) {
  WriteSmallSet();
  // A labels file where the images file should be.
  Write("train-images-idx3-ubyte", IdxBytes(kIdxLabelsMagic, {3}, {1, 2, 3}),
        true);
  ExpectError(ReadDataSets(Dir(), false, 0), error::DATA_LOSS,
              "train-images-idx3-ubyte.gz", "magic number 0x00000801");
  EXPECT_THROW(read_data_sets(Dir(), false, 0), errors::DataLossError);
  // Not an IDX file at all.
  WritePlain(dir_ / "text", "hello, world");
  StatusOr<IdxArray> idx = ReadIdx((dir_ / "text").string());
  EXPECT_EQ(idx.status().code(), error::DATA_LOSS);
  EXPECT_THAT(idx.status().message(), HasSubstr("magic number"));
}

TEST_F(MnistTest, TruncatedDataIsDataLoss) {
  WriteSmallSet();
  std::string images =
      IdxBytes(kIdxImagesMagic, {4, 2, 3}, MakeExamples(4, 2, 3, 100).pixels);
  Write("t10k-images-idx3-ubyte", images.substr(0, images.size() - 1), true);
  ExpectError(ReadDataSets(Dir(), false, 0), error::DATA_LOSS,
              "t10k-images-idx3-ubyte.gz", "truncated");
  // Cut inside the header, and before the magic number ends.
  for (size_t size : {size_t{9}, size_t{2}}) {
    WritePlain(dir_ / "short", images.substr(0, size));
    StatusOr<IdxArray> idx = ReadIdx((dir_ / "short").string());
    EXPECT_EQ(idx.status().code(), error::DATA_LOSS);
    EXPECT_THAT(idx.status().message(), HasSubstr("truncated"));
  }
}

TEST_F(MnistTest, ExtraBytesAfterTheDataAreDataLoss) {
  WritePlain(dir_ / "long", IdxBytes(kIdxLabelsMagic, {2}, {1, 2, 3}));
  StatusOr<IdxArray> idx = ReadIdx((dir_ / "long").string());
  EXPECT_EQ(idx.status().code(), error::DATA_LOSS);
  EXPECT_THAT(idx.status().message(), HasSubstr("1 bytes more"));
}

TEST_F(MnistTest, HugeDimsInTheHeaderAreDataLossWithoutAllocating) {
  WriteSmallSet();
  Write("train-images-idx3-ubyte",
        IdxBytes(kIdxImagesMagic, {0xffffffff, 0xffffffff, 0xffffffff},
                 {1, 2, 3}),
        true);
  ExpectError(ReadDataSets(Dir()), error::DATA_LOSS,
              "train-images-idx3-ubyte.gz",
              "shape [4294967295,4294967295,4294967295] but only 3 bytes");
  // A rank byte of 255 promises a header longer than the file.
  WritePlain(dir_ / "rank", IdxBytes(0x000008ff, {1}, {}));
  StatusOr<IdxArray> idx = ReadIdx((dir_ / "rank").string());
  EXPECT_EQ(idx.status().code(), error::DATA_LOSS);
  EXPECT_THAT(idx.status().message(), HasSubstr("255 dimensions"));
}

TEST_F(MnistTest, HeaderSizesAreCheckedAgainstTheFileBeforeAllocating) {
  // IDX sizes are 32-bit: 2^31 and the largest, 2^32 - 1, in one dimension
  // and as a product (2^31 * 2^31 images of 2^31 pixels is 2^93), plain and
  // gzipped; read_data_sets reads the same way (HugeDims... above).
  const int64_t before = minitf::testing::PeakResidentBytes();
  const uint32_t k2to31 = uint32_t{1} << 31;
  for (const bool gzip : {false, true}) {
    for (const auto& dims : std::vector<std::vector<uint32_t>>{
             {k2to31}, {0xffffffff}, {k2to31, k2to31, k2to31}}) {
      const std::string bytes =
          IdxBytes(dims.size() == 1 ? kIdxLabelsMagic : kIdxImagesMagic, dims,
                   {1, 2, 3});
      WritePlain(dir_ / "huge", gzip ? Gzip(bytes) : bytes);
      StatusOr<IdxArray> idx = ReadIdx((dir_ / "huge").string());
      EXPECT_EQ(idx.status().code(), error::DATA_LOSS);
      EXPECT_THAT(idx.status().message(),
                  HasSubstr((dir_ / "huge").string() +
                            " is truncated: its header declares shape ["));
      EXPECT_THAT(idx.status().message(),
                  HasSubstr("] but only 3 bytes of data follow"));
    }
  }
  EXPECT_LT(minitf::testing::PeakResidentBytes() - before,
            minitf::testing::kHugeBytes);
}

TEST_F(MnistTest, ImageAndLabelCountsMustAgree) {
  WriteSmallSet();
  Write("train-labels-idx1-ubyte",
        IdxBytes(kIdxLabelsMagic, {11}, MakeExamples(11, 1, 1).labels), true);
  ExpectError(ReadDataSets(Dir()), error::DATA_LOSS,
              "train-labels-idx1-ubyte.gz", "12 images but");
}

TEST_F(MnistTest, LabelOutsideTheClassesIsDataLoss) {
  WriteSmallSet();
  std::vector<uint8_t> labels = MakeExamples(4, 1, 1).labels;
  labels[2] = 10;
  Write("t10k-labels-idx1-ubyte", IdxBytes(kIdxLabelsMagic, {4}, labels), true);
  ExpectError(ReadDataSets(Dir(), true), error::DATA_LOSS,
              "t10k-labels-idx1-ubyte.gz", "label 10 at index 2");
}

TEST_F(MnistTest, CorruptGzipIsDataLoss) {
  WriteSmallSet();
  std::vector<uint8_t> pixels(4 * 28 * 28);
  uint32_t state = 1;
  for (uint8_t& p : pixels) p = (state = state * 1103515245 + 12345) >> 24;
  std::string packed = Gzip(IdxBytes(kIdxImagesMagic, {4, 28, 28}, pixels));
  // Damage in the compressed data: either the deflate stream or the CRC-32
  // of the gzip trailer gives it away.
  std::string damaged = packed;
  damaged[damaged.size() / 2] ^= 0x55;
  WritePlain(dir_ / "t10k-images-idx3-ubyte.gz", damaged);
  ExpectError(ReadDataSets(Dir()), error::DATA_LOSS,
              "t10k-images-idx3-ubyte.gz", "gzip");
  // Damage in the trailer alone: the CRC-32 catches it.
  damaged = packed;
  damaged[damaged.size() - 6] ^= 0x01;
  WritePlain(dir_ / "t10k-images-idx3-ubyte.gz", damaged);
  ExpectError(ReadDataSets(Dir()), error::DATA_LOSS,
              "t10k-images-idx3-ubyte.gz", "corrupt");
  // A gzip stream cut short.
  WritePlain(dir_ / "t10k-images-idx3-ubyte.gz",
             packed.substr(0, packed.size() / 2));
  ExpectError(ReadDataSets(Dir()), error::DATA_LOSS,
              "t10k-images-idx3-ubyte.gz", "truncated");
  // Garbage after the gzip stream.
  WritePlain(dir_ / "t10k-images-idx3-ubyte.gz", packed + "junk");
  ExpectError(ReadDataSets(Dir()), error::DATA_LOSS,
              "t10k-images-idx3-ubyte.gz", "garbage");
}

TEST(MnistDefaultDir, IsFashionMnistUnlessTheEnvironmentSaysOtherwise) {
  const char* saved = std::getenv("MINITF_MNIST_DIR");
  const std::string saved_value = saved ? saved : "";
  unsetenv("MINITF_MNIST_DIR");
  EXPECT_EQ(mnist::default_data_dir(), "/usr/share/datasets/fashion-mnist");
  setenv("MINITF_MNIST_DIR", "", 1);
  EXPECT_EQ(mnist::default_data_dir(), "/usr/share/datasets/fashion-mnist");
  setenv("MINITF_MNIST_DIR", "/data/mnist", 1);
  EXPECT_EQ(mnist::default_data_dir(), "/data/mnist");
  if (saved) {
    setenv("MINITF_MNIST_DIR", saved_value.c_str(), 1);
  } else {
    unsetenv("MINITF_MNIST_DIR");
  }
}

TEST(MnistRealData, LoadsTheFullSetFromTheDefaultFolder) {
  const std::string dir = mnist::default_data_dir();
  if (!fs::exists(fs::path(dir) / "train-images-idx3-ubyte.gz") &&
      !fs::exists(fs::path(dir) / "train-images-idx3-ubyte")) {
    GTEST_SKIP() << "no MNIST-format files in " << dir
                 << " (install Debian's dataset-fashion-mnist with "
                    "scripts/setup.sh, or set MINITF_MNIST_DIR)";
  }
  Datasets sets = read_data_sets(dir, /*one_hot=*/false);
  EXPECT_EQ(sets.train.num_examples(), 55000);
  EXPECT_EQ(sets.validation.num_examples(), 5000);
  EXPECT_EQ(sets.test.num_examples(), 10000);
  EXPECT_EQ(sets.train.images().shape(), TensorShape({55000, 784}));
  for (const mnist::DataSet* set :
       {&sets.train, &sets.validation, &sets.test}) {
    std::set<int64_t> classes;
    const Tensor& y = set->labels();
    for (int64_t i = 0; i < y.NumElements(); ++i) {
      classes.insert(y.data<int64_t>()[i]);
    }
    EXPECT_EQ(*classes.begin(), 0);
    EXPECT_EQ(*classes.rbegin(), 9);
    EXPECT_EQ(classes.size(), 10u);
    const Tensor& x = set->images();
    const float* px = x.data<float>();
    const auto [lo, hi] = std::minmax_element(px, px + x.NumElements());
    EXPECT_EQ(*lo, 0.f);
    EXPECT_EQ(*hi, 1.f);
  }
}

}  // namespace
}  // namespace minitf::datasets
