// Timeline: a traced step as a picture, in Chrome's trace format.
//
// RunMetadata::step_stats (run_metadata.h) lists, per device, when each
// node ran. TensorFlow's tf.python.client.timeline turns that into a JSON
// file that chrome://tracing (or Perfetto) draws: one row ("process") per
// device, a bar per node, arrows where a tensor went from one node to
// another on a different row, and, if asked, the memory each allocator held
// over time. This is that module in C++, event for event: the same rows,
// bar names (the op), arguments (node name, op, inputs), lanes, flows and
// counters, and the same JSON layout as Python's json.dumps(..., indent=4).
//
//   tf::RunMetadata metadata;
//   sess.run({c}, {}, tf::RunOptions{.trace_level =
//   tf::RunOptions::FULL_TRACE},
//            &metadata);
//   tf::Timeline tl(metadata.step_stats);
//   std::ofstream("timeline.json") << tl.generate_chrome_trace_format();
#pragma once

#include <string>

#include "minitf/graph/run_metadata.h"

namespace minitf {

/// tf.python.client.timeline.Timeline.
///
/// Algorithm (generate_chrome_trace_format): give pid 0 to the allocators
/// and two pids to each device ("DEVICE Compute", "DEVICE Tensors");
/// put each node of a device in the first lane free at its start, so bars
/// in one lane never overlap; record each output as a tensor ("name" for
/// output 0, "name:i" otherwise) alive while its node runs; emit a bar per
/// node, extend the life of every tensor it reads (an input that names a
/// _Recv of the partitioner, "a/_3", is looked up as "a" if needed), and,
/// with show_dataflow, an arrow from producer to consumer when they are in
/// different lanes or devices; with show_memory, the tensors as objects and
/// a running total of bytes per allocator.
///
/// Thread safety: none needed; the object holds a copy of the stats.
class Timeline {
 public:
  explicit Timeline(StepStats step_stats);

  /// The trace as JSON text.
  std::string generate_chrome_trace_format(bool show_dataflow = true,
                                           bool show_memory = false) const;

 private:
  StepStats step_stats_;
};

}  // namespace minitf
