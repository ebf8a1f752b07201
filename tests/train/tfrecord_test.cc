#include "minitf/train/tfrecord.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../graph/memory_probe.h"
#include "minitf/train/crc32c.h"

namespace minitf {
namespace {

// A fresh path per test: CTest runs the tests of this binary in parallel.
std::string TestPath(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / "tfrecord_test" /
      info->name();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return (dir / name).string();
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

uint64_t LittleEndian(const std::string& bytes, size_t pos, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) {
    v |= uint64_t{static_cast<uint8_t>(bytes[pos + i])} << (8 * i);
  }
  return v;
}

void WriteRecords(const std::string& path,
                  const std::vector<std::string>& records) {
  TFRecordWriter w;
  ASSERT_TRUE(w.Open(path).ok());
  for (const std::string& r : records) ASSERT_TRUE(w.WriteRecord(r).ok());
  ASSERT_TRUE(w.Close().ok());
}

TEST(TFRecordTest, FramingIsLengthCrcDataCrcLittleEndian) {
  const std::string path = TestPath("one.tfrecord");
  WriteRecords(path, {"hello"});
  const std::string bytes = ReadFile(path);
  ASSERT_EQ(bytes.size(), 8u + 4u + 5u + 4u);
  EXPECT_EQ(LittleEndian(bytes, 0, 8), 5u);
  EXPECT_EQ(LittleEndian(bytes, 8, 4),
            crc32c::Mask(crc32c::Value(bytes.data(), 8)));
  EXPECT_EQ(bytes.substr(12, 5), "hello");
  EXPECT_EQ(LittleEndian(bytes, 17, 4), crc32c::Mask(crc32c::Value("hello")));
  EXPECT_EQ(bytes, EncodeTFRecord("hello"));
}

TEST(TFRecordTest, ReaderReturnsEachRecordThenOutOfRange) {
  const std::string path = TestPath("many.tfrecord");
  const std::vector<std::string> records = {"a", "", std::string(1000, 'x'),
                                            std::string("\0\1\2", 3)};
  WriteRecords(path, records);
  TFRecordReader r;
  ASSERT_TRUE(r.Open(path).ok());
  std::string rec;
  for (const std::string& expected : records) {
    ASSERT_TRUE(r.ReadRecord(&rec).ok());
    EXPECT_EQ(rec, expected);
  }
  EXPECT_EQ(r.offset(), ReadFile(path).size());
  EXPECT_EQ(r.ReadRecord(&rec).code(), error::OUT_OF_RANGE);
}

TEST(TFRecordTest, EveryTruncationIsDataLossNamingFileAndOffset) {
  const std::string path = TestPath("cut.tfrecord");
  WriteRecords(path, {"first", "second record"});
  const std::string whole = ReadFile(path);
  const size_t second = EncodeTFRecord("first").size();
  for (size_t cut = second + 1; cut < whole.size(); ++cut) {
    WriteFile(path, whole.substr(0, cut));
    TFRecordReader r;
    ASSERT_TRUE(r.Open(path).ok());
    std::string rec;
    ASSERT_TRUE(r.ReadRecord(&rec).ok());
    EXPECT_EQ(rec, "first");
    const Status s = r.ReadRecord(&rec);
    EXPECT_EQ(s.code(), error::DATA_LOSS) << "cut at " << cut;
    EXPECT_NE(s.message().find(path), std::string::npos) << s.message();
    EXPECT_NE(s.message().find("truncated record at offset " +
                               std::to_string(second)),
              std::string::npos)
        << s.message();
  }
}

// A record header whose length checksum holds, for any length.
std::string Header(uint64_t length) {
  std::string out(kTFRecordHeaderBytes, '\0');
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>(length >> (8 * i));
  const uint32_t crc = crc32c::Mask(crc32c::Value(out.data(), 8));
  for (int i = 0; i < 4; ++i) out[8 + i] = static_cast<char>(crc >> (8 * i));
  return out;
}

TEST(TFRecordTest, ALengthBeyondTheFileIsDataLossWithoutAllocatingIt) {
  const std::string path = TestPath("long.tfrecord");
  const size_t second = EncodeTFRecord("first").size();
  const int64_t before = testing::PeakResidentBytes();
  // 2^60 and 2^31 bytes promised, 100 there; and lengths just past what is
  // there, counting the footer the record also needs.
  for (const uint64_t length :
       {uint64_t{1} << 60, uint64_t{1} << 31, uint64_t{97}, uint64_t{100}}) {
    WriteFile(path,
              EncodeTFRecord("first") + Header(length) + std::string(100, 'x'));
    TFRecordReader r;
    ASSERT_TRUE(r.Open(path).ok());
    std::string rec;
    ASSERT_TRUE(r.ReadRecord(&rec).ok());
    const Status s = r.ReadRecord(&rec);
    EXPECT_EQ(s.code(), error::DATA_LOSS) << length;
    EXPECT_EQ(s.message(), path + ": truncated record at offset " +
                               std::to_string(second) + " (" +
                               std::to_string(length) +
                               " data bytes expected, 100 bytes left in the "
                               "file)");
  }
  EXPECT_LT(testing::PeakResidentBytes() - before, testing::kHugeBytes);
  // The length that fits is read (and its data checksum then checked).
  WriteFile(path, Header(96) + std::string(100, 'x'));
  TFRecordReader r;
  ASSERT_TRUE(r.Open(path).ok());
  std::string rec;
  const Status s = r.ReadRecord(&rec);
  EXPECT_NE(s.message().find("data checksum mismatch"), std::string::npos) << s;
}

TEST(TFRecordTest, AnyFlippedByteIsDataLoss) {
  const std::string path = TestPath("flip.tfrecord");
  WriteRecords(path, {"payload"});
  const std::string whole = ReadFile(path);
  for (size_t i = 0; i < whole.size(); ++i) {
    std::string bad = whole;
    bad[i] = static_cast<char>(bad[i] ^ 0x20);
    WriteFile(path, bad);
    TFRecordReader r;
    ASSERT_TRUE(r.Open(path).ok());
    std::string rec;
    const Status s = r.ReadRecord(&rec);
    EXPECT_EQ(s.code(), error::DATA_LOSS) << "byte " << i;
    EXPECT_NE(s.message().find("corrupted record at offset 0"),
              std::string::npos)
        << s.message();
  }
}

TEST(TFRecordTest, MissingFileIsNotFound) {
  TFRecordReader r;
  const std::string path = TestPath("absent.tfrecord");
  const Status s = r.Open(path);
  EXPECT_EQ(s.code(), error::NOT_FOUND);
  EXPECT_NE(s.message().find(path), std::string::npos);
  TFRecordWriter w;
  EXPECT_EQ(w.Open(path + "/no/such/dir/x").code(), error::NOT_FOUND);
}

TEST(TFRecordTest, WritingAfterCloseIsFailedPrecondition) {
  TFRecordWriter w;
  ASSERT_TRUE(w.Open(TestPath("closed.tfrecord")).ok());
  ASSERT_TRUE(w.Close().ok());
  EXPECT_EQ(w.WriteRecord("late").code(), error::FAILED_PRECONDITION);
}

}  // namespace
}  // namespace minitf
