#include "minitf/device/session/timeline.h"

#include <gtest/gtest.h>

#include <string>

namespace minitf {
namespace {

NodeExecStats Node(const std::string& name, const std::string& label,
                   int64_t start, int64_t duration, int64_t bytes) {
  NodeExecStats n;
  n.node_name = name;
  n.timeline_label = label;
  n.all_start_micros = start;
  n.op_start_rel_micros = 1;
  n.op_end_rel_micros = duration - 1;
  n.all_end_rel_micros = duration;
  if (bytes > 0) {
    NodeOutput out;
    out.tensor_description.dtype = DT_FLOAT;
    out.tensor_description.shape = TensorShape({bytes / 4});
    out.tensor_description.allocation_description.requested_bytes = bytes;
    out.tensor_description.allocation_description.allocator_name = "cpu";
    n.output.push_back(out);
  }
  return n;
}

TEST(TimelineTest, OneDeviceInTensorFlowsLayout) {
  StepStats stats;
  stats.dev_stats.push_back({"/cpu:0",
                             {Node("a", "a = Const()", 100, 10, 8),
                              Node("b", "b = Neg(a)", 120, 5, 8)}});
  EXPECT_EQ(Timeline(stats).generate_chrome_trace_format(),
            R"({
    "traceEvents": [
        {
            "name": "process_name",
            "ph": "M",
            "pid": 0,
            "args": {
                "name": "Allocators"
            }
        },
        {
            "name": "process_name",
            "ph": "M",
            "pid": 1,
            "args": {
                "name": "/cpu:0 Compute"
            }
        },
        {
            "name": "process_name",
            "ph": "M",
            "pid": 2,
            "args": {
                "name": "/cpu:0 Tensors"
            }
        },
        {
            "ph": "X",
            "cat": "Op",
            "name": "Const",
            "pid": 1,
            "tid": 0,
            "ts": 100,
            "dur": 10,
            "args": {
                "name": "a",
                "op": "Const"
            }
        },
        {
            "ph": "X",
            "cat": "Op",
            "name": "Neg",
            "pid": 1,
            "tid": 0,
            "ts": 120,
            "dur": 5,
            "args": {
                "name": "b",
                "op": "Neg",
                "input0": "a"
            }
        }
    ]
})");
}

TEST(TimelineTest, OverlappingNodesGetLanesAndArrowsJoinDevices) {
  StepStats stats;
  stats.dev_stats.push_back({"/gpu:0",
                             {Node("a", "a = Const()", 100, 50, 8),
                              Node("b", "b = Const()", 110, 50, 8)}});
  stats.dev_stats.push_back(
      {"/cpu:0", {Node("c", "c = Add(a/_1, b)", 200, 5, 8)}});
  const std::string trace = Timeline(stats).generate_chrome_trace_format();
  // b overlaps a, so it gets lane 1.
  EXPECT_NE(trace.find(R"("name": "Const",
            "pid": 1,
            "tid": 1,
            "ts": 110)"),
            std::string::npos)
      << trace;
  // c reads a (through a _Recv named a/_1) and b, both from another device:
  // two arrows, each a start and an end.
  EXPECT_NE(trace.find(R"("ph": "s",
            "cat": "DataFlow",
            "name": "a",
            "pid": 1,
            "tid": 0,
            "ts": 150,
            "id": 0)"),
            std::string::npos)
      << trace;
  EXPECT_NE(trace.find(R"("ph": "t",
            "cat": "DataFlow",
            "name": "b",
            "pid": 3,
            "tid": 0,
            "ts": 200,
            "id": 1)"),
            std::string::npos)
      << trace;
  EXPECT_EQ(trace.find("\"C\""), std::string::npos);
}

TEST(TimelineTest, MemoryShowsTensorsAndRunningTotals) {
  StepStats stats;
  stats.dev_stats.push_back({"/cpu:0",
                             {Node("a", "a = Const()", 100, 10, 8),
                              Node("b", "b = Neg(a)", 120, 5, 16)}});
  const std::string trace = Timeline(stats).generate_chrome_trace_format(
      /*show_dataflow=*/false, /*show_memory=*/true);
  // a lives from 100 to 124 (b's end - 1), b from 120 to 125: the total
  // goes 8, 24, 16, 0.
  for (const char* total :
       {"\"cpu\": 8", "\"cpu\": 24", "\"cpu\": 16", "\"cpu\": 0"}) {
    EXPECT_NE(trace.find(total), std::string::npos) << total << "\n" << trace;
  }
  EXPECT_NE(trace.find(R"("ph": "N")"), std::string::npos);
  EXPECT_NE(trace.find(R"("ph": "D")"), std::string::npos);
  EXPECT_NE(trace.find("allocator_name: cpu"), std::string::npos);
}

}  // namespace
}  // namespace minitf
