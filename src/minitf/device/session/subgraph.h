// The client graph: what one run signature executes, as a graph of its own.
//
// A session runs the same graph with many (feeds, fetches, targets)
// signatures. For each, the DirectSession makes a graph that holds exactly
// the work of that signature: the nodes the fetches and targets need
// (pruning, as chapter 2's planner does), with the feeds and fetches turned
// into nodes, as TensorFlow's subgraph rewriting does:
//   - each fed tensor x:0 becomes a _Recv named _recv_x_0, on the client
//     device, with client_terminated=true: the session sends the fed value
//     into the step's rendezvous and this node receives it;
//   - each fetched tensor c:0 gets a _Send named _send_c_0, on the client
//     device, client_terminated=true: it hands the value to the session.
// After this rewrite, feeds and fetches are ordinary edges, so the
// partitioner carries a fed value to a GPU, or a fetched one back from it,
// the way it carries any other tensor.
//
// The session also keeps a whole copy of the user's graph to place (the
// placer writes each node's device into the copy, never into the user's
// graph); CopyNewNodes keeps that copy up to date as the graph grows.
//
//   TF_RETURN_IF_ERROR(tf::CopyNewNodes(user_graph, &placed));
//   ... place `placed` ...
//   TF_ASSIGN_OR_RETURN(auto client, tf::BuildClientGraph(placed, {x}, {c},
//                                                         {}, cpu0_attrs));
//   // client: _recv_x_0 -> ... -> c -> _send_c_0, every node with a device
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "minitf/device/devices/device_attributes.h"
#include "minitf/graph/graph.h"
#include "minitf/tensor/status.h"

namespace minitf {

/// Copies the nodes of `source` that `dest` does not have yet, in order,
/// with their names, attrs, edges, shapes, requested and assigned devices.
/// REQUIRES: `dest` holds copies of the first dest->num_nodes() nodes of
/// `source`, made by earlier calls, so that a node has the same id in both.
Status CopyNewNodes(const Graph& source, Graph* dest);

/// The names the rewrite gives the nodes of a feed and of a fetch of
/// tensor `t`: "_recv_x_0", "_send_c_0".
std::string FeedNodeName(const Output& t);
std::string FetchNodeName(const Output& t);

/// The graph of one run signature of `placed`, every node of which has an
/// assigned device. `feeds` and `fetches` are tensors of `placed` (fetches
/// without repeats), `targets` its nodes; `client` is the device that feeds
/// and fetches (CPU:0).
///
/// Keeps the nodes that the fetches and targets need (PruneForFetches) in
/// their order, each with its assigned device as both requested and
/// assigned device; adds a _Recv per fed tensor that is used, and a _Send
/// per fetch, as the file comment says. Errors: an unfed placeholder that a
/// fetch or target needs (chapter 2's "You must feed a value for placeholder
/// tensor ..."), a node without an assigned device (Internal).
StatusOr<std::unique_ptr<Graph>> BuildClientGraph(
    const Graph& placed, const std::vector<Output>& feeds,
    const std::vector<Output>& fetches, const std::vector<const Node*>& targets,
    const DeviceAttributes& client);

}  // namespace minitf
