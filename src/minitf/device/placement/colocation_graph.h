// ColocationGraph: the groups of nodes that must share one device.
//
// Some nodes cannot be placed alone. An Assign writes into its variable's
// buffer, so it must run where the variable lives; so must the optimizer's
// ApplyGradientDescent, and so must every op built inside
// tf::colocate_with(var). TensorFlow's placer therefore first partitions the
// graph into colocation groups, with a union-find over the nodes: nodes joined
// by a reference edge (a VariableV2 and the ops that take it by reference) are
// united, then nodes that name the same group in their `_class` attr
// ("loc:@weight"). Each group keeps what its members demand together: the
// merged device request, the device types that have a kernel for every
// member, and, once one member is placed, that member's device. The placer
// (placer.h) then asks for each node which devices its group may use.
//
//   tf::ColocationGraph groups(graph, devices, options);
//   TF_RETURN_IF_ERROR(groups.Initialize());
//   TF_ASSIGN_OR_RETURN(const std::vector<tf::Device*>* candidates,
//                       groups.GetDevicesForNode(*node));   // best first
//   node->set_assigned_device((*candidates)[0]->name());
//   TF_RETURN_IF_ERROR(groups.LimitToAssignedDevice(*node));
#pragma once

#include <cstdint>
#include <iosfwd>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "minitf/device/devices/device.h"
#include "minitf/device/devices/device_set.h"
#include "minitf/device/placement/device_spec.h"
#include "minitf/graph/graph.h"
#include "minitf/tensor/status.h"

namespace minitf {

/// What the placer is asked to do (ConfigProto's placement fields, and where
/// its output goes).
struct PlacerOptions {
  /// ConfigProto.allow_soft_placement: when no device satisfies a request,
  /// use the best device of a supported type instead of failing.
  bool allow_soft_placement = false;
  /// ConfigProto.log_device_placement: one line per node,
  /// "MatMul: (MatMul): /job:localhost/replica:0/task:0/device:GPU:0".
  bool log_device_placement = false;
  /// TensorFlow's default_local_device: among a group's candidates, this
  /// device comes first. nullptr (a session's case) gives no preference.
  const Device* default_device = nullptr;
  /// Where the per-node lines go; nullptr means standard output, which is
  /// where TensorFlow prints them.
  std::ostream* log_stream = nullptr;
  /// Where the placer's notices go: a device request or a colocation it set
  /// aside (with log_device_placement), a variable it had to move (always),
  /// which TensorFlow logs with LOG(INFO) and LOG(WARNING). nullptr means
  /// standard error.
  std::ostream* info_stream = nullptr;
};

/// The colocation groups of one graph, for one placement.
///
/// Invariants, for the root member of every group: `requested` is a
/// specialization of `assigned` and of `resource` (every field they set, it
/// sets to the same value); `supported` is not empty; every node of the
/// group was united with it by a reference edge or a shared `_class` group.
///
/// The algorithm is TensorFlow 1.15's (colocation_graph.cc): Initialize
/// builds singleton members, unites reference edges, then `_class` groups, by
/// union by rank with path compression; each union merges the two requests
/// (MergeDevNames, which soft placement makes lenient) and intersects the
/// supported types. It fails when the requests conflict, changing nothing,
/// or when no type is left, keeping the merged request (as TensorFlow).
/// GetDevicesForNode computes a group's candidate devices once and caches
/// them until LimitToAssignedDevice narrows the group to one device.
///
/// Thread safety: none; one placement at a time. The graph and the devices
/// must outlive this object, and the graph must not change meanwhile.
class ColocationGraph {
 public:
  ColocationGraph(const Graph& graph, const DeviceSet& devices,
                  const PlacerOptions& options);

  /// Builds the groups. InvalidArgument in TensorFlow's words for an op
  /// without kernels, a malformed device request, or nodes that cannot be
  /// colocated ("Cannot colocate nodes {{colocation_node b}} and
  /// {{colocation_node a}}: Cannot merge devices with incompatible types:
  /// ..."); with allow_soft_placement a `_class` colocation that fails is
  /// dropped instead, with a notice. Internal for a node assigned to a device
  /// that is not in the set. REQUIRES: called once, before the rest.
  Status Initialize();

