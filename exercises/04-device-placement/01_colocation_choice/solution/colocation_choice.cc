// Reference solution of exercise 01_colocation_choice.
#include "colocation_choice.h"

#include <algorithm>

#include "minitf/device/placement/device_spec.h"
#include "minitf/tensor/errors.h"

namespace minitf::exercises {

StatusOr<Device*> ChooseGroupDevice(const std::vector<GroupMember>& group,
                                    const DeviceSet& devices) {
  const GroupMember& first = group.front();
  auto tag = [](const GroupMember& m) {
    return "{{colocation_node " + m.name + "}}";
  };

  // 1 and 2, member by member, as the union-find adds each to the group:
  // one request for the group (every field any member sets, which must agree
  // wherever two members set it) and the types every member has a kernel
  // for. The first member's order ranks the types as every member's does.
  DeviceSpec merged;
  std::vector<std::string> types = first.supported_types;
  for (const GroupMember& member : group) {
    TF_ASSIGN_OR_RETURN(DeviceSpec spec,
                        DeviceSpec::Parse(member.requested_device));
    Status s = MergeDevNames(&merged, spec, /*allow_soft_placement=*/false);
    if (!s.ok()) {
      return errors::InvalidArgument("Cannot colocate nodes ", tag(member),
                                     " and ", tag(first), ": ", s.message());
    }
    std::erase_if(types, [&](const std::string& t) {
      return std::find(member.supported_types.begin(),
                       member.supported_types.end(),
                       t) == member.supported_types.end();
    });
    if (types.empty()) {
      return errors::InvalidArgument(
          "Cannot colocate nodes ", tag(member), " and ", tag(first),
          " because no device type supports both of those nodes and the "
          "other nodes colocated with them.");
    }
  }

  // 3. The best device that satisfies the request and has a kept type.
  // PrioritizedDevices ranks them: GPU:0, GPU:1, ..., then CPU:0.
  for (Device* d : devices.PrioritizedDevices()) {
    const bool supported =
        std::find(types.begin(), types.end(), d->device_type()) != types.end();
    if (supported && merged.Matches(d->parsed_name())) return d;
  }
  return errors::InvalidArgument(
      "Could not satisfy explicit device specification '", merged.to_string(),
      "'");
}

}  // namespace minitf::exercises
