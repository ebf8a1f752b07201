// The RPC trace (rpc_trace.h): off by default, and, when on, one line per
// call of a step, RunStep, RunGraph per task, RecvTensor per tensor that
// crosses, CleanupGraph per task, all with the step's id.
#include "minitf/distributed/runtime/rpc_trace.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "distributed_testing.h"
#include "minitf/distributed/runtime/server.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/train/variables.h"

namespace tf = minitf;

namespace {

std::string TempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          (name + "_" + std::to_string(::getpid()) + ".tsv"))
      .string();
}

// Traces into a fresh file for the test's life; off again after it.
class TraceFile {
 public:
  explicit TraceFile(const std::string& name) : path_(TempPath(name)) {
    std::filesystem::remove(path_);
    tf::SetRpcTraceFile(path_);
  }
  ~TraceFile() {
    tf::SetRpcTraceFile("");
    std::filesystem::remove(path_);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// A call as "method caller -> callee", for comparing lists.
std::string Call(const tf::RpcRecord& r) {
  return r.method + " " + r.caller + " -> " + r.callee;
}

TEST(RpcTraceTest, RecordsReadBackAsWritten) {
  TraceFile file("rpc_trace_records");
  tf::RecordRpc({"RecvTensor", "/job:worker/replica:0/task:0/device:CPU:0",
                 "/job:ps/replica:0/task:0", 42, 100, 250, "w/read:0"});
  tf::RecordRpc(
      {"RunStep", "client", "/job:worker/replica:0/task:0", 42, 90, 300, ""});
  auto records = tf::ReadRpcTrace(file.path());
  ASSERT_TRUE(records.ok()) << records.status();
  ASSERT_EQ(records->size(), 2u);
  const tf::RpcRecord& recv = (*records)[0];
  // A device name is written as its task.
  EXPECT_EQ(Call(recv),
            "RecvTensor /job:worker/replica:0/task:0 -> "
            "/job:ps/replica:0/task:0");
  EXPECT_EQ(recv.step_id, 42);
  EXPECT_EQ(recv.start_us, 100);
  EXPECT_EQ(recv.end_us, 250);
  EXPECT_EQ(recv.detail, "w/read:0");
  EXPECT_EQ((*records)[1].detail, "");
}

TEST(RpcTraceTest, MalformedFilesAreErrors) {
  EXPECT_EQ(tf::ReadRpcTrace("/nonexistent/trace.tsv").status().code(),
            tf::error::NOT_FOUND);
  const std::string path = TempPath("rpc_trace_malformed");
  {
    std::ofstream out(path);
    out << "RunStep\tclient\t/job:ps/replica:0/task:0\t1\t2\t3\t\n"
        << "RunGraph\ta\tb\tnot-a-number\t2\t3\t\n";
  }
  auto records = tf::ReadRpcTrace(path);
  std::filesystem::remove(path);
  ASSERT_FALSE(records.ok());
  EXPECT_EQ(records.status().code(), tf::error::INVALID_ARGUMENT);
  EXPECT_EQ(records.status().message(),
            "Malformed RPC trace line 2: RunGraph\ta\tb\tnot-a-number\t2\t3\t");
}

// A variable on the ps, read and updated by a step whose session is on
// the worker: the step's calls, and no others, carry its id.
TEST(RpcTraceTest, ATracedStepRecordsItsCalls) {
  tf::testing::PsAndWorker tasks;
  tf::train::Server& worker = tasks.worker;
  tf::Graph graph;
  tf::graph_scope use(graph);
  tf::Variable w;
  {
    tf::device_scope on("/job:ps/task:0");
    w = tf::Variable(tf::Tensor({1.f, 2.f}), "w");
  }
  tf::Output doubled;
  {
    tf::device_scope on("/job:worker/task:0");
    doubled = tf::add(w.value(), w.value(), "doubled");
  }
  tf::SessionOptions options;
  options.target = worker.target();
  options.config.operation_timeout_in_ms = 30000;  // a broken test ends
  tf::Session sess(options, &graph);
  sess.run(w.initializer());
  sess.run(doubled);  // placed, cut and registered: later steps are steady

  std::vector<tf::RpcRecord> records;
  {
    TraceFile file("rpc_trace_step");
    sess.run(doubled);
    // The master does not wait for CleanupGraph's answers; closing the
    // session does, so every line of the step is written.
    sess.close();
    auto read = tf::ReadRpcTrace(file.path());
    ASSERT_TRUE(read.ok()) << read.status();
    records = *read;
  }
  // The traced step is the one its RunStep names. The warm-up step's
  // CleanupGraph answers may also have come while the trace was on: the
  // master sends them and goes on without waiting.
  const auto run_step_record = std::find_if(
      records.begin(), records.end(),
      [](const tf::RpcRecord& r) { return r.method == "RunStep"; });
  ASSERT_NE(run_step_record, records.end());
  const int64_t step = run_step_record->step_id;
  std::vector<std::string> calls;
  for (const tf::RpcRecord& r : records) {
    if (r.step_id != step) {
      EXPECT_EQ(r.method, "CleanupGraph") << Call(r);
      continue;
    }
    EXPECT_LE(r.start_us, r.end_us) << Call(r);
    calls.push_back(Call(r));
  }
  std::sort(calls.begin(), calls.end());
  const std::string ps_task = "/job:ps/replica:0/task:0";
  const std::string worker_task = "/job:worker/replica:0/task:0";
  EXPECT_EQ(calls, (std::vector<std::string>{
                       "CleanupGraph " + worker_task + " -> " + ps_task,
                       "CleanupGraph " + worker_task + " -> " + worker_task,
                       "RecvTensor " + worker_task + " -> " + ps_task,
                       "RunGraph " + worker_task + " -> " + ps_task,
                       "RunGraph " + worker_task + " -> " + worker_task,
                       "RunStep client -> " + worker_task,
                   }));
  // The RecvTensor fetched w's value, inside its RunGraph, inside the
  // RunStep; the cleanup was sent after the RunGraphs had answered and
  // before the RunStep's answer, which did not wait for the cleanup's.
  auto find = [&](const std::string& method, const std::string& callee) {
    for (const tf::RpcRecord& r : records) {
      if (r.step_id == step && r.method == method && r.callee == callee) {
        return r;
      }
    }
    return tf::RpcRecord{};
  };
  const tf::RpcRecord run_step = find("RunStep", worker_task);
  const tf::RpcRecord recv = find("RecvTensor", ps_task);
  EXPECT_EQ(recv.detail, "w/read:0");
  for (const std::string& task : {ps_task, worker_task}) {
    const tf::RpcRecord run_graph = find("RunGraph", task);
    const tf::RpcRecord cleanup = find("CleanupGraph", task);
    EXPECT_LE(run_step.start_us, run_graph.start_us);
    EXPECT_LE(run_graph.end_us, cleanup.start_us);
    EXPECT_LE(cleanup.start_us, run_step.end_us);
  }
  EXPECT_LE(find("RunGraph", worker_task).start_us, recv.start_us);
  EXPECT_LE(recv.end_us, find("RunGraph", worker_task).end_us);
}

// Off by default; and once turned off, nothing more is written.
TEST(RpcTraceTest, OffWritesNothing) {
  EXPECT_FALSE(tf::RpcTraceEnabled());
  const std::string path = TempPath("rpc_trace_off");
  std::filesystem::remove(path);
  tf::SetRpcTraceFile(path);
  EXPECT_TRUE(tf::RpcTraceEnabled());
  tf::RecordRpc({"RunStep", "client", "/job:ps/replica:0/task:0", 1, 2, 3, ""});
  tf::SetRpcTraceFile("");
  EXPECT_FALSE(tf::RpcTraceEnabled());
  tf::RecordRpc({"RunStep", "client", "/job:ps/replica:0/task:0", 4, 5, 6, ""});
  { tf::RpcTraceScope scope("RunGraph", "a", "b", 7); }
  auto records = tf::ReadRpcTrace(path);
  std::filesystem::remove(path);
  ASSERT_TRUE(records.ok()) << records.status();
  ASSERT_EQ(records->size(), 1u);
  EXPECT_EQ(records->front().step_id, 1);
}

}  // namespace
