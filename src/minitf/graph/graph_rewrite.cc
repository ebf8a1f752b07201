#include "minitf/graph/graph_rewrite.h"

#include <algorithm>
#include <utility>

#include "minitf/graph/executor.h"
#include "minitf/graph/kernel.h"

namespace minitf {

bool GraphRewriteOptions::HasKernel(const Node& n, std::string_view op) const {
  if (has_kernel) return has_kernel(n, op);
  return KernelRegistry::Global()->HasKernel(op, DEVICE_CPU);
}

GraphRewriteRegistry* GraphRewriteRegistry::Global() {
  static auto* registry = new GraphRewriteRegistry;
  return registry;
}

void GraphRewriteRegistry::Register(std::string name, int order,
                                    GraphRewritePass pass) {
  Entry entry{std::move(name), order, std::move(pass)};
  auto at = std::upper_bound(
      passes_.begin(), passes_.end(), entry,
      [](const Entry& a, const Entry& b) { return a.order < b.order; });
  passes_.insert(at, std::move(entry));
}

// --8<-- [start:run_passes]
StatusOr<std::unique_ptr<Graph>> GraphRewriteRegistry::Run(
    const Graph& graph, const GraphRewriteOptions& options) const {
  std::unique_ptr<Graph> current;
  for (const Entry& entry : passes_) {
    TF_ASSIGN_OR_RETURN(std::unique_ptr<Graph> next,
                        entry.pass(current ? *current : graph, options));
    if (next != nullptr) current = std::move(next);
  }
  return current;
}
// --8<-- [end:run_passes]

NodeSpec NodeSpecWithEdges(const Node& n) {
  NodeSpec spec = NodeSpecOf(n);
  spec.inputs = n.inputs();
  spec.control_inputs = n.control_inputs();
  return spec;
}

StatusOr<std::unique_ptr<Graph>> CopyGraph(
    const Graph& source,
    const std::function<std::optional<NodeSpec>(const Node&)>& spec_of) {
  auto graph = std::make_unique<Graph>();
  std::vector<Node*> copy_of(source.num_nodes(), nullptr);
  for (int id = 0; id < source.num_nodes(); ++id) {
    const Node& n = *source.node(id);
    std::optional<NodeSpec> spec = spec_of(n);
    if (!spec.has_value()) continue;
    for (Output& in : spec->inputs) {
      Node* copy = copy_of[in.node()->id()];
      if (copy == nullptr) {
        return errors::Internal("The copy of node '", n.name(), "' reads '",
                                in.name(), "', which was left out");
      }
      in = Output(copy, in.index());
    }
    for (Node*& c : spec->control_inputs) {
      if (copy_of[c->id()] == nullptr) {
        return errors::Internal("The copy of node '", n.name(), "' waits for '",
                                c->name(), "', which was left out");
      }
      c = copy_of[c->id()];
    }
    TF_ASSIGN_OR_RETURN(copy_of[id], graph->AddNode(*std::move(spec)));
    copy_of[id]->set_assigned_device(n.assigned_device());
  }
  return graph;
}

// --8<-- [start:rewrite_for_run]
StatusOr<RewrittenRun> RewriteForRun(const Graph& graph,
                                     const std::vector<Output>& feeds,
                                     const std::vector<Output>& fetches,
                                     const std::vector<const Node*>& targets,
                                     GraphRewriteOptions options) {
  // The nodes the run needs, and the producers of the fed tensors (with
  // what they read), which the copies of the feeds' readers point at.
  std::vector<const Node*> fed_producers;
  for (const Output& t : feeds) fed_producers.push_back(t.node());
  std::vector<bool> keep = PruneForFetches(graph, feeds, fetches, targets);
  const std::vector<bool> under_feeds =
      PruneForFetches(graph, {}, {}, fed_producers);
  for (int id = 0; id < graph.num_nodes(); ++id) {
    if (under_feeds[id]) keep[id] = true;
  }
  for (const Output& t : feeds) options.preserve.insert(t.node()->name());
  for (const Output& t : fetches) options.preserve.insert(t.node()->name());
  for (const Node* n : targets) options.preserve.insert(n->name());

  TF_ASSIGN_OR_RETURN(
      std::unique_ptr<Graph> pruned,
      CopyGraph(graph, [&](const Node& n) -> std::optional<NodeSpec> {
        if (!keep[n.id()]) return std::nullopt;
        return NodeSpecWithEdges(n);
      }));
  RewrittenRun run;
  TF_ASSIGN_OR_RETURN(run.graph,
                      GraphRewriteRegistry::Global()->Run(*pruned, options));
  if (run.graph == nullptr) return run;  // Nothing to change.
  // The run's tensors by name: a rewritten node keeps the name of the node
  // whose value it computes.
  auto find = [&run](const Node& n) -> StatusOr<Node*> {
    Node* found = run.graph->FindNode(n.name());
    if (found == nullptr) {
      return errors::Internal("A graph rewrite removed node '", n.name(),
                              "', which the run feeds, fetches or targets");
    }
    return found;
  };
  for (const Output& t : feeds) {
    TF_ASSIGN_OR_RETURN(Node * n, find(*t.node()));
    run.feeds.emplace_back(n, t.index());
  }
  for (const Output& t : fetches) {
    TF_ASSIGN_OR_RETURN(Node * n, find(*t.node()));
    run.fetches.emplace_back(n, t.index());
  }
  for (const Node* t : targets) {
    TF_ASSIGN_OR_RETURN(Node * n, find(*t));
    run.targets.push_back(n);
  }
  return run;
}
// --8<-- [end:rewrite_for_run]

}  // namespace minitf
