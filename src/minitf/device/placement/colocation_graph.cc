#include "minitf/device/placement/colocation_graph.h"

#include <algorithm>
#include <iostream>
#include <string_view>

#include "minitf/device/placement/node_errors.h"
#include "minitf/tensor/errors.h"

namespace minitf {
namespace {

std::string JoinNames(const std::vector<std::string>& names,
                      std::string_view separator) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += separator;
    out += names[i];
  }
  return out;
}

std::vector<std::string> DeviceNames(const std::vector<Device*>& devices) {
  std::vector<std::string> names;
  names.reserve(devices.size());
  for (const Device* d : devices) names.push_back(d->name());
  return names;
}

// A VariableV2 (no input, one reference output) makes a resource: its device
// request is held more firmly than an ordinary one (see
// SoftDeviceCandidates).
bool IsRefGeneratorNode(const Node& node) {
  return node.num_inputs() == 0 && node.num_outputs() == 1 &&
         node.op_def().outputs[0].is_ref;
}

// True when input `i` of `node` takes its tensor by reference (an input
// spelled "ref: Ref(T)"): the node then writes into the producer's memory.
bool IsRefInput(const Node& node, int i) {
  int first = 0;
  for (const ArgDef& arg : node.op_def().inputs) {
    int count = 1;
    if (!arg.number_attr.empty()) {
      // Checked as an int when the node was built; Node::SetAttr could
      // have replaced it since, so look before reading.
      auto n = node.attrs().find(arg.number_attr);
      count = n == node.attrs().end() || !n->second.holds<int64_t>()
                  ? 0
                  : static_cast<int>(n->second.get<int64_t>());
    }
    if (i < first + count) return arg.is_ref;
    first += count;
  }
  return false;
}

bool HasRefInput(const Node& node) {
  const auto& inputs = node.op_def().inputs;
  return std::any_of(inputs.begin(), inputs.end(),
                     [](const ArgDef& a) { return a.is_ref; });
}

// Every field set in both is equal (DeviceNameUtils::AreCompatibleDevNames).
bool AreCompatible(const DeviceSpec& a, const DeviceSpec& b) {
  auto same = [](const auto& x, const auto& y) { return !x || !y || *x == *y; };
  return same(a.job, b.job) && same(a.replica, b.replica) &&
         same(a.task, b.task) && same(a.device_type, b.device_type) &&
         same(a.device_index, b.device_index);
}

// Copies into `*target` the fields `other` sets and it does not, so that
// `*target` specializes `other` (DeviceNameUtils::EnsureSpecification).
void EnsureSpecification(DeviceSpec* target, const DeviceSpec& other) {
  auto fill = [](auto* t, const auto& o) {
    if (!t->has_value() && o.has_value()) *t = o;
  };
  fill(&target->job, other.job);
  fill(&target->replica, other.replica);
  fill(&target->task, other.task);
  fill(&target->device_type, other.device_type);
  fill(&target->device_index, other.device_index);
}

}  // namespace

ColocationGraph::ColocationGraph(const Graph& graph, const DeviceSet& devices,
                                 const PlacerOptions& options)
    : graph_(graph),
      devices_(devices),
      options_(options),
      types_(devices.PrioritizedDeviceTypeList()),
      ranked_devices_(devices.PrioritizedDevices()),
      members_(graph.num_nodes()),
      node_supported_(graph.num_nodes(), 0) {}

std::ostream& ColocationGraph::info() const {
  return options_.info_stream != nullptr ? *options_.info_stream : std::cerr;
}

ColocationGraph::TypeMask ColocationGraph::SupportedTypesOf(const Node& node) {
  int dtype = DT_INVALID;
  if (auto t = node.attrs().find("T");
      t != node.attrs().end() && t->second.holds<DType>()) {
    dtype = t->second.get<DType>();
  }
  auto [it, inserted] =
      supported_cache_.emplace(std::make_pair(&node.op_def(), dtype), 0);
  if (inserted) {
    for (const std::string& type : devices_.SupportedDeviceTypesForNode(node)) {
      it->second |= TypeBit(type);
    }
  }
  return it->second;
}

