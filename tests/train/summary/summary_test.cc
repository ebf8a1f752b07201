#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "minitf/graph/graph_def.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/train/crc32c.h"
#include "minitf/train/proto/event.pb.h"
#include "minitf/train/summary/file_writer.h"
#include "minitf/train/summary/histogram.h"
#include "minitf/train/summary/summary_ops.h"
#include "minitf/train/tfrecord.h"

namespace minitf {
namespace {

// A fresh folder per test: CTest runs the tests of this binary in parallel.
std::string TestDir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / "summary_test" /
      info->name();
  std::filesystem::remove_all(dir);
  return dir.string();
}

uint64_t LittleEndian(const std::string& bytes, size_t pos, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) {
    v |= uint64_t{static_cast<uint8_t>(bytes[pos + i])} << (8 * i);
  }
  return v;
}

// Reads an event file without TFRecordReader: the framing parsed by hand,
// both checksums of every record checked, then each record decoded.
std::vector<proto::Event> ReadEventsByHand(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string bytes = ss.str();
  std::vector<proto::Event> events;
  size_t pos = 0;
  while (pos < bytes.size()) {
    EXPECT_LE(pos + 12, bytes.size()) << "partial header at " << pos;
    if (pos + 12 > bytes.size()) break;
    const uint64_t length = LittleEndian(bytes, pos, 8);
    EXPECT_EQ(LittleEndian(bytes, pos + 8, 4),
              crc32c::Mask(crc32c::Value(bytes.data() + pos, 8)));
    EXPECT_LE(pos + 12 + length + 4, bytes.size());
    if (pos + 12 + length + 4 > bytes.size()) break;
    const std::string data = bytes.substr(pos + 12, length);
    EXPECT_EQ(LittleEndian(bytes, pos + 12 + length, 4),
              crc32c::Mask(crc32c::Value(data)));
    proto::Event event;
    EXPECT_TRUE(event.ParseFromString(data)) << "record at " << pos;
    events.push_back(event);
    pos += 12 + length + 4;
  }
  return events;
}

// The only file in `dir`.
std::string EventFile(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    files.push_back(e.path().string());
  }
  EXPECT_EQ(files.size(), 1u);
  return files.empty() ? "" : files[0];
}

TEST(FileWriterTest, FirstRecordIsTheVersionEvent) {
  const std::string dir = TestDir() + "/nested/logs";
  const double before = summary::WallTime();
  {
    summary::FileWriter writer(dir);
    EXPECT_EQ(writer.get_logdir(), dir);
    EXPECT_EQ(std::filesystem::path(writer.filename()).parent_path(), dir);
  }
  const std::string path = EventFile(dir);
  const std::string name = std::filesystem::path(path).filename().string();
  EXPECT_EQ(name.rfind("events.out.tfevents.", 0), 0u) << name;
  // events.out.tfevents.<10-digit seconds>.<hostname>
  EXPECT_EQ(name.substr(20, 10),
            std::to_string(static_cast<long long>(before)).substr(0, 10));
  const auto events = ReadEventsByHand(path);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].file_version(), "brain.Event:2");
  EXPECT_EQ(events[0].step(), 0);
  EXPECT_GE(events[0].wall_time(), std::floor(before));
  EXPECT_LE(events[0].wall_time(), summary::WallTime());
}

TEST(FileWriterTest, ScalarsKeepTheirTagsValuesAndSteps) {
  Graph g;
  graph_scope use(g);
  Output x = placeholder(float32, {});
  summary::scalar("loss", x * 2.f);
  Output merged = summary::merge_all();
  ASSERT_TRUE(merged.valid());
  const std::string dir = TestDir();
  summary::FileWriter writer(dir);
  Session sess;
  for (int step = 0; step < 5; ++step) {
    writer.add_summary(sess.run(merged, {{x, Tensor(float(step))}}), step * 10);
  }
  writer.close();
  const auto events = ReadEventsByHand(writer.filename());
  ASSERT_EQ(events.size(), 6u);
  for (int step = 0; step < 5; ++step) {
    const proto::Event& e = events[step + 1];
    EXPECT_EQ(e.step(), step * 10);
    ASSERT_TRUE(e.has_summary());
    ASSERT_EQ(e.summary().value_size(), 1);
    EXPECT_EQ(e.summary().value(0).tag(), "loss");
    EXPECT_FLOAT_EQ(e.summary().value(0).simple_value(), 2.f * step);
    EXPECT_GE(e.wall_time(), events[0].wall_time());
  }
}

