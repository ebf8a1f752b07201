#include "minitf/device/partition/graph_partition.h"

#include <tuple>
#include <utility>
#include <vector>

#include "minitf/device/partition/sendrecv_ops.h"
#include "minitf/device/session/subgraph.h"
#include "minitf/graph/op_def.h"

namespace minitf {

namespace {

// The state of one cut: the partitions so far, where each node of the
// source graph went, and the transfers already made.
class Partitioner {
 public:
  Partitioner(const Graph& graph, const PartitionOptions& options)
      : graph_(graph), options_(options), copy_of_(graph.num_nodes()) {}

  Status Run() {
    for (const Node* n : graph_.nodes()) TF_RETURN_IF_ERROR(Place(*n));
    return Status::OK();
  }

  std::map<std::string, std::unique_ptr<Graph>> TakePartitions() {
    return std::move(parts_);
  }

 private:
  // Where `n` goes: its device, or what options_.node_to_loc says.
  std::string LocOf(const Node& n) const {
    return options_.node_to_loc ? options_.node_to_loc(n) : n.assigned_device();
  }

  Graph* PartitionOf(const std::string& loc) {
    std::unique_ptr<Graph>& g = parts_[loc];
    if (g == nullptr) g = std::make_unique<Graph>();
    return g.get();
  }

  // TensorFlow's new_name: "<prefix>/_<n>", skipping names the graph uses.
  std::string NewName(const std::string& prefix) {
    std::string name;
    do {
      name = StrCat(prefix, "/_", next_name_++);
    } while (graph_.FindNode(name) != nullptr);
    return name;
  }

  // Adds `spec` to partition `loc`, as a node of `device`.
  StatusOr<Node*> Add(NodeSpec spec, const std::string& device,
                      const std::string& loc) {
    spec.requested_device = device;
    TF_ASSIGN_OR_RETURN(Node * n, PartitionOf(loc)->AddNode(std::move(spec)));
    n->set_assigned_device(device);
    return n;
  }

  // A _Send or _Recv of the transfer of `tensor_name` between the devices.
  NodeSpec TransferSpec(const char* op, const std::string& prefix,
                        const std::string& tensor_name,
                        const std::string& src_device,
                        const std::string& dst_device) {
    NodeSpec spec;
    spec.name = NewName(prefix);
    spec.op_def = OpRegistry::Global()->LookUp(op).value();
    spec.attrs["tensor_name"] = tensor_name;
    spec.attrs["send_device"] = src_device;
    spec.attrs["send_device_incarnation"] =
        static_cast<int64_t>(options_.incarnation(src_device));
    spec.attrs["recv_device"] = dst_device;
    spec.attrs["client_terminated"] = false;
    return spec;
  }

  // --8<-- [start:transfer]
  // The _Recv in partition `dst_loc` that delivers output `index` of `src`
  // (a control edge for index -1), made with its _Send on first use, so a
  // tensor crosses to a partition once however many nodes there read it.
  // The _Recv runs on `dst_device`, the device of the first reader.
  StatusOr<Node*> Transfer(const Node& src, int index,
                           const std::string& dst_device,
                           const std::string& dst_loc) {
    auto key = std::make_tuple(src.id(), index, dst_loc);
    if (auto it = recv_of_.find(key); it != recv_of_.end()) return it->second;
    const std::string& src_device = src.assigned_device();
    const std::string src_loc = LocOf(src);
    Output value;
    std::string tensor_name;
    TensorShape shape;
    if (index >= 0) {
      value = Output(copy_of_[src.id()], index);
      tensor_name = StrCat(src.name(), ":", index);
      shape = src.output_shape(index);
    } else {
      // Control: an empty tensor, made after `src`, carries the "done".
      NodeSpec dummy;
      dummy.name = NewName(src.name());
      dummy.op_def = OpRegistry::Global()->LookUp("Const").value();
      dummy.attrs["dtype"] = DT_FLOAT;
      dummy.attrs["value"] = Tensor(DT_FLOAT, TensorShape({0}));
      dummy.output_types = {DT_FLOAT};
      dummy.output_shapes = {TensorShape({0})};
      dummy.control_inputs = {copy_of_[src.id()]};
      TF_ASSIGN_OR_RETURN(Node * c, Add(std::move(dummy), src_device, src_loc));
      value = Output(c, 0);
      tensor_name = "^" + src.name();
      shape = TensorShape({0});
    }
    const DType dtype = value.dtype();

    NodeSpec send =
        TransferSpec(kSendOp, src.name(), tensor_name, src_device, dst_device);
    send.attrs["T"] = dtype;
    send.inputs = {value};
    TF_RETURN_IF_ERROR(Add(std::move(send), src_device, src_loc).status());

    NodeSpec recv =
        TransferSpec(kRecvOp, src.name(), tensor_name, src_device, dst_device);
    recv.attrs["tensor_type"] = dtype;
    recv.output_types = {dtype};
    recv.output_shapes = {shape};
    TF_ASSIGN_OR_RETURN(Node * r, Add(std::move(recv), dst_device, dst_loc));
    recv_of_.emplace(key, r);
    return r;
  }
  // --8<-- [end:transfer]

  // Copies `n` into its partition, its inputs from other partitions
  // through transfers.
  Status Place(const Node& n) {
    const std::string& device = n.assigned_device();
    if (device.empty()) {
      return errors::Internal("Node '", n.name(),
                              "' has not been assigned a device");
    }
    const std::string loc = LocOf(n);
    NodeSpec spec = NodeSpecOf(n);
    for (const Output& in : n.inputs()) {
      const Node& src = *in.node();
      if (LocOf(src) == loc) {
        spec.inputs.emplace_back(copy_of_[src.id()], in.index());
      } else {
        TF_ASSIGN_OR_RETURN(Node * recv,
                            Transfer(src, in.index(), device, loc));
        spec.inputs.emplace_back(recv, 0);
      }
    }
    for (const Node* c : n.control_inputs()) {
      if (LocOf(*c) == loc) {
        spec.control_inputs.push_back(copy_of_[c->id()]);
      } else {
        TF_ASSIGN_OR_RETURN(Node * recv, Transfer(*c, -1, device, loc));
        spec.control_inputs.push_back(recv);
      }
    }
    TF_ASSIGN_OR_RETURN(copy_of_[n.id()], Add(std::move(spec), device, loc));
    return Status::OK();
  }

  const Graph& graph_;
  const PartitionOptions& options_;
  std::vector<Node*> copy_of_;  // by node id of graph_
  std::map<std::string, std::unique_ptr<Graph>> parts_;
  std::map<std::tuple<int, int, std::string>, Node*> recv_of_;
  int next_name_ = 0;
};

}  // namespace

StatusOr<std::map<std::string, std::unique_ptr<Graph>>> Partition(
    const Graph& graph, const PartitionOptions& options) {
  Partitioner partitioner(graph, options);
  TF_RETURN_IF_ERROR(partitioner.Run());
  return partitioner.TakePartitions();
}

}  // namespace minitf
