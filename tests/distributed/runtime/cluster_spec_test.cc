// tf::train::ClusterSpec against TensorFlow 2.21's
// tf.compat.v1.train.ClusterSpec: every value and error text expected here
// is what TensorFlow gave for the same cluster.
#include "minitf/distributed/runtime/cluster_spec.h"

#include <gtest/gtest.h>

#include "distributed_testing.h"
#include "minitf/distributed/runtime/proto_convert.h"
#include "minitf/tensor/errors.h"

namespace tf = minitf;

namespace {

using minitf::testing::InvalidArgumentText;

using tf::train::ClusterSpec;

// --8<-- [start:dense_and_sparse]
// ClusterSpec({"worker": ["w0:2222", "w1:2222"], "ps": ["ps0:2222"]})
ClusterSpec Dense() {
  return ClusterSpec(
      {{"worker", {"w0:2222", "w1:2222"}}, {"ps", {"ps0:2222"}}});
}

// ClusterSpec({"worker": {1: "w1:2222", 3: "w3:2222"}, "ps": ["ps0:2222"]})
ClusterSpec Sparse() {
  return ClusterSpec(
      {{"worker", {{1, "w1:2222"}, {3, "w3:2222"}}}, {"ps", {"ps0:2222"}}});
}
// --8<-- [end:dense_and_sparse]

TEST(ClusterSpecTest, DenseJobs) {
  ClusterSpec c = Dense();
  EXPECT_EQ(c.jobs(), (std::vector<std::string>{"worker", "ps"}));
  EXPECT_EQ(c.num_tasks("worker"), 2);
  EXPECT_EQ(c.task_indices("worker"), (std::vector<int>{0, 1}));
  EXPECT_EQ(c.task_address("worker", 1), "w1:2222");
  EXPECT_EQ(c.job_tasks("worker"),
            (std::vector<std::string>{"w0:2222", "w1:2222"}));
  ASSERT_EQ(c.as_dict().size(), 2u);
  EXPECT_EQ(c.as_dict()[0].first, "worker");
  EXPECT_TRUE(c.as_dict()[0].second.is_dense());
  EXPECT_EQ(c.DebugString(),
            "ClusterSpec({'ps': ['ps0:2222'], 'worker': ['w0:2222', "
            "'w1:2222']})");
}

TEST(ClusterSpecTest, SparseJobs) {
  ClusterSpec c = Sparse();
  EXPECT_EQ(c.num_tasks("worker"), 2);
  EXPECT_EQ(c.task_indices("worker"), (std::vector<int>{1, 3}));
  // TensorFlow: [None, 'w1:2222', None, 'w3:2222'].
  EXPECT_EQ(c.job_tasks("worker"),
            (std::vector<std::string>{"", "w1:2222", "", "w3:2222"}));
  EXPECT_FALSE(c.as_dict()[0].second.is_dense());
  EXPECT_EQ(c.as_dict()[0].second.DebugString(),
            "{1: 'w1:2222', 3: 'w3:2222'}");
  EXPECT_EQ(c.DebugString(),
            "ClusterSpec({'ps': ['ps0:2222'], 'worker': {1: 'w1:2222', 3: "
            "'w3:2222'}})");
}

TEST(ClusterSpecTest, SparseIndicesFromZeroAreDense) {
  // ClusterSpec({"worker": {0: "a:1", 1: "b:2"}}).as_dict() is a list.
  ClusterSpec c({{"worker", {{0, "a:1"}, {1, "b:2"}}}});
  EXPECT_TRUE(c.as_dict()[0].second.is_dense());
  EXPECT_EQ(c.as_dict()[0].second.DebugString(), "['a:1', 'b:2']");
}

TEST(ClusterSpecTest, EmptyJobAndEmptyCluster) {
  // {"worker": []} as_dict() gives {'worker': {}}; bool(ClusterSpec({})) is
  // False.
  ClusterSpec job({{"worker", std::vector<std::string>{}}});
  EXPECT_EQ(job.as_dict()[0].second.DebugString(), "{}");
  EXPECT_EQ(job.num_tasks("worker"), 0);
  EXPECT_TRUE(static_cast<bool>(job));
  EXPECT_FALSE(static_cast<bool>(ClusterSpec()));
  EXPECT_EQ(ClusterSpec().DebugString(), "ClusterSpec({})");
}

TEST(ClusterSpecTest, NegativeIndicesStayOutOfJobTasks) {
  // {"worker": {-1: "a", 2: "b"}}.job_tasks("worker") is [None, None, 'b'].
  ClusterSpec c({{"worker", {{-1, "a"}, {2, "b"}}}});
  EXPECT_EQ(c.job_tasks("worker"), (std::vector<std::string>{"", "", "b"}));
  EXPECT_EQ(c.task_address("worker", -1), "a");
}

TEST(ClusterSpecTest, EqualityIgnoresJobOrder) {
  EXPECT_EQ(Dense(), ClusterSpec({{"ps", {"ps0:2222"}},
                                  {"worker", {"w0:2222", "w1:2222"}}}));
  EXPECT_FALSE(ClusterSpec({{"worker", {{1, "a"}}}}) ==
               ClusterSpec({{"worker", {"x", "a"}}}));
}

TEST(ClusterSpecTest, ErrorsInTensorFlowsWords) {
  ClusterSpec c = Dense();
  EXPECT_EQ(InvalidArgumentText([&] { c.num_tasks("nope"); }),
            "No such job in cluster: 'nope'");
  EXPECT_EQ(InvalidArgumentText([&] { c.task_indices("nope"); }),
            "No such job in cluster: 'nope'");
  EXPECT_EQ(InvalidArgumentText([&] { c.job_tasks("nope"); }),
            "No such job in cluster: 'nope'");
  EXPECT_EQ(InvalidArgumentText([&] { c.task_address("nope", 0); }),
            "No such job in cluster: 'nope'");
  EXPECT_EQ(InvalidArgumentText([&] { c.task_address("worker", 5); }),
            "No task with index 5 in job 'worker'");
  EXPECT_EQ(InvalidArgumentText([&] { Sparse().task_address("worker", 0); }),
            "No task with index 0 in job 'worker'");
}

TEST(ClusterSpecTest, NamesPrintAsPythonReprsThem) {
  // ClusterSpec({"w'x": ["it's"]}) prints ClusterSpec({"w'x": ["it's"]}).
  EXPECT_EQ(ClusterSpec({{"w'x", {"it's"}}}).DebugString(),
            "ClusterSpec({\"w'x\": [\"it's\"]})");
}

TEST(ClusterSpecTest, TwiceNamedJobOrIndexIsRefused) {
  EXPECT_EQ(InvalidArgumentText([] {
              ClusterSpec({{"ps", {"a:1"}}, {"ps", {"b:1"}}});
            }),
            "Job 'ps' is given twice");
  EXPECT_EQ(InvalidArgumentText([] {
              ClusterSpec({{"ps", {{1, "a:1"}, {1, "b:1"}}}});
            }),
            "Task index 1 is given twice");
}

TEST(ClusterSpecTest, ClusterDefSortsJobsAndRoundTrips) {
  // as_cluster_def() of Dense(): job "ps" first, then "worker".
  tf::proto::ClusterDef def = tf::ClusterSpecToProto(Dense());
  ASSERT_EQ(def.job_size(), 2);
  EXPECT_EQ(def.job(0).name(), "ps");
  EXPECT_EQ(def.job(1).name(), "worker");
  EXPECT_EQ(def.job(1).tasks().at(1), "w1:2222");
  auto back = tf::ClusterSpecFromProto(def);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back.value(), Dense());

  tf::proto::ClusterDef twice;
  twice.add_job()->set_name("ps");
  twice.add_job()->set_name("ps");
  EXPECT_EQ(tf::ClusterSpecFromProto(twice).status().code(),
            tf::error::INVALID_ARGUMENT);
}

}  // namespace