ColocationGraph::TypeMask ColocationGraph::TypeBit(
    const std::string& type) const {
  auto pos = std::find(types_.begin(), types_.end(), type);
  return pos == types_.end() ? 0 : TypeMask{1} << (pos - types_.begin());
}

std::vector<std::string> ColocationGraph::TypeNames(TypeMask mask) const {
  std::vector<std::string> out;
  for (size_t i = 0; i < types_.size(); ++i) {
    if (mask & (TypeMask{1} << i)) out.push_back(types_[i]);
  }
  return out;
}

// --- Building the groups -----------------------------------------------------

// --8<-- [start:initialize]
Status ColocationGraph::Initialize() {
  if (types_.size() > 8 * sizeof(TypeMask)) {
    return errors::Internal("Too many device types for the placer: ",
                            types_.size());
  }
  for (const Node* node : graph_.nodes()) {
    Status s = InitializeMember(*node, &members_[node->id()]);
    if (!s.ok()) return AttachDef(s, *node);
  }
  // References first, then the `_class` groups, as TensorFlow does.
  TF_RETURN_IF_ERROR(ColocateResourceAndRefEdges());
  return ColocateAllNodes();
}
// --8<-- [end:initialize]

Status ColocationGraph::InitializeMember(const Node& node, Member* member) {
  member->parent = node.id();
  member->supported = SupportedTypesOf(node);
  node_supported_[node.id()] = member->supported;

  if (!node.assigned_device().empty()) {
    // Placed by an earlier placement of this graph: it stays where it is.
    const Device* device = devices_.FindDeviceByName(node.assigned_device());
    if (device == nullptr) {
      return errors::Internal(
          "Assigned device '", node.assigned_device(),
          "' does not match any device. Here are the devices available on "
          "this machine: [",
          JoinNames(devices_.DeviceNames(), ", "), "].");
    }
    if ((member->supported & TypeBit(device->device_type())) == 0) {
      return errors::Internal("Assigned device '", node.assigned_device(),
                              "' does not have registered OpKernel support "
                              "for ",
                              node.type_string());
    }
    member->assigned = device->parsed_name();
    member->requested = member->assigned;
    return Status::OK();
  }

  if (member->supported == 0) {
    // TensorFlow's text has no space after the tag; its Python layer's
    // expansion of the tag ends with one.
    return errors::InvalidArgument(
        "No OpKernel was registered to support Op '", node.type_string(),
        "' used by ", FormatNodeNameForError(node.name()),
        "with these attrs: [", SummarizeAttrs(node, ""),
        "]\nRegistered devices: [", JoinNames(types_, ", "),
        "]\nRegistered kernels:\n", KernelsRegisteredForOp(node.type_string()));
  }

  if (!node.requested_device().empty()) {
    StatusOr<DeviceSpec> parsed = DeviceSpec::Parse(node.requested_device());
    if (!parsed.ok()) {
      return errors::InvalidArgument("Malformed device specification '",
                                     node.requested_device(),
                                     "' in node: ", NodeDebugString(node));
    }
    member->requested = *parsed;
    // A variable's own request names where its buffer lives; soft placement
    // gives it up only when nothing else works.
    if (IsRefGeneratorNode(node)) member->resource = *parsed;
  }
  return Status::OK();
}

// --8<-- [start:ref_edges]
Status ColocationGraph::ColocateResourceAndRefEdges() {
  for (const Node* dst : graph_.nodes()) {
    if (!HasRefInput(*dst)) continue;
    for (int i = 0; i < dst->num_inputs(); ++i) {
      if (IsRefInput(*dst, i)) {
        TF_RETURN_IF_ERROR(
            ColocateResourceOrRefEdge(*dst->input(i).node(), *dst));
      }
    }
  }
  return Status::OK();
}
// --8<-- [end:ref_edges]

