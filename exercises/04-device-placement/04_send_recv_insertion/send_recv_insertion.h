// Exercise 04_send_recv_insertion: the _Send/_Recv pair of an edge that
// crosses devices.
//
// After placement the graph is cut into one graph per device. A node is
// copied into its device's partition; an input from the same device is read
// from the producer's copy, but an input from another device cannot be: the
// edge is replaced by a _Send after the producer, in the producer's
// partition, and a _Recv in the consumer's, which the consumer reads. The
// two meet in the step's rendezvous under a key both build from their attrs.
// A tensor goes to a device once, however many nodes there read it.
//
//   // a on CPU:0; b = a * a and c = a + b on GPU:0.
//   auto parts = CutGraph(graph, incarnation).value();
//   // CPU:0: a, a/_0 = _Send(a)           tensor_name "a:0"
//   // GPU:0: a/_1 = _Recv, b = Mul(a/_1, a/_1), c = Add(a/_1, b)
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "minitf/device/session/subgraph.h"
#include "minitf/graph/graph.h"
#include "minitf/tensor/errors.h"
#include "minitf/tensor/status.h"

namespace minitf::exercises {

/// The state of one cut of a placed graph, as the partitioner keeps it
/// (the library's own is in src/minitf/device/partition/graph_partition.cc).
///
/// Invariants: when a node is cut, copy_of holds the copy of each of its
/// producers, since a producer comes before its consumers in the graph;
/// recv_of holds every _Recv made so far.
struct Cut {
  Cut(const Graph& g, std::function<uint64_t(const std::string&)> inc)
      : graph(g), incarnation(std::move(inc)), copy_of(g.num_nodes()) {}

  /// The graph being cut; every node has an assigned device.
  const Graph& graph;
  /// The incarnation of a device, by full name: the send_device_incarnation
  /// attr of a transfer that device sends.
  std::function<uint64_t(const std::string& device)> incarnation;
  /// The partitions, by device name, each made by its first Add.
  std::map<std::string, std::unique_ptr<Graph>> partitions;
  /// copy_of[n->id()]: the copy of node n of `graph` in its partition.
  std::vector<Node*> copy_of;
  /// The _Recv that brings a tensor of `graph` to a device, by (tensor,
  /// device name). The partitioner leaves it to CutInputs.
  std::map<std::pair<Output, std::string>, Node*> recv_of;

  /// TensorFlow's name for a node the cut makes: "<prefix>/_<n>", n counting
  /// up across the whole cut and skipping names that `graph` uses.
  std::string NewName(const std::string& prefix) {
    std::string name;
    do {
      name = StrCat(prefix, "/_", next_name_++);
    } while (graph.FindNode(name) != nullptr);
    return name;
  }

  /// Adds `spec` to the partition of `device`, with `device` as its
  /// requested and assigned device. Errors: those of Graph::AddNode.
  StatusOr<Node*> Add(NodeSpec spec, const std::string& device) {
    std::unique_ptr<Graph>& part = partitions[device];
    if (part == nullptr) part = std::make_unique<Graph>();
    spec.requested_device = device;
    TF_ASSIGN_OR_RETURN(Node * n, part->AddNode(std::move(spec)));
    n->set_assigned_device(device);
    return n;
  }

 private:
  int next_name_ = 0;
};

/// YOUR FUNCTION. Fills `copy->inputs`, the inputs of the copy of
/// `consumer` (a node of cut->graph) in its device's partition, in the order
/// of consumer.inputs():
/// - an input whose producer is on the consumer's device: the same output
///   of the producer's copy;
/// - an input from another device: output 0 of the _Recv that brings that
///   tensor to the consumer's device. The first time a tensor goes to a
///   device, make the pair with cut->Add: first a _Send in the producer's
///   partition, reading the producer's copy, then the _Recv in the
///   consumer's, each named cut->NewName(producer's name). Both carry
///   tensor_name (the tensor's name, "a:0"), send_device and recv_device
///   (full device names), send_device_incarnation (int64_t, from
///   cut->incarnation) and client_terminated (false); the _Send has T, the
///   _Recv tensor_type, both the tensor's dtype; the _Recv's one output has
///   the tensor's dtype and shape. Record the _Recv in cut->recv_of; later
///   consumers on that device read the same _Recv.
///
/// REQUIRES: copy->inputs is empty; the copies of consumer's producers are
/// in cut->copy_of. Errors: those of Cut::Add.
Status CutInputs(const Node& consumer, Cut* cut, NodeSpec* copy);

/// The partitioner around CutInputs: the partitions of `graph`, by device,
/// each node copied in order with the inputs CutInputs gives it. As
/// tf::Partition (graph_partition.h) without its transfers of control
/// edges: a control edge across devices is Unimplemented here. A copy to
/// which CutInputs gave too few or too many inputs is InvalidArgument.
/// REQUIRES: every node of `graph` has an assigned device.
inline StatusOr<std::map<std::string, std::unique_ptr<Graph>>> CutGraph(
    const Graph& graph,
    std::function<uint64_t(const std::string&)> incarnation) {
  Cut cut(graph, std::move(incarnation));
  for (const Node* n : graph.nodes()) {
    NodeSpec copy = NodeSpecOf(*n);
    TF_RETURN_IF_ERROR(CutInputs(*n, &cut, &copy));
    if (copy.inputs.size() != n->inputs().size()) {
      return errors::InvalidArgument("CutInputs gave ", copy.inputs.size(),
                                     " inputs to the copy of ", n->name(),
                                     ", which has ", n->inputs().size());
    }
    for (const Node* c : n->control_inputs()) {
      if (c->assigned_device() != n->assigned_device()) {
        return errors::Unimplemented("the control edge ^", c->name(), " -> ",
                                     n->name(), " crosses devices");
      }
      copy.control_inputs.push_back(cut.copy_of[c->id()]);
    }
    TF_ASSIGN_OR_RETURN(cut.copy_of[n->id()],
                        cut.Add(std::move(copy), n->assigned_device()));
  }
  return std::move(cut.partitions);
}

}  // namespace minitf::exercises