  /// The devices `node`'s group may run on, best first; never empty on
  /// success. The pointer stays valid until the next LimitToAssignedDevice
  /// on the group. InvalidArgument in TensorFlow's words when none fits
  /// (without the "Cannot assign a device for operation" prefix, which the
  /// placer adds).
  StatusOr<const std::vector<Device*>*> GetDevicesForNode(const Node& node);

  /// Narrows `node`'s group to the device `node` was just assigned.
  /// REQUIRES: node.assigned_device() names a device of the set.
  Status LimitToAssignedDevice(const Node& node);

  /// True when `a` and `b` are in one group.
  bool SameGroup(const Node& a, const Node& b);

  /// TensorFlow's DebugInfo: the group of `node`, its members, their
  /// requests and the types that have a kernel for each op, as the
  /// placement errors end with it.
  std::string DebugInfo(const Node& node) const;

 private:
  // The device types of the set, best first; a group's supported types are
  // a bit set over this list, so intersecting groups is one AND and the bits
  // keep the priority order.
  using TypeMask = uint32_t;

  struct Member {
    int parent = 0;
    int rank = 0;
    DeviceSpec requested;  // the (merged) device request
    DeviceSpec assigned;   // set once a member has been placed
    DeviceSpec resource;   // the request of a VariableV2, which soft
                           // placement moves only as a last resort
    const Device* assigned_device = nullptr;  // the device of `assigned`
    TypeMask supported = 0;
    std::vector<Device*> possible_devices;  // cache; empty = not computed
  };

  Status InitializeMember(const Node& node, Member* member);
  Status ColocateResourceAndRefEdges();
  Status ColocateAllNodes();
  // Group names are views into the nodes' names and `_class` attrs, which
  // do not change while the placer runs.
  using GroupRoots = std::unordered_map<std::string_view, const Node*>;
  Status ColocateNodeToGroup(GroupRoots* group_root, const Node& node,
                             std::string_view group);
  Status ColocateResourceOrRefEdge(const Node& src, const Node& dst);
  Status ColocateNodes(const Node& x, const Node& y);
  Status ColocateNodes(const Node& x, int x_root, const Node& y, int y_root);
  // Which of two roots a union keeps (union by rank; x on a tie).
  std::pair<int, int> NewAndOldRoot(int x_root, int y_root) const;
  Status MergeDeviceNames(Member* target, const Member& other) const;
  Status EnsureCompatibilityAcrossResourceEdge(const Node& src,
                                               const Member& src_root,
                                               const Node& dst,
                                               Member* dst_root);
  // The devices that satisfy `spec` and have a type in `types`, best first.
  std::vector<Device*> CandidateDevices(const DeviceSpec& spec,
                                        TypeMask types) const;
  std::vector<Device*> SoftDeviceCandidates(const Member& root, int root_id);
  Status NoDeviceError(const Node& node, const Member& root, int root_id) const;

  int FindAndUpdateRoot(int id);
  int FindRoot(int id) const;
  TypeMask SupportedTypesOf(const Node& node);
  TypeMask TypeBit(const std::string& type) const;
  std::vector<std::string> TypeNames(TypeMask mask) const;
  std::string MemberDebugString(const Member& m) const;
  std::string DebugInfoForRoot(int root) const;
  std::ostream& info() const;

  const Graph& graph_;
  const DeviceSet& devices_;
  const PlacerOptions options_;
  std::vector<std::string> types_;        // the set's device types, best first
  std::vector<Device*> ranked_devices_;   // the set's devices, best first
  std::vector<Member> members_;           // by node id
  std::vector<TypeMask> node_supported_;  // each node's own, by node id
  // SupportedTypesOf caches by op and dtype attr "T", which is what decides
  // whether a kernel exists (KernelRegistry::HasKernelForNode).
  std::map<std::pair<const OpDef*, int>, TypeMask> supported_cache_;
};

}  // namespace minitf