Status ColocationGraph::ColocateResourceOrRefEdge(const Node& src,
                                                  const Node& dst) {
  const int src_root = FindAndUpdateRoot(src.id());
  const int dst_root = FindAndUpdateRoot(dst.id());
  TF_RETURN_IF_ERROR(EnsureCompatibilityAcrossResourceEdge(
      src, members_[src_root], dst, &members_[dst_root]));
  Status s = ColocateNodes(src, src_root, dst, dst_root);
  if (!s.ok()) {
    return AttachDef(
        errors::InvalidArgument(
            "Nodes were connected by a reference connection (requiring them "
            "to be on the same device), but the two nodes were assigned two "
            "different devices: ",
            s.message()),
        dst);
  }
  return Status::OK();
}

Status ColocationGraph::EnsureCompatibilityAcrossResourceEdge(
    const Node& src, const Member& src_root, const Node& dst,
    Member* dst_root) {
  auto incompatible = [&](const char* what, const DeviceSpec& a,
                          const DeviceSpec& b) {
    return errors::InvalidArgument(
        "Cannot place the graph because a reference or resource edge "
        "connects colocation groups with incompatible ",
        what, " devices: ", a.to_string(), " vs ", b.to_string(),
        ". The edge src node is ", src.name(), " , and the dst node is ",
        dst.name());
  };
  if (!AreCompatible(src_root.assigned, dst_root->assigned)) {
    return incompatible("assigned", src_root.assigned, dst_root->assigned);
  }
  if (!AreCompatible(src_root.resource, dst_root->resource)) {
    return incompatible("resource", src_root.resource, dst_root->resource);
  }
  if (AreCompatible(src_root.requested, dst_root->requested)) {
    return Status::OK();
  }
  // An op that writes a variable runs where the variable is, whatever it
  // asked for: the variable's request replaces the op's.
  if (options_.log_device_placement) {
    info() << "Ignoring device specification "
           << dst_root->requested.to_string() << " for node '" << dst.name()
           << "' because the input edge from '" << src.name()
           << "' is a reference connection and already has a device field "
              "set to "
           << src_root.requested.to_string() << "\n";
  }
  dst_root->requested = src_root.requested;
  EnsureSpecification(&dst_root->requested, dst_root->assigned);
  EnsureSpecification(&dst_root->requested, dst_root->resource);
  return Status::OK();
}

// --8<-- [start:class_groups]
Status ColocationGraph::ColocateAllNodes() {
  // Group name ("weight" for "loc:@weight") -> the first node that named it.
  GroupRoots group_root;
  group_root.reserve(graph_.num_nodes());
  for (const Node* node : graph_.nodes()) {
    bool found_spec = false;
    auto cls = node->attrs().find("_class");
    if (cls != node->attrs().end() &&
        cls->second.holds<std::vector<std::string>>()) {
      for (const std::string& spec :
           cls->second.get<std::vector<std::string>>()) {
        if (spec.rfind("loc:@", 0) != 0) continue;
        found_spec = true;
        TF_RETURN_IF_ERROR(ColocateNodeToGroup(
            &group_root, *node, std::string_view(spec).substr(5)));
      }
    }
    // A node colocated with others is found through their group; only a
    // node without one starts the group of its own name.
    if (!found_spec) {
      TF_RETURN_IF_ERROR(ColocateNodeToGroup(&group_root, *node, node->name()));
    }
  }
  return Status::OK();
}
// --8<-- [end:class_groups]

Status ColocationGraph::ColocateNodeToGroup(GroupRoots* group_root,
                                            const Node& node,
                                            std::string_view group) {
  const Node*& root = (*group_root)[group];
  if (root == nullptr) {
    root = &node;
    return Status::OK();
  }
  Status s = ColocateNodes(node, *root);
  if (s.ok()) return s;
  if (!options_.allow_soft_placement) return AttachDef(s, node);
  if (options_.log_device_placement) {
    info() << "Ignoring request to colocate node '" << node.name()
           << "' with nodes in colocation group '" << group
           << "' because soft placement is on and an attempt at doing so "
              "resulted in the following error: "
           << AttachDef(s, node).ToString() << "\n";
  }
  return Status::OK();
}

Status ColocationGraph::ColocateNodes(const Node& x, const Node& y) {
  const int x_root = FindAndUpdateRoot(x.id());
  const int y_root = FindAndUpdateRoot(y.id());
  return ColocateNodes(x, x_root, y, y_root);
}

