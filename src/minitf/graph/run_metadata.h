// RunMetadata and StepStats: what a traced run reports about itself.
//
// A run asked for a trace (RunOptions{.trace_level = RunOptions::FULL_TRACE},
// config.h) comes back with RunMetadata: for every device, for every node
// that ran there, when it started, how long it took and what it produced;
// and, when asked, the graphs each device ran. The structs mirror
// TensorFlow's step_stats.proto and config.proto field for field, so that a
// timeline (chapter 4's Chrome-trace exporter) reads them as TensorFlow's
// tf.python.client.timeline reads the protos. This layer only defines them;
// chapter 2's session does not trace, chapter 4's DirectSession fills them.
//
//   tf::RunMetadata metadata;
//   sess.run({c}, {}, tf::RunOptions{.trace_level =
//   tf::RunOptions::FULL_TRACE},
//            &metadata);
//   for (const auto& dev : metadata.step_stats.dev_stats)
//     for (const auto& n : dev.node_stats) std::cout << n.node_name << "\n";
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "minitf/graph/graph_def.h"
#include "minitf/tensor/dtype.h"
#include "minitf/tensor/tensor_shape.h"

namespace minitf {

/// tensorflow.AllocationDescription: the memory behind one tensor.
struct AllocationDescription {
  int64_t requested_bytes = 0;
  int64_t allocated_bytes = 0;
  std::string allocator_name;
};

/// tensorflow.TensorDescription.
struct TensorDescription {
  DType dtype = DT_INVALID;
  TensorShape shape;
  AllocationDescription allocation_description;
};

/// tensorflow.NodeOutput: one output a node produced.
struct NodeOutput {
  int slot = 0;
  TensorDescription tensor_description;
};

/// tensorflow.NodeExecStats: one node's run. Times are microseconds: the
/// start since the epoch, the rest relative to it.
struct NodeExecStats {
  std::string node_name;
  int64_t all_start_micros = 0;     ///< When the executor took the node up.
  int64_t op_start_rel_micros = 0;  ///< When its kernel was called.
  int64_t op_end_rel_micros = 0;    ///< When its kernel finished.
  int64_t all_end_rel_micros = 0;   ///< When the executor was done with it.
  std::vector<NodeOutput> output;
  /// "name = Op(input, input)": how timelines learn the op and the edges.
  std::string timeline_label;
  int64_t scheduled_micros = 0;  ///< When it became ready to run.
  uint32_t thread_id = 0;        ///< The executor thread, numbered from 1.
};

/// tensorflow.DeviceStepStats: the nodes one device ran in one step.
struct DeviceStepStats {
  std::string device;
  std::vector<NodeExecStats> node_stats;
};

/// tensorflow.StepStats.
struct StepStats {
  std::vector<DeviceStepStats> dev_stats;
};

/// tensorflow.RunMetadata.
struct RunMetadata {
  /// Filled when RunOptions::trace_level asks for it.
  StepStats step_stats;
  /// One graph per device, as run, when RunOptions::output_partition_graphs.
  std::vector<GraphDef> partition_graphs;
};

}  // namespace minitf
