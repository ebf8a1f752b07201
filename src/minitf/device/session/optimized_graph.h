// The optimized graph of a placed client graph: where a session's rewrites
// (graph_rewrite.h) meet its devices.
//
// Chapter 3's passes take a graph and return a cheaper equivalent one; the
// remapper, for instance, fuses MatMul -> BiasAdd -> Relu into one
// _FusedMatMul. A session that places its nodes runs them after placement
// and before partitioning, as TensorFlow runs Grappler on each run
// signature's client graph (GraphExecutionState::OptimizeGraph): a fusion
// then happens only where the node's device has the fused kernel, and each
// device's partition holds the fused node. Chapter 4's DirectSession and
// chapter 7's master both call this one function, the master with remote
// devices, whose types its device set knows.
//
//   TF_ASSIGN_OR_RETURN(auto client, BuildClientGraph(placed, feeds,
//                                                     fetches, targets, cpu));
//   TF_ASSIGN_OR_RETURN(client, OptimizedGraph(std::move(client), devices,
//                                              config, targets));
//   TF_ASSIGN_OR_RETURN(auto partitions, Partition(*client, options));
#pragma once

#include <memory>
#include <vector>

#include "minitf/device/devices/device_set.h"
#include "minitf/graph/config.h"
#include "minitf/graph/graph.h"
#include "minitf/tensor/status.h"

namespace minitf {

/// The client graph `client` with the registered passes applied (or
/// `client` itself when none changes it). Nodes named in `targets` are
/// preserved; a fed or fetched tensor's node keeps its output because the
/// client graph's _Recv or _Send stands beside it. A node is rewritten
/// into an op only when `devices` has the node's assigned device and that
/// device's type has a kernel of the op. `config`'s
/// graph_options.rewrite_options turns passes off.
/// REQUIRES: every node of `client` is assigned a device.
StatusOr<std::unique_ptr<Graph>> OptimizedGraph(
    std::unique_ptr<Graph> client, const DeviceSet& devices,
    const ConfigProto& config, const std::vector<const Node*>& targets);

}  // namespace minitf