std::pair<int, int> ColocationGraph::NewAndOldRoot(int x_root,
                                                   int y_root) const {
  // Union by rank: the shallower tree goes under the deeper one, so that
  // with path compression a chain of unions stays nearly flat.
  if (members_[x_root].rank < members_[y_root].rank) return {y_root, x_root};
  return {x_root, y_root};
}

// --8<-- [start:colocate_nodes]
Status ColocationGraph::ColocateNodes(const Node& x, int x_root, const Node& y,
                                      int y_root) {
  if (x_root == y_root) return Status::OK();
  const auto [new_root, old_root] = NewAndOldRoot(x_root, y_root);
  Member& target = members_[new_root];
  const Member& other = members_[old_root];

  // The two requests must agree field by field (or, under soft placement,
  // are allowed to drop a clashing type or index).
  Status s = MergeDeviceNames(&target, other);
  if (!s.ok()) {
    return errors::InvalidArgument(
        "Cannot colocate nodes ", FormatColocationNodeForError(x.name()),
        " and ", FormatColocationNodeForError(y.name()), ": ", s.message());
  }
  // Some device type must have a kernel for every member.
  const TypeMask common = target.supported & other.supported;
  if (common == 0) {
    return errors::InvalidArgument(
        "Cannot colocate nodes ", FormatColocationNodeForError(x.name()),
        " and ", FormatColocationNodeForError(y.name()),
        " because no device type supports both of those nodes and the "
        "other nodes colocated with them.",
        DebugInfoForRoot(x_root), DebugInfoForRoot(y_root));
  }
  target.supported = common;

  members_[old_root].parent = new_root;
  if (members_[new_root].rank == members_[old_root].rank) {
    ++members_[new_root].rank;
  }
  return Status::OK();
}
// --8<-- [end:colocate_nodes]

Status ColocationGraph::MergeDeviceNames(Member* target,
                                         const Member& other) const {
  // Checked on copies, so that an error changes nothing.
  DeviceSpec assigned = target->assigned;
  TF_RETURN_IF_ERROR(MergeDevNames(&assigned, other.assigned,
                                   /*allow_soft_placement=*/false));
  DeviceSpec resource = target->resource;
  TF_RETURN_IF_ERROR(MergeDevNames(&resource, other.resource,
                                   /*allow_soft_placement=*/false));
  DeviceSpec requested = target->requested;
  TF_RETURN_IF_ERROR(MergeDevNames(&requested, other.requested,
                                   options_.allow_soft_placement));
  EnsureSpecification(&requested, assigned);
  EnsureSpecification(&requested, resource);
  target->assigned = assigned;
  target->resource = resource;
  target->requested = requested;
  return Status::OK();
}

int ColocationGraph::FindAndUpdateRoot(int id) {
  int root = id;
  while (members_[root].parent != root) root = members_[root].parent;
  // Path compression: every node on the way now points at the root.
  while (members_[id].parent != root) {
    const int next = members_[id].parent;
    members_[id].parent = root;
    id = next;
  }
  return root;
}

int ColocationGraph::FindRoot(int id) const {
  while (members_[id].parent != id) id = members_[id].parent;
  return id;
}

bool ColocationGraph::SameGroup(const Node& a, const Node& b) {
  return FindAndUpdateRoot(a.id()) == FindAndUpdateRoot(b.id());
}

// --- Choosing devices --------------------------------------------------------

Status ColocationGraph::LimitToAssignedDevice(const Node& node) {
  const Device* device = devices_.FindDeviceByName(node.assigned_device());
  if (device == nullptr) {
    return errors::Internal("Node ", node.name(),
                            " is assigned to a device not in the set: '",
                            node.assigned_device(), "'");
  }
  Member& root = members_[FindAndUpdateRoot(node.id())];
  if (root.assigned_device == device) return Status::OK();
  const DeviceSpec& parsed = device->parsed_name();
  Status s = MergeDevNames(&root.assigned, parsed,
                           /*allow_soft_placement=*/false);
  if (!s.ok()) {
    return errors::Internal(
        "Constraining by assigned device should not cause an error. "
        "Original root's assigned device name: ",
        root.assigned.to_string(), " node's assigned device name \"",
        node.assigned_device(), ". Error: ", s.message());
  }
  root.resource.merge_from(parsed);
  root.requested.merge_from(parsed);
  root.assigned_device = device;
  root.possible_devices.clear();
  return Status::OK();
}

