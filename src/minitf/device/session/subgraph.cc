#include "minitf/device/session/subgraph.h"

#include <map>
#include <utility>

#include "minitf/device/partition/sendrecv_ops.h"
#include "minitf/graph/executor.h"
#include "minitf/graph/op_def.h"

namespace minitf {

namespace {

// A _Send or _Recv of the client device, for a feed or a fetch of `t`.
NodeSpec ClientEndSpec(const char* op, std::string name, const Output& t,
                       const DeviceAttributes& client) {
  NodeSpec spec;
  spec.name = std::move(name);
  spec.op_def = OpRegistry::Global()->LookUp(op).value();
  spec.attrs["tensor_name"] = t.name();
  spec.attrs["send_device"] = client.name;
  spec.attrs["send_device_incarnation"] =
      static_cast<int64_t>(client.incarnation);
  spec.attrs["recv_device"] = client.name;
  spec.attrs["client_terminated"] = true;
  spec.requested_device = client.name;
  return spec;
}

}  // namespace

Status CopyNewNodes(const Graph& source, Graph* dest) {
  for (int id = dest->num_nodes(); id < source.num_nodes(); ++id) {
    const Node& n = *source.node(id);
    NodeSpec spec = NodeSpecOf(n);
    for (const Output& in : n.inputs()) {
      spec.inputs.emplace_back(dest->node(in.node()->id()), in.index());
    }
    for (const Node* c : n.control_inputs()) {
      spec.control_inputs.push_back(dest->node(c->id()));
    }
    TF_ASSIGN_OR_RETURN(Node * copy, dest->AddNode(std::move(spec)));
    copy->set_assigned_device(n.assigned_device());
  }
  return Status::OK();
}

std::string FeedNodeName(const Output& t) {
  return StrCat("_recv_", t.node()->name(), "_", t.index());
}

std::string FetchNodeName(const Output& t) {
  return StrCat("_send_", t.node()->name(), "_", t.index());
}

// --8<-- [start:client_graph]
StatusOr<std::unique_ptr<Graph>> BuildClientGraph(
    const Graph& placed, const std::vector<Output>& feeds,
    const std::vector<Output>& fetches, const std::vector<const Node*>& targets,
    const DeviceAttributes& client) {
  const std::vector<bool> needed =
      PruneForFetches(placed, feeds, fetches, targets);
  auto graph = std::make_unique<Graph>();
  std::vector<Node*> copy_of(placed.num_nodes(), nullptr);

  // A fed tensor's _Recv, made the first time something reads the tensor.
  std::map<Output, Node*> feed_node;
  for (const Output& t : feeds) feed_node.emplace(t, nullptr);
  auto source_of = [&](const Output& t) -> StatusOr<Output> {
    auto fed = feed_node.find(t);
    if (fed == feed_node.end())
      return Output(copy_of[t.node()->id()], t.index());
    if (fed->second == nullptr) {
      NodeSpec spec = ClientEndSpec(kRecvOp, FeedNodeName(t), t, client);
      spec.attrs["tensor_type"] = t.dtype();
      spec.output_types = {t.dtype()};
      spec.output_shapes = {t.shape()};
      TF_ASSIGN_OR_RETURN(fed->second, graph->AddNode(std::move(spec)));
      fed->second->set_assigned_device(client.name);
    }
    return Output(fed->second, 0);
  };

  for (int id = 0; id < placed.num_nodes(); ++id) {
    if (!needed[id]) continue;
    const Node& n = *placed.node(id);
    if (n.IsPlaceholder()) return UnfedPlaceholderError(n);
    if (n.assigned_device().empty()) {
      return errors::Internal("Node '", n.name(),
                              "' has not been assigned a device");
    }
    NodeSpec spec = NodeSpecOf(n);
    spec.requested_device = n.assigned_device();
    for (const Output& in : n.inputs()) {
      TF_ASSIGN_OR_RETURN(Output from, source_of(in));
      spec.inputs.push_back(from);
    }
    for (const Node* c : n.control_inputs()) {
      spec.control_inputs.push_back(copy_of[c->id()]);
    }
    TF_ASSIGN_OR_RETURN(copy_of[id], graph->AddNode(std::move(spec)));
    copy_of[id]->set_assigned_device(n.assigned_device());
  }

  for (const Output& t : fetches) {
    NodeSpec spec = ClientEndSpec(kSendOp, FetchNodeName(t), t, client);
    spec.attrs["T"] = t.dtype();
    TF_ASSIGN_OR_RETURN(Output from, source_of(t));
    spec.inputs.push_back(from);
    TF_ASSIGN_OR_RETURN(Node * send, graph->AddNode(std::move(spec)));
    send->set_assigned_device(client.name);
  }
  return graph;
}
// --8<-- [end:client_graph]

}  // namespace minitf
