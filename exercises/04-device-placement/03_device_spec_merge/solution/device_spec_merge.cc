// Reference solution of exercise 03_device_spec_merge.
#include "device_spec_merge.h"

#include "minitf/device/placement/device_spec.h"

namespace minitf::exercises {
namespace {

// Gives `field` the outer scope's value unless the inner scopes set it.
template <typename T>
void Inherit(std::optional<T>* field, const std::optional<T>& outer) {
  if (!field->has_value()) *field = outer;
}

}  // namespace

StatusOr<std::string> ScopedDevice(const std::vector<DeviceScope>& scopes) {
  // tf.device parses its string when the scope is entered, so a malformed
  // scope fails even where a tf.device(None) inside it hides it.
  std::vector<std::optional<DeviceSpec>> specs;
  for (const DeviceScope& scope : scopes) {
    if (!scope) {
      specs.push_back(std::nullopt);
      continue;
    }
    TF_ASSIGN_OR_RETURN(DeviceSpec spec, DeviceSpec::Parse(*scope));
    specs.push_back(spec);
  }

  // The innermost scope has the first say; each one out only fills the
  // fields still unset. Type and index are separate fields: "/cpu:*" sets
  // the type alone, so an outer "/gpu:1" still gives it its index.
  DeviceSpec merged;
  for (auto it = specs.rbegin(); it != specs.rend() && it->has_value(); ++it) {
    const DeviceSpec& outer = **it;
    Inherit(&merged.job, outer.job);
    Inherit(&merged.replica, outer.replica);
    Inherit(&merged.task, outer.task);
    Inherit(&merged.device_type, outer.device_type);
    Inherit(&merged.device_index, outer.device_index);
  }
  return merged.to_string();
}

}  // namespace minitf::exercises