// --8<-- [start:candidates]
std::vector<Device*> ColocationGraph::CandidateDevices(const DeviceSpec& spec,
                                                       TypeMask types) const {
  // TensorFlow's FilterSupportedDevices: the devices that match, best first
  // (by type rank, then job, replica, task and index: GPU:0 before GPU:1
  // before CPU:0), with the default device, if any, moved to the front.
  std::vector<Device*> out;
  for (Device* d : ranked_devices_) {
    if ((TypeBit(d->device_type()) & types) == 0) continue;
    if (!spec.Matches(d->parsed_name())) continue;
    if (d == options_.default_device) {
      out.insert(out.begin(), d);
    } else {
      out.push_back(d);
    }
  }
  return out;
}
// --8<-- [end:candidates]

// --8<-- [start:get_devices]
StatusOr<const std::vector<Device*>*> ColocationGraph::GetDevicesForNode(
    const Node& node) {
  const int root_id = FindAndUpdateRoot(node.id());
  Member& root = members_[root_id];
  if (!root.possible_devices.empty()) return &root.possible_devices;

  std::vector<Device*> devices;
  if (!root.requested.IsEmpty()) {
    // The group asks for something: the devices that satisfy the request
    // and have a kernel for every member.
    devices = CandidateDevices(root.requested, root.supported);
    if (devices.empty() && options_.allow_soft_placement) {
      devices = SoftDeviceCandidates(root, root_id);
    }
    if (devices.empty()) return NoDeviceError(node, root, root_id);
  } else {
    // Nothing asked: every device with a kernel for every member.
    devices = CandidateDevices(DeviceSpec(), root.supported);
    if (devices.empty()) {
      std::string input_types;
      for (int i = 0; i < node.num_inputs(); ++i) {
        if (i > 0) input_types += ", ";
        input_types += DataTypeString(node.input_type(i));
      }
      return errors::InvalidArgument(
          "Node had no OpKernel registered to support this operation: "
          "Operation was ",
          node.type_string(), " and inputs were [", input_types, "].\n",
          DebugInfoForRoot(root_id));
    }
  }
  root.possible_devices = std::move(devices);
  return &root.possible_devices;
}
// --8<-- [end:get_devices]

// --8<-- [start:soft_placement]
std::vector<Device*> ColocationGraph::SoftDeviceCandidates(const Member& root,
                                                           int root_id) {
  // First try: forget the requested type and index, unless a placed member
  // or a variable of the group pins them. The job, replica and task stay.
  DeviceSpec soft = root.requested;
  if (!root.assigned.device_type && !root.resource.device_type) {
    soft.device_type.reset();
  }
  if (!root.assigned.device_index && !root.resource.device_index) {
    soft.device_index.reset();
  }
  std::vector<Device*> devices = CandidateDevices(soft, root.supported);
  if (!devices.empty()) return devices;

  // Last resort: move the variable too; only a placed member still pins.
  soft = root.requested;
  if (!root.assigned.device_type) soft.device_type.reset();
  if (!root.assigned.device_index) soft.device_index.reset();
  devices = CandidateDevices(soft, root.supported);
  if (!devices.empty()) {
    info() << "Failed to place the graph without changing the devices of "
              "some resources. Some of the operations (that had to be "
              "colocated with resource generating operations) are not "
              "supported on the resources' devices. Current candidate "
              "devices are [\n  "
           << JoinNames(DeviceNames(devices), "\n  ")
           << "].\nSee below for details of this colocation group:"
           << DebugInfoForRoot(root_id) << "\n";
  }
  return devices;
}
// --8<-- [end:soft_placement]

