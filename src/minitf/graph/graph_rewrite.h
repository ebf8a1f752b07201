// The optimized graph: rewrites a session applies to what it is about to run.
//
// A user's graph says what to compute, op by op; a session is free to run
// something equivalent that is cheaper. TensorFlow's Grappler does this
// between pruning and execution: it takes the graph of one run signature
// (the nodes the fetches need), hands it to a list of optimizers, and runs
// what comes back. One of them, the remapper, replaces MatMul -> BiasAdd
// -> Relu by one _FusedMatMul node. This file is the engine's version of
// that stage: a registry of passes, each a function from a graph to a new
// graph (or to "nothing to do"), which the sessions apply to a copy, never
// to the user's Graph. Chapter 2's LocalSession rewrites the pruned copy
// RewriteForRun makes; chapter 4's DirectSession and chapter 7's master
// rewrite their client graphs (device/session/optimized_graph.h), whose nodes
// are placed, so a pass can ask whether a node's device has the kernel it would
// put there.
//
//   GraphRewriteOptions options{.config = &session_config};
//   TF_ASSIGN_OR_RETURN(RewrittenRun run,
//                       RewriteForRun(graph, feeds, fetches, targets,
//                                     options));
//   // run.graph: null (run `graph` itself) or the graph to plan instead
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "minitf/graph/config.h"
#include "minitf/graph/graph.h"
#include "minitf/tensor/status.h"

namespace minitf {

/// What a pass knows of the run besides the graph.
struct GraphRewriteOptions {
  /// The session's configuration (graph_options.rewrite_options turns
  /// passes off); null means the defaults.
  const ConfigProto* config = nullptr;
  /// Nodes whose outputs the run feeds, fetches or targets: a pass may
  /// rewrite such a node into another op of the same name and outputs, never
  /// remove it. TensorFlow's nodes_to_preserve.
  std::set<std::string, std::less<>> preserve;
  /// Whether the device `node` is assigned to has a kernel of `op`. Null:
  /// every node runs on the CPU, and the CPU's kernels are asked.
  std::function<bool(const Node& node, std::string_view op)> has_kernel;

  bool Preserved(const Node& n) const { return preserve.count(n.name()) > 0; }
  bool HasKernel(const Node& n, std::string_view op) const;
};

/// One pass: a new graph equivalent to `graph`, or null when it has nothing
/// to change. A node of the new graph that computes what a node of `graph`
/// did keeps its name, so that fetches and consumers by name still find it.
using GraphRewritePass = std::function<StatusOr<std::unique_ptr<Graph>>(
    const Graph& graph, const GraphRewriteOptions& options)>;

/// The passes, run in the order of their `order` (then of registration).
/// Thread safety: registration happens during static initialization; runs
/// only read.
class GraphRewriteRegistry {
 public:
  static GraphRewriteRegistry* Global();
  void Register(std::string name, int order, GraphRewritePass pass);
  /// Every pass in turn, each on the previous one's result. Null when none
  /// changed anything.
  StatusOr<std::unique_ptr<Graph>> Run(
      const Graph& graph, const GraphRewriteOptions& options) const;

 private:
  struct Entry {
    std::string name;
    int order;
    GraphRewritePass pass;
  };
  std::vector<Entry> passes_;
};

/// A copy of `source` in a new graph, node by node in id order. `spec_of`
/// gives the spec of a node's copy with its inputs and control inputs still
/// pointing at nodes of `source` (NodeSpecOf plus the node's edges, for a
/// plain copy), or nullopt to leave the node out; the copier points the edges
/// at the copies, and gives each copy the assigned device of the node.
/// REQUIRES: a kept spec reads no left-out node, nor a later one.
StatusOr<std::unique_ptr<Graph>> CopyGraph(
    const Graph& source,
    const std::function<std::optional<NodeSpec>(const Node&)>& spec_of);

/// The spec of a plain copy of `n`: NodeSpecOf with its edges.
NodeSpec NodeSpecWithEdges(const Node& n);

/// A run signature on a rewritten graph.
struct RewrittenRun {
  /// Null when no pass changed anything: the run plans the user's graph.
  std::unique_ptr<Graph> graph;
  /// The run's tensors and nodes in `graph`.
  std::vector<Output> feeds, fetches;
  std::vector<const Node*> targets;
};

/// The nodes of `graph` that the run needs (PruneForFetches, plus the
/// producers of fed tensors, whose edges the feeds replace), copied into a
/// graph of their own and rewritten by the registered passes, with the
/// feeds', fetches' and targets' nodes preserved.
StatusOr<RewrittenRun> RewriteForRun(const Graph& graph,
                                     const std::vector<Output>& feeds,
                                     const std::vector<Output>& fetches,
                                     const std::vector<const Node*>& targets,
                                     GraphRewriteOptions options);

namespace internal {
struct GraphRewriteRegistration {
  GraphRewriteRegistration(std::string name, int order, GraphRewritePass pass) {
    GraphRewriteRegistry::Global()->Register(std::move(name), order,
                                             std::move(pass));
  }
};
}  // namespace internal

}  // namespace minitf

/// Registers a GraphRewritePass at static initialization.
#define MINITF_REGISTER_GRAPH_REWRITE(name, order, pass) \
  MINITF_REGISTER_GRAPH_REWRITE_UNIQ(__COUNTER__, name, order, pass)
#define MINITF_REGISTER_GRAPH_REWRITE_UNIQ(ctr, name, order, pass) \
  MINITF_REGISTER_GRAPH_REWRITE_UNIQ2(ctr, name, order, pass)
#define MINITF_REGISTER_GRAPH_REWRITE_UNIQ2(ctr, name, order, pass) \
  static const ::minitf::internal::GraphRewriteRegistration         \
      minitf_graph_rewrite_##ctr [[maybe_unused]] (name, order, pass)
