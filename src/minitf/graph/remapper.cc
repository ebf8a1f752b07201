// The remapper: a graph rewrite pass (graph_rewrite.h) that replaces
// MatMul -> BiasAdd [-> Relu] by one _FusedMatMul node, as TensorFlow's
// Grappler remapper does on the CPU. An Add (or AddV2) of the product and a
// vector as long as its rows is a bias add too, as `tf.matmul(x, W) + b`
// builds it; TensorFlow fuses that form where oneDNN is on (its default on
// x86), and leaves it apart without oneDNN.
//
// The fused kernel computes the product and then adds the bias and applies
// Relu in one pass over it while it is still in cache, where the three ops
// write three tensors and read two of them back. The rewrite is only sound
// where no one else sees the values it no longer makes: the MatMul's output
// and, when Relu is fused, the BiasAdd's each have one reader, the next op of
// the chain; they are not fed, fetched or targeted (the run would miss them);
// nothing waits on them through a control edge; the chain runs on one device,
// which has the fused kernel; and the dtype is float, the one the remapper
// fuses on TensorFlow's CPU. The fused node takes the last node's name, attrs
// fused_ops ["BiasAdd", "Relu"] or ["BiasAdd"], num_args 1 and epsilon 0,
// and the union of the chain's control inputs.
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "minitf/graph/graph_rewrite.h"
#include "minitf/graph/op_def.h"

namespace minitf {
namespace {

// MatMul -> BiasAdd [-> Relu], by node; the bias add may be an Add.
struct Chain {
  const Node* matmul = nullptr;
  const Node* bias_add = nullptr;
  int bias_port = 1;           // bias_add's input that is the bias
  const Node* relu = nullptr;  // null: fused_ops ["BiasAdd"]
  const Node* tail() const { return relu != nullptr ? relu : bias_add; }
};

// --8<-- [start:fusable]
// Whether `n`'s only reader is `next`, reading output 0 once, and nothing
// else sees `n`: not a fed, fetched or targeted node, no control edge out.
bool OnlyFeeds(const Node& n, const Node& next,
               const GraphRewriteOptions& options) {
  if (options.Preserved(n) || !n.control_outputs().empty()) return false;
  if (n.consumers().size() != 1 || n.consumers()[0] != &next) return false;
  return std::count(next.inputs().begin(), next.inputs().end(),
                    Output(const_cast<Node*>(&n), 0)) == 1;
}

bool IsFloat(const Node& n) {
  return n.num_outputs() == 1 && n.output_type(0) == DT_FLOAT;
}

bool SameDevice(const Node& a, const Node& b) {
  return a.assigned_device() == b.assigned_device() &&
         a.requested_device() == b.requested_device();
}

// Which input of `n` is a bias added to a MatMul's product at the other
// input: BiasAdd's input 1, or an Add's vector input whose length is known
// and that of the product's rows. -1 when `n` is not a bias add.
int BiasPort(const Node& n) {
  if (n.type_string() == "BiasAdd") return 1;
  if (n.type_string() != "Add" && n.type_string() != "AddV2") return -1;
  for (int port : {1, 0}) {
    const TensorShape& bias = n.input(port).shape();
    const TensorShape& product = n.input(1 - port).shape();
    if (n.input(1 - port).node()->type_string() == "MatMul" &&
        !bias.unknown_rank() && bias.dims() == 1 && bias.dim_size(0) >= 0 &&
        !product.unknown_rank() && product.dims() == 2 &&
        product.dim_size(1) == bias.dim_size(0)) {
      return port;
    }
  }
  return -1;
}

// The chain that ends at bias add `n` (or at its Relu), if it may be fused.
std::optional<Chain> ChainAt(const Node& n,
                             const GraphRewriteOptions& options) {
  const int bias_port = BiasPort(n);
  if (bias_port < 0 || !IsFloat(n)) return std::nullopt;
  const Output product = n.input(1 - bias_port);
  const Node& matmul = *product.node();
  if (matmul.type_string() != "MatMul" || product.index() != 0 ||
      !IsFloat(matmul) || !SameDevice(matmul, n) ||
      !OnlyFeeds(matmul, n, options) || !options.HasKernel(n, "_FusedMatMul")) {
    return std::nullopt;
  }
  Chain chain{&matmul, &n, bias_port, nullptr};
  if (n.consumers().size() == 1) {
    const Node& next = *n.consumers()[0];
    if (next.type_string() == "Relu" && IsFloat(next) && SameDevice(n, next) &&
        OnlyFeeds(n, next, options)) {
      chain.relu = &next;
    }
  }
  return chain;
}
// --8<-- [end:fusable]

// --8<-- [start:fused_spec]
// The _FusedMatMul that replaces `chain`, named as its last node, with its
// inputs in the original graph.
NodeSpec FusedSpec(const Chain& chain) {
  NodeSpec spec = NodeSpecOf(*chain.tail());
  spec.op_def = OpRegistry::Global()->LookUp("_FusedMatMul").value();
  spec.attrs = {
      {"T", DT_FLOAT},
      {"transpose_a", chain.matmul->attrs().at("transpose_a")},
      {"transpose_b", chain.matmul->attrs().at("transpose_b")},
      {"num_args", int64_t{1}},
      {"fused_ops", chain.relu != nullptr
                        ? std::vector<std::string>{"BiasAdd", "Relu"}
                        : std::vector<std::string>{"BiasAdd"}},
      {"epsilon", 0.0f},
      {"leakyrelu_alpha", 0.2f},
  };
  spec.inputs = {chain.matmul->input(0), chain.matmul->input(1),
                 chain.bias_add->input(chain.bias_port)};
  for (const Node* n : {chain.matmul, chain.bias_add, chain.relu}) {
    if (n == nullptr) continue;
    for (Node* c : n->control_inputs()) {
      if (std::find(spec.control_inputs.begin(), spec.control_inputs.end(),
                    c) == spec.control_inputs.end()) {
        spec.control_inputs.push_back(c);
      }
    }
  }
  return spec;
}
// --8<-- [end:fused_spec]

StatusOr<std::unique_ptr<Graph>> Remap(const Graph& graph,
                                       const GraphRewriteOptions& options) {
  if (options.config != nullptr &&
      options.config->graph_options.rewrite_options.remapping ==
          RewriterConfig::OFF) {
    return std::unique_ptr<Graph>();
  }
  std::map<int, Chain> chain_ending_at;  // By the id of its last node.
  std::vector<bool> fused_away(graph.num_nodes(), false);
  for (const Node* n : graph.nodes()) {
    std::optional<Chain> chain = ChainAt(*n, options);
    if (!chain.has_value()) continue;
    fused_away[chain->matmul->id()] = true;
    if (chain->relu != nullptr) fused_away[chain->bias_add->id()] = true;
    chain_ending_at.emplace(chain->tail()->id(), *chain);
  }
  if (chain_ending_at.empty()) return std::unique_ptr<Graph>();
  return CopyGraph(graph, [&](const Node& n) -> std::optional<NodeSpec> {
    if (fused_away[n.id()]) return std::nullopt;
    auto chain = chain_ending_at.find(n.id());
    if (chain != chain_ending_at.end()) return FusedSpec(chain->second);
    return NodeSpecWithEdges(n);
  });
}

}  // namespace

MINITF_REGISTER_GRAPH_REWRITE("remapper", 0, Remap);

}  // namespace minitf
