// The TF_CONFIG reader and TensorFlow's checks of a cluster
// (multi_worker_util._validate_cluster_spec, TensorFlow 2.21): the error
// texts expected here are TensorFlow's.
#include "minitf/distributed/runtime/tf_config.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "distributed_testing.h"
#include "minitf/tensor/errors.h"

namespace tf = minitf;

namespace {

using minitf::testing::InvalidArgumentText;

using tf::train::ClusterSpec;
using tf::train::ParseTFConfig;

TEST(TFConfigTest, ReadsClusterAndTask) {
  auto c = ParseTFConfig(R"({"cluster": {"ps": ["localhost:2222"],
                                        "worker": ["localhost:2223",
                                                   "localhost:2224"]},
                             "task": {"type": "worker", "index": 1}})");
  EXPECT_EQ(c.cluster,
            ClusterSpec({{"ps", {"localhost:2222"}},
                         {"worker", {"localhost:2223", "localhost:2224"}}}));
  EXPECT_EQ(c.task_type, "worker");
  EXPECT_EQ(c.task_index, 1);
  EXPECT_EQ(c.rpc_layer, "grpc");
}

TEST(TFConfigTest, SparseJobsHaveStringKeys) {
  auto c = ParseTFConfig(R"({"cluster": {"worker": {"1": "w1:2222"}},
                             "task": {"type": "worker", "index": "0"},
                             "rpc_layer": "grpc+verbs"})");
  EXPECT_EQ(c.cluster.task_indices("worker"), std::vector<int>{1});
  EXPECT_EQ(c.task_index, 0);
  EXPECT_EQ(c.rpc_layer, "grpc+verbs");
}

TEST(TFConfigTest, EmptyObjectIsAnEmptyCluster) {
  auto c = ParseTFConfig("{}");
  EXPECT_FALSE(static_cast<bool>(c.cluster));
  EXPECT_EQ(c.task_type, "");
  EXPECT_FALSE(c.task_index.has_value());
}

TEST(TFConfigTest, MalformedJobsInTensorFlowsWords) {
  EXPECT_EQ(InvalidArgumentText(
                [] { ParseTFConfig(R"({"cluster": {"worker": "a:1"}})"); }),
            "The tasks for job 'worker' must be a list or a dictionary from "
            "integers to strings.");
  EXPECT_EQ(InvalidArgumentText([] {
              ParseTFConfig(R"({"cluster": {"worker": {"x": "a:1"}}})");
            }),
            "invalid literal for int() with base 10: 'x'");
  EXPECT_EQ(InvalidArgumentText(
                [] { ParseTFConfig(R"({"cluster": {"worker": [1]}})"); }),
            "Task address 1 must be bytes or unicode");
}

TEST(TFConfigTest, NotJsonIsInvalidArgument) {
  std::string text = InvalidArgumentText([] { ParseTFConfig("{cluster"); });
  EXPECT_EQ(text.rfind("TF_CONFIG is not a JSON object", 0), 0u) << text;
  text = InvalidArgumentText([] { ParseTFConfig(R"({"task": 3})"); });
  EXPECT_EQ(text.rfind("TF_CONFIG's \"task\"", 0), 0u) << text;
}

TEST(TFConfigTest, AtMostOneChief) {
  EXPECT_EQ(InvalidArgumentText([] {
              ParseTFConfig(R"({"cluster": {"chief": ["a:1", "b:1"],
                                            "worker": ["c:1"]},
                                "task": {"type": "worker", "index": 0}})");
            }),
            "There must be at most one 'chief' job.");
  EXPECT_EQ(InvalidArgumentText([] {
              tf::train::ValidateClusterSpec(
                  ClusterSpec({{"evaluator", {"a:1", "b:1"}}}), "", 0);
            }),
            "There must be at most one 'evaluator' job.");
}

TEST(TFConfigTest, TaskTypeAndIndexAreChecked) {
  EXPECT_EQ(InvalidArgumentText([] {
              ParseTFConfig(R"({"cluster": {"worker": ["a:1"]},
                                "task": {"type": "worker", "index": 1}})");
            }),
            "The `task_id` 1 exceeds the maximum id of worker.");
  EXPECT_EQ(InvalidArgumentText([] {
              ParseTFConfig(R"({"cluster": {"worker": ["a:1"]},
                                "task": {"type": "ps", "index": 0}})");
            }),
            "`task_type` 'ps' not found in cluster_spec.");
  EXPECT_EQ(InvalidArgumentText([] {
              ParseTFConfig(R"({"cluster": {"worker": ["a:1"]},
                                "task": {"type": "master", "index": 0}})");
            }),
            "Unrecognized task_type: master, valid task types are: ('chief', "
            "'worker', 'evaluator', 'ps', None)");
  EXPECT_EQ(InvalidArgumentText([] {
              ParseTFConfig(R"({"cluster": {"localhost": ["a:1"]},
                                "task": {"type": "worker", "index": 0}})");
            }),
            "Disallowed task type found in cluster spec. Allowed types are "
            "('chief', 'worker', 'evaluator', 'ps', None) and the cluster "
            "spec is ClusterSpec({'localhost': ['a:1']}).");
  // An evaluator may run outside the cluster.
  auto c = ParseTFConfig(R"({"cluster": {"worker": ["a:1"]},
                             "task": {"type": "evaluator", "index": 0}})");
  EXPECT_EQ(c.task_type, "evaluator");
}

// Bytes from outside (fuzz/tf_config_fuzzer.cc): a number too large for an
// int is refused, rather than converted, which is undefined behaviour
// (UBSan's float-cast-overflow).
TEST(TFConfigTest, IndexBeyondAnIntIsInvalidArgument) {
  EXPECT_EQ(InvalidArgumentText([] {
              ParseTFConfig(R"({"cluster": {"worker": ["a:1"]},
                                "task": {"type": "worker", "index": 1e10}})");
            }),
            "int() of 10000000000 is out of the range of a task index");
  EXPECT_EQ(InvalidArgumentText(
                [] { ParseTFConfig(R"({"task": {"index": -3e9}})"); }),
            "int() of -3000000000 is out of the range of a task index");
}

TEST(TFConfigTest, FromEnvironment) {
  ::unsetenv("TF_CONFIG");
  EXPECT_FALSE(tf::train::TFConfigFromEnvironment().has_value());
  ::setenv("TF_CONFIG",
           R"({"cluster": {"ps": ["localhost:2222"]},
               "task": {"type": "ps", "index": 0}})",
           1);
  auto c = tf::train::TFConfigFromEnvironment();
  ::unsetenv("TF_CONFIG");
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->task_type, "ps");
  EXPECT_EQ(c->cluster.task_address("ps", 0), "localhost:2222");
}

}  // namespace
