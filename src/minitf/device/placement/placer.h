// The placer: which device runs each node.
//
// A graph says what to compute; before it can run, every node needs a device.
// A session hands its graph and its devices to the placer, which sets each
// node's assigned device to a full device name, before the graph is split
// into one subgraph per device. The rules are TensorFlow 1.x's:
//
//   1. Nodes that must share a device form colocation groups
//      (colocation_graph.h): a variable with its Assign, its read and its
//      optimizer update; the ops of a tf::colocate_with block.
//   2. A group's device request (tf::device_scope) is honoured; a group that
//      asks nothing goes to the best device with a kernel for all its ops, by
//      type priority, so GPU:0 before GPU:1 before CPU:0.
//   3. A node with no input and one output (a constant, a placeholder) is
//      placed last, on its consumers' device when they share one
//      ("heuristic A"); Shape, Size and Rank go with their input
//      ("heuristic B").
//   4. A request nothing satisfies fails with InvalidArgument, unless
//      allow_soft_placement, which drops the device type and index from it
//      and takes the best device left. A device that does not exist at all
//      is refused first, in the words of the seed's TensorFlow 0.x.
//
// TensorFlow has no rule about int32 in its placer: its int32 ops on a GPU
// have kernels that keep their tensors in host memory, so they are placed on
// the GPU, and an op with no int32 GPU kernel (MatMul) goes to the CPU. minitf
// does the same through the kernel registry, whose GPU kernels carry the
// dtypes TensorFlow's do.
//
//   tf::PlacerOptions options{.log_device_placement = true};
//   TF_RETURN_IF_ERROR(tf::Place(&graph, device_set, options));
//   // MatMul: (MatMul): /job:localhost/replica:0/task:0/device:GPU:0
//   // a: (Const): /job:localhost/replica:0/task:0/device:GPU:0
//   graph.FindNode("MatMul")->assigned_device();  // ".../device:GPU:0"
#pragma once

#include "minitf/device/devices/device_set.h"
#include "minitf/device/placement/colocation_graph.h"
#include "minitf/graph/graph.h"
#include "minitf/tensor/status.h"

namespace minitf {

/// Assigns every node of `graph` a device of `devices`, by its full name.
/// Nodes already assigned (by an earlier placement) keep their device.
/// With options.log_device_placement, writes one line per node to
/// options.log_stream (standard output when null), in the order TensorFlow
/// places them: first the nodes with inputs, in graph order, then the
/// constants and placeholders.
///
/// Errors: FailedPrecondition "No devices are registered" for an empty set.
/// Without soft placement, a node whose own request no device matches is
/// InvalidArgument before anything is placed, in the seed's TensorFlow 0.x
/// words, naming the first such node in TensorFlow 0.x's graph order:
/// "Cannot assign a device to node 'b': Could not satisfy explicit device
/// specification '/gpu:2'\n\t [[Node: b = Const[...]()]]". Otherwise in
/// TensorFlow 1.15's words: InvalidArgument for a node no device can take,
/// e.g. "Cannot assign a device for operation a: {{node a}} was explicitly
/// assigned to /job:ps/task:0 but available devices are [ ... ]. Make sure
/// the device specification refers to a valid device.", and for nodes that
/// cannot be colocated ("Cannot colocate nodes ..."). On error, some nodes
/// may already have been assigned.
///
/// REQUIRES: the devices outlive the call. Thread safety: the graph must not
/// be changed or placed by another thread meanwhile.
Status Place(Graph* graph, const DeviceSet& devices,
             const PlacerOptions& options = {});

}  // namespace minitf