TEST(SummaryOpsTest, NamesAndTagsFollowNameScopes) {
  Graph g;
  graph_scope use(g);
  Output c = constant(1.f);
  Output a = summary::scalar("loss", c);
  Output b = summary::scalar("loss", c);
  Output t;
  {
    name_scope tower("tower_0");
    t = summary::scalar("loss", c);
  }
  EXPECT_EQ(a.op().name(), "loss");
  EXPECT_EQ(b.op().name(), "loss_1");
  EXPECT_EQ(t.op().name(), "tower_0/loss");
  EXPECT_EQ(a.op().type(), "ScalarSummary");
  EXPECT_EQ(a.dtype(), summary::kSummaryDType);
  Session sess;
  proto::Summary s;
  ASSERT_TRUE(s.ParseFromString(summary::SummaryToBytes(sess.run(t)).value()));
  EXPECT_EQ(s.value(0).tag(), "tower_0/loss");
  EXPECT_EQ(get_collection<Output>(GraphKeys::SUMMARIES).size(), 3u);
}

TEST(SummaryOpsTest, MergeAllWithoutSummariesIsInvalid) {
  Graph g;
  graph_scope use(g);
  constant(1.f);
  EXPECT_FALSE(summary::merge_all().valid());
  summary::scalar("kept_out", constant(2.f), {});
  EXPECT_FALSE(summary::merge_all().valid());
}

TEST(SummaryOpsTest, MergeConcatenatesValuesAndRefusesDuplicateTags) {
  Graph g;
  graph_scope use(g);
  Output a = summary::scalar("a", constant(1.f));
  summary::histogram("h", constant({1.f, 2.f}));
  Output merged = summary::merge_all();
  EXPECT_EQ(merged.op().name(), "Merge/MergeSummary");
  Session sess;
  proto::Summary s;
  ASSERT_TRUE(
      s.ParseFromString(summary::SummaryToBytes(sess.run(merged)).value()));
  ASSERT_EQ(s.value_size(), 2);
  EXPECT_EQ(s.value(0).tag(), "a");
  EXPECT_EQ(s.value(1).tag(), "h");
  EXPECT_TRUE(s.value(1).has_histo());

  Output twice = summary::merge({a, a});
  EXPECT_THROW(sess.run(twice), errors::InvalidArgumentError);
}

TEST(SummaryOpsTest, ScalarRequiresASingleValue) {
  Graph g;
  graph_scope use(g);
  EXPECT_THROW(summary::scalar("v", constant({1.f, 2.f})),
               errors::InvalidArgumentError);
  Output x = placeholder(float32);
  Output s = summary::scalar("x", x);
  Session sess;
  EXPECT_THROW(sess.run(s, {{x, Tensor({1.f, 2.f})}}),
               errors::InvalidArgumentError);
}

TEST(HistogramTest, DefaultBucketsAreTensorFlowsSeries) {
  const std::vector<double>& b = DefaultHistogramBuckets();
  std::vector<double> positive;
  for (double v = 1e-12; v < 1e20; v *= 1.1) positive.push_back(v);
  ASSERT_EQ(b.size(), 2 * (positive.size() + 1) + 1);
  const size_t zero = positive.size() + 1;
  EXPECT_EQ(b[zero], 0.0);
  EXPECT_EQ(b.front(), -DBL_MAX);
  EXPECT_EQ(b.back(), DBL_MAX);
  EXPECT_EQ(b[zero + 1], 1e-12);
  EXPECT_EQ(b[zero - 1], -1e-12);
  for (size_t i = 0; i < positive.size(); ++i) {
    EXPECT_EQ(b[zero + 1 + i], positive[i]);
    EXPECT_EQ(b[zero - 1 - i], -positive[i]);
  }
  EXPECT_TRUE(std::is_sorted(b.begin(), b.end()));
}

