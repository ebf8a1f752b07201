// Reference solution of exercise 02_soft_placement.
#include "soft_placement.h"

#include <algorithm>

#include "minitf/device/placement/device_spec.h"
#include "minitf/tensor/errors.h"

namespace minitf::exercises {
namespace {

// The best device that satisfies `spec` and has a supported type, or null.
// PrioritizedDevices ranks them: GPU:0, GPU:1, ..., then CPU:0.
Device* Best(const DeviceSpec& spec, const std::vector<std::string>& types,
             const DeviceSet& devices) {
  for (Device* d : devices.PrioritizedDevices()) {
    const bool supported =
        std::find(types.begin(), types.end(), d->device_type()) != types.end();
    if (supported && spec.Matches(d->parsed_name())) return d;
  }
  return nullptr;
}

}  // namespace

StatusOr<Device*> PlaceNode(const std::string& name,
                            const std::string& requested_device,
                            const std::vector<std::string>& supported_types,
                            const DeviceSet& devices,
                            bool allow_soft_placement) {
  TF_ASSIGN_OR_RETURN(DeviceSpec requested,
                      DeviceSpec::Parse(requested_device));
  if (Device* d = Best(requested, supported_types, devices)) return d;

  if (allow_soft_placement) {
    // Any device of the same job, replica and task will do.
    DeviceSpec soft = requested;
    soft.device_type.reset();
    soft.device_index.reset();
    if (Device* d = Best(soft, supported_types, devices)) return d;
  }

  if (devices.FindMatchingDevices(requested).empty()) {
    // Nothing by that name at all: the list of what there is helps most.
    std::vector<std::string> names = devices.DeviceNames();
    std::sort(names.begin(), names.end());
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
    return errors::InvalidArgument(
        "{{node ", name, "}} was explicitly assigned to ", requested_device,
        " but available devices are [ ", list,
        " ]. Make sure the device specification refers to a valid device.");
  }
  if (requested.device_type) {
    return errors::InvalidArgument(
        "Could not satisfy explicit device specification '", requested_device,
        "' because no supported kernel for ", *requested.device_type,
        " devices is available.");
  }
  return errors::InvalidArgument(
      "Could not satisfy explicit device specification '", requested_device);
}

}  // namespace minitf::exercises
