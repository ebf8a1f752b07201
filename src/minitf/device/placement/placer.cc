#include "minitf/device/placement/placer.h"

#include <algorithm>
#include <cctype>
#include <iostream>
#include <string>
#include <vector>

#include "minitf/device/placement/node_errors.h"
#include "minitf/tensor/errors.h"

namespace minitf {
namespace {

// A node with no input and a single non-reference output: a constant, a
// placeholder, a random-number generator. It is worth placing with its
// consumers, since it is produced where it is consumed. A VariableV2 is no
// generator: its output is a reference, and where it lives is its own
// decision.
bool IsGeneratorNode(const Node& node) {
  return node.num_inputs() == 0 && node.num_outputs() == 1 &&
         !node.op_def().outputs[0].is_ref;
}

// Ops that read only their input's shape, not its values, best placed where
// that input already is.
bool IsMetadata(const Node& node) {
  const std::string& op = node.type_string();
  return op == "Shape" || op == "ShapeN" || op == "Size" || op == "Rank";
}

// Every node that reads `node`, through a data edge or a control edge.
std::vector<const Node*> OutNodes(const Node& node) {
  std::vector<const Node*> out(node.consumers().begin(),
                               node.consumers().end());
  out.insert(out.end(), node.control_outputs().begin(),
             node.control_outputs().end());
  return out;
}

// The device named `name`, when it is one of `candidates`; else null.
Device* CandidateNamed(const std::string& name,
                       const std::vector<Device*>& candidates) {
  if (name.empty()) return nullptr;
  for (Device* d : candidates) {
    if (d->name() == name) return d;
  }
  return nullptr;
}

// The order TensorFlow 0.x's placer met the nodes, the order of its graph:
// rebuilt from the GraphDef, that graph took, of the nodes whose inputs were
// all built, the one made ready last (GraphConstructor kept them on a
// stack). For the seed's a, b and MatMul: b, a, MatMul, as its log shows.
std::vector<const Node*> LegacyGraphOrder(const Graph& graph) {
  // How many times each node is among its producers' OutNodes: the count
  // that must fall to zero before it is ready.
  std::vector<int> pending(graph.num_nodes(), 0);
  for (const Node* node : graph.nodes()) {
    for (const Node* out : OutNodes(*node)) ++pending[out->id()];
  }
  std::vector<const Node*> ready;
  for (const Node* node : graph.nodes()) {
    if (pending[node->id()] == 0) ready.push_back(node);
  }
  std::vector<const Node*> order;
  while (!ready.empty()) {
    const Node* node = ready.back();
    ready.pop_back();
    order.push_back(node);
    for (const Node* out : OutNodes(*node)) {
      if (--pending[out->id()] == 0) ready.push_back(out);
    }
  }
  return order;
}

// TensorFlow 0.x's spelling of a device spec: "/job:ps/task:0/gpu:2", the
// type in lower case and "*" for a missing index.
std::string LegacyDeviceString(const DeviceSpec& spec) {
  std::string out;
  if (spec.job) out += "/job:" + *spec.job;
  if (spec.replica) out += "/replica:" + std::to_string(*spec.replica);
  if (spec.task) out += "/task:" + std::to_string(*spec.task);
  if (spec.device_type) {
    std::string type = *spec.device_type;
    std::transform(type.begin(), type.end(), type.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    out += "/" + type + ":" +
           (spec.device_index ? std::to_string(*spec.device_index) : "*");
  }
  return out;
}

class Placer {
 public:
  Placer(Graph* graph, const DeviceSet& devices, const PlacerOptions& options)
      : graph_(graph),
        devices_(devices),
        options_(options),
        colocation_(*graph, devices, options),
        log_(options.log_stream != nullptr ? *options.log_stream : std::cout) {}

  Status Run();

 private:
  Status CheckDevicesExist() const;
  StatusOr<const std::vector<Device*>*> Candidates(const Node& node);
  Status AssignAndLog(const Device& device, Node* node);
  void LogDeviceAssignment(const Node& node);

  Graph* graph_;
  const DeviceSet& devices_;
  const PlacerOptions& options_;
  ColocationGraph colocation_;
  std::ostream& log_;
};

// --8<-- [start:run]
Status Placer::Run() {
  TF_RETURN_IF_ERROR(colocation_.Initialize());
  if (!options_.allow_soft_placement) TF_RETURN_IF_ERROR(CheckDevicesExist());

  // First pass: every node but the generators, in graph order.
  std::vector<Node*> second_pass;
  for (Node* node : graph_->nodes()) {
    if (!node->assigned_device().empty()) {
      TF_RETURN_IF_ERROR(colocation_.LimitToAssignedDevice(*node));
      LogDeviceAssignment(*node);
      continue;
    }
    // Heuristic A: a generator waits until its consumers are placed.
    if (IsGeneratorNode(*node)) {
      second_pass.push_back(node);
      continue;
    }
    TF_ASSIGN_OR_RETURN(const std::vector<Device*>* candidates,
                        Candidates(*node));
    const Device* chosen = nullptr;
    // Heuristic B: a metadata op stays with its input, if it may.
    if (IsMetadata(*node) && node->num_inputs() > 0) {
      chosen =
          CandidateNamed(node->input(0).node()->assigned_device(), *candidates);
    }
    if (chosen == nullptr) chosen = candidates->front();
    TF_RETURN_IF_ERROR(AssignAndLog(*chosen, node));
  }

  // Second pass: a generator joins its consumers when they all share a
  // device it may use; otherwise it takes its own best device.
  for (Node* node : second_pass) {
    TF_ASSIGN_OR_RETURN(const std::vector<Device*>* candidates,
                        Candidates(*node));
    const Device* chosen = nullptr;
    const std::vector<const Node*> out = OutNodes(*node);
    if (!out.empty()) {
      const std::string& device = out.front()->assigned_device();
      const bool shared = std::all_of(
          out.begin(), out.end(),
          [&](const Node* n) { return n->assigned_device() == device; });
      if (shared) chosen = CandidateNamed(device, *candidates);
    }
    if (chosen == nullptr) chosen = candidates->front();
    TF_RETURN_IF_ERROR(AssignAndLog(*chosen, node));
  }
  return Status::OK();
}
// --8<-- [end:run]

// --8<-- [start:devices_exist]
// Before anything is placed, every node's own request must name a device
// that exists. This is the error of the seed tutorial, in the words and the
// node order of its TensorFlow 0.x: "Cannot assign a device to node 'b':
// Could not satisfy explicit device specification '/gpu:2'". TensorFlow 1.x
// met the same request later, in its first pass, and named MatMul in the
// longer text of ColocationGraph::NoDeviceError, which minitf still gives
// when soft placement cannot fix a request for another job.
Status Placer::CheckDevicesExist() const {
  for (const Node* node : LegacyGraphOrder(*graph_)) {
    if (node->requested_device().empty() || !node->assigned_device().empty()) {
      continue;
    }
    // A malformed request was already refused by colocation_.Initialize().
    StatusOr<DeviceSpec> spec = DeviceSpec::Parse(node->requested_device());
    if (!spec.ok() || !devices_.FindMatchingDevices(*spec).empty()) continue;
    const std::string legacy = LegacyDeviceString(*spec);
    return errors::InvalidArgument(
        "Cannot assign a device to node '", node->name(),
        "': Could not satisfy explicit device specification '", legacy,
        "'\n\t [[Node: ", SummarizeNodeLegacy(*node, legacy), "]]");
  }
  return Status::OK();
}
// --8<-- [end:devices_exist]

StatusOr<const std::vector<Device*>*> Placer::Candidates(const Node& node) {
  StatusOr<const std::vector<Device*>*> candidates =
      colocation_.GetDevicesForNode(node);
  if (!candidates.ok()) {
    // TensorFlow 1.14's and 1.15's prefix. A request for a device that does
    // not exist failed earlier, in the seed's words (CheckDevicesExist).
    return AttachDef(errors::InvalidArgument(
                         "Cannot assign a device for operation ", node.name(),
                         ": ", candidates.status().message()),
                     node);
  }
  return candidates;
}

Status Placer::AssignAndLog(const Device& device, Node* node) {
  node->set_assigned_device(device.name());
  // The rest of the node's group must now follow it there.
  TF_RETURN_IF_ERROR(colocation_.LimitToAssignedDevice(*node));
  LogDeviceAssignment(*node);
  return Status::OK();
}

// --8<-- [start:log]
void Placer::LogDeviceAssignment(const Node& node) {
  // TensorFlow writes these lines with printf, to standard output (and
  // repeats them through LOG(INFO) on standard error, which minitf does not).
  if (options_.log_device_placement) {
    log_ << node.name() << ": (" << node.type_string()
         << "): " << node.assigned_device() << "\n";
  }
}
// --8<-- [end:log]

}  // namespace

Status Place(Graph* graph, const DeviceSet& devices,
             const PlacerOptions& options) {
  if (devices.devices().empty()) {
    return errors::FailedPrecondition("No devices are registered");
  }
  return Placer(graph, devices, options).Run();
}

}  // namespace minitf