TEST(HistogramTest, SummaryCarriesStatsAndBuckets) {
  Graph g;
  graph_scope use(g);
  const std::vector<float> values = {-1.f, 0.f, 0.5f, 0.5f, 2.f};
  Output h =
      summary::histogram("weights", constant({-1.f, 0.f, 0.5f, 0.5f, 2.f}));
  const std::string dir = TestDir();
  summary::FileWriter writer(dir);
  Session sess;
  writer.add_summary(sess.run(h), 7);
  writer.flush();
  const auto events = ReadEventsByHand(writer.filename());
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1].step(), 7);
  const proto::Summary::Value& v = events[1].summary().value(0);
  EXPECT_EQ(v.tag(), "weights");
  ASSERT_TRUE(v.has_histo());
  const proto::HistogramProto& p = v.histo();
  EXPECT_EQ(p.min(), -1.0);
  EXPECT_EQ(p.max(), 2.0);
  EXPECT_EQ(p.num(), 5.0);
  EXPECT_DOUBLE_EQ(p.sum(), 2.0);
  EXPECT_DOUBLE_EQ(p.sum_squares(), 1 + 0.25 + 0.25 + 4);
  ASSERT_EQ(p.bucket_size(), p.bucket_limit_size());
  // Each value lies in the bucket whose limit is the first above it, and
  // only those buckets are non-empty.
  const std::vector<double>& limits = DefaultHistogramBuckets();
  double total = 0;
  for (int i = 0; i < p.bucket_size(); ++i) {
    total += p.bucket(i);
    if (i > 0) {
      EXPECT_LT(p.bucket_limit(i - 1), p.bucket_limit(i));
    }
    if (p.bucket(i) == 0) continue;
    int expected = 0;
    for (float x : values) {
      const double limit =
          *std::upper_bound(limits.begin(), limits.end(), double{x});
      if (limit == p.bucket_limit(i)) ++expected;
    }
    EXPECT_EQ(p.bucket(i), expected) << "limit " << p.bucket_limit(i);
  }
  EXPECT_EQ(total, 5.0);
  // Four distinct buckets (0.5 twice), the empty runs between collapsed.
  int non_empty = 0;
  for (double c : p.bucket()) non_empty += c > 0;
  EXPECT_EQ(non_empty, 4);
  EXPECT_EQ(p.bucket_limit(p.bucket_limit_size() - 1), DBL_MAX);
}

TEST(HistogramTest, NanFailsTheRun) {
  Graph g;
  graph_scope use(g);
  Output x = placeholder(float32);
  Output h = summary::histogram("w", x);
  Session sess;
  try {
    sess.run(h, {{x, Tensor({1.f, NAN})}});
    FAIL() << "expected InvalidArgumentError";
  } catch (const errors::InvalidArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("Nan in summary histogram for: w"),
              std::string::npos)
        << e.what();
  }
}

TEST(FileWriterTest, GraphEventDecodesToTheGraphDef) {
  Graph g;
  graph_scope use(g);
  Output a = constant({1.f, 2.f}, "a");
  Output b = a + a;
  const std::string dir = TestDir();
  { summary::FileWriter writer(dir, &g); }
  const auto events = ReadEventsByHand(EventFile(dir));
  ASSERT_EQ(events.size(), 2u);
  ASSERT_FALSE(events[1].graph_def().empty());
  GraphDef read;
  ASSERT_TRUE(read.ParseFromString(events[1].graph_def()));
  const GraphDef expected = ToGraphDef(g).value();
  ASSERT_EQ(read.node_size(), expected.node_size());
  // The deterministic form (attrs sorted by name) is what the writer stored.
  EXPECT_EQ(SerializeGraphDef(read).value(),
            SerializeGraphDef(expected).value());
  EXPECT_EQ(events[1].graph_def(), SerializeGraphDef(expected).value());
  EXPECT_EQ(read.node(0).name(), "a");
  EXPECT_EQ(read.node(1).op(), b.op().type());
}

TEST(FileWriterTest, RefusesWhatIsNotASummary) {
  summary::FileWriter writer(TestDir());
  EXPECT_THROW(writer.add_summary(Tensor({1.f, 2.f})),
               errors::InvalidArgumentError);
  EXPECT_THROW(writer.add_summary(Tensor({300, 1})),
               errors::InvalidArgumentError);
  EXPECT_THROW(writer.add_summary(std::string("\xff\xff\xff", 3)),
               errors::InvalidArgumentError);
  writer.close();
  EXPECT_THROW(writer.add_summary(proto::Summary()),
               errors::FailedPreconditionError);
  writer.close();
}

TEST(FileWriterTest, ReaderSeesTheSameEventsAndDataLossWhenCut) {
  const std::string dir = TestDir();
  std::string path;
  {
    summary::FileWriter writer(dir);
    proto::Summary s;
    proto::Summary::Value* v = s.add_value();
    v->set_tag("acc");
    v->set_simple_value(0.5f);
    writer.add_summary(s, 3);
    path = writer.filename();
  }
  TFRecordReader r;
  ASSERT_TRUE(r.Open(path).ok());
  std::string rec;
  int n = 0;
  Status s;
  while ((s = r.ReadRecord(&rec)).ok()) ++n;
  EXPECT_EQ(n, 2);
  EXPECT_EQ(s.code(), error::OUT_OF_RANGE);

  const auto size = std::filesystem::file_size(path);
  std::filesystem::resize_file(path, size - 3);
  ASSERT_TRUE(r.Open(path).ok());
  ASSERT_TRUE(r.ReadRecord(&rec).ok());
  s = r.ReadRecord(&rec);
  EXPECT_EQ(s.code(), error::DATA_LOSS);
  EXPECT_NE(s.message().find(path), std::string::npos) << s.message();
}

}  // namespace
}  // namespace minitf