// --8<-- [start:no_device_error]
Status ColocationGraph::NoDeviceError(const Node& node, const Member& root,
                                      int root_id) const {
  const std::string debug_info = DebugInfoForRoot(root_id);
  StatusOr<DeviceSpec> specified = DeviceSpec::Parse(node.requested_device());
  if (specified.ok() && *specified == root.requested) {
    // The node's own request is the group's, so it is the one to show.
    if (devices_.FindMatchingDevices(*specified).empty()) {
      // No such device at all: list the ones there are. This is TensorFlow
      // 1.15's text (1.14's lacks the space after the tag). The placer meets
      // it only under soft placement (a request for another job): without,
      // it has already refused the request in the seed's words
      // (placer.cc, CheckDevicesExist).
      std::vector<std::string> names = devices_.DeviceNames();
      std::sort(names.begin(), names.end());
      return errors::InvalidArgument(
          FormatNodeNameForError(node.name()), " was explicitly assigned to ",
          node.requested_device(), " but available devices are [ ",
          JoinNames(names, ", "),
          " ]. Make sure the device specification refers to a valid device.");
    }
    if (specified->device_type) {
      // The device exists, but no kernel of this group runs on its type.
      return errors::InvalidArgument(
          "Could not satisfy explicit device specification '",
          node.requested_device(), "' because no supported kernel for ",
          *specified->device_type, " devices is available.", debug_info,
          "\nOp: ", node.type_string(),
          "\nNode attrs: ", SummarizeAttrs(node, ""), "\nRegistered kernels:\n",
          KernelsRegisteredForOp(node.type_string()));
    }
    return errors::InvalidArgument(
        "Could not satisfy explicit device specification '",
        node.requested_device(), debug_info);
  }
  // The group's merged request is not the node's: show both.
  return errors::InvalidArgument(
      "Could not satisfy explicit device specification '",
      node.requested_device(), "' because the node ",
      FormatColocationNodeForError(node.name()),
      " was colocated with a group of nodes that required incompatible "
      "device '",
      root.requested.to_string(), "'. All available devices [",
      JoinNames(devices_.DeviceNames(), ", "), "]. ", debug_info);
}
// --8<-- [end:no_device_error]

// --- Debugging text ----------------------------------------------------------

std::string ColocationGraph::MemberDebugString(const Member& m) const {
  int index = -1;
  const auto& all = devices_.devices();
  if (auto it = std::find(all.begin(), all.end(), m.assigned_device);
      it != all.end()) {
    index = static_cast<int>(it - all.begin());
  }
  return StrCat(
      "Member(assigned_device_name_index_=", index, " requested_device_name_='",
      m.requested.to_string(), "' assigned_device_name_='",
      m.assigned.to_string(), "' resource_device_name_='",
      m.resource.to_string(), "' supported_device_types_=[",
      JoinNames(TypeNames(m.supported), ", "), "] possible_devices_=[",
      JoinNames(DeviceNames(m.possible_devices), ", "), "]");
}

std::string ColocationGraph::DebugInfo(const Node& node) const {
  return DebugInfoForRoot(FindRoot(node.id()));
}

std::string ColocationGraph::DebugInfoForRoot(int root) const {
  // Op type -> the types with a kernel for it, as "GPU CPU ".
  std::map<std::string, std::string> type_to_devices;
  std::string members;
  for (const Node* node : graph_.nodes()) {
    if (FindRoot(node->id()) != root) continue;
    std::string types;
    for (const std::string& t : TypeNames(node_supported_[node->id()])) {
      types += t + " ";
    }
    type_to_devices[node->type_string()] = types;
    members += StrCat("\n  ", node->name(), " (", node->type_string(), ") ",
                      node->requested_device());
    if (!node->assigned_device().empty()) {
      members += " framework assigned device=" + node->assigned_device();
    }
  }
  if (members.empty()) return "";
  std::string text = StrCat(
      "\nColocation Debug Info:\n"
      "Colocation group had the following types and supported devices: "
      "\nRoot ",
      MemberDebugString(members_[root]));
  for (const auto& [op, types] : type_to_devices) {
    text += StrCat("\n", op, ": ", types);
  }
  text += StrCat(
      "\n\nColocation members, user-requested devices, and framework "
      "assigned devices, if any:",
      members, "\n");
  return text;
}

}  // namespace minitf
