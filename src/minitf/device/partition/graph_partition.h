// Partitioning: one graph per device, joined by _Send/_Recv pairs.
//
// After placement every node of a client graph (subgraph.h) names its
// device. Each device runs its own executor, on its own graph, so the graph
// is cut: every node goes to the partition of its device, and every edge
// whose ends are on different devices is replaced by a _Send in the
// producer's partition and a _Recv in the consumer's (sendrecv_ops.h), which
// meet in the step's rendezvous. The rules are TensorFlow's:
//   - one transfer per tensor per destination device: when a tensor has
//     several consumers on another device, they all read one _Recv there;
//   - a control edge a -> b across devices becomes a tiny data transfer: a
//     Const (an empty float tensor) on a's device that runs after a, sent to
//     a _Recv on b's device that b waits on. One per (a, device of b).
// Send and Recv nodes are named after the producer, "<producer>/_<n>", with
// n counting up across the whole cut; their tensor_name attr is the tensor
// they carry ("a:0"), or "^a" for a control edge. With its two devices, the
// tensor name makes the rendezvous key unique within a step.
//
//   PartitionOptions options;
//   options.incarnation = [&](const std::string& d) { return ...; };
//   TF_ASSIGN_OR_RETURN(auto parts, tf::Partition(*client_graph, options));
//   for (auto& [device, graph] : parts) std::cout << device << ": "
//                                                 << graph->num_nodes();
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "minitf/graph/graph.h"
#include "minitf/tensor/status.h"

namespace minitf {

struct PartitionOptions {
  /// The incarnation of a device, by full name, for the
  /// send_device_incarnation attr. REQUIRED.
  std::function<uint64_t(const std::string& device)> incarnation;
  /// The partition a node goes to (TensorFlow's node_to_loc); by default its
  /// assigned device. Chapter 7's master cuts by task
  /// ("/job:ps/replica:0/task:0"): an edge between two devices of one task
  /// then stays in the task's graph, which the task's worker cuts again by
  /// device. A transfer's _Recv runs on the device of its first reader.
  std::function<std::string(const Node& node)> node_to_loc;
};

/// The partitions of `graph`, by device name (by location when
/// options.node_to_loc is set). Each partition holds its
/// device's nodes, in the order of `graph`, with their names, attrs and
/// shapes, plus the Send, Recv and control Const nodes of the cut, every
/// node with its device as requested and assigned device.
/// A made node's name never clashes with one of `graph`: the counter skips
/// names `graph` uses. REQUIRES: every node of `graph` has an assigned
/// device. Errors: those of Graph::AddNode, which a well-formed `graph`
/// never causes.
StatusOr<std::map<std::string, std::unique_ptr<Graph>>> Partition(
    const Graph& graph, const PartitionOptions& options);

}  // namespace minitf
