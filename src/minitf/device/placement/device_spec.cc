#include "minitf/device/placement/device_spec.h"

#include <cctype>
#include <vector>

#include "minitf/graph/graph.h"
#include "minitf/tensor/errors.h"
#include "minitf/tensor/str_split.h"

namespace minitf {
namespace {

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(c));
  return out;
}

bool IsAlpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// A letter, then letters, digits or '_': TensorFlow's rule for job names and
// device types (DeviceNameUtils' ConsumeJobName and ConsumeDeviceType).
bool IsIdentifier(std::string_view s) {
  if (s.empty() || !IsAlpha(s[0])) return false;
  for (char c : s) {
    if (!IsAlpha(c) && !IsDigit(c) && c != '_') return false;
  }
  return true;
}

// "*" clears the field; a decimal number sets it. False for anything else,
// a sign included, and for numbers that do not fit in an int.
bool ParseIndex(std::string_view s, std::optional<int>* out) {
  if (s == "*") {
    out->reset();
    return true;
  }
  if (s.empty() || s.size() > 9) return false;
  int value = 0;
  for (char c : s) {
    if (!IsDigit(c)) return false;
    value = value * 10 + (c - '0');
  }
  *out = value;
  return true;
}

// The device types Python's DeviceSpec knows by their short form ("/gpu:0",
// "cpu"); in the long form ("/device:XLA_GPU:0") any identifier is a type.
bool IsShortFormType(std::string_view s) {
  const std::string upper = Upper(s);
  return upper == "CPU" || upper == "GPU" || upper == "TPU";
}

// TensorFlow accepts "cpu" and "gpu" in any case for backward compatibility
// and turns them into the registered types "CPU" and "GPU".
std::string CanonicalType(std::string_view s) {
  const std::string upper = Upper(s);
  return upper == "CPU" || upper == "GPU" ? upper : std::string(s);
}

}  // namespace

// --8<-- [start:parse]
StatusOr<DeviceSpec> DeviceSpec::Parse(std::string_view spec) {
  auto malformed = [&] {
    return errors::InvalidArgument("Malformed device specification '", spec,
                                   "'");
  };
  DeviceSpec out;
  for (std::string_view component : StrSplit(spec, '/')) {
    if (component.empty()) continue;  // the leading '/', and "/" itself
    const std::vector<std::string_view> f = StrSplit(component, ':');
    if (f.size() == 2 && f[0] == "job") {
      if (f[1] == "*") {
        out.job.reset();
      } else if (IsIdentifier(f[1])) {
        out.job = std::string(f[1]);
      } else {
        return malformed();
      }
    } else if (f.size() == 2 && f[0] == "replica") {
      if (!ParseIndex(f[1], &out.replica)) return malformed();
    } else if (f.size() == 2 && f[0] == "task") {
      if (!ParseIndex(f[1], &out.task)) return malformed();
    } else if (f.size() <= 2 && IsShortFormType(f[0])) {
      // "/gpu:1", "/CPU:0", "cpu", "GPU:*": the short form.
      if (out.device_type.has_value()) return malformed();
      out.device_type = Upper(f[0]);
      if (f.size() == 2 && !ParseIndex(f[1], &out.device_index)) {
        return malformed();
      }
    } else if (f[0] == "device" && (f.size() == 2 || f.size() == 3)) {
      // "/device:GPU:1", "/device:GPU:*", "/device:GPU".
      if (out.device_type.has_value()) return malformed();
      if (f[1] != "*") {
        if (!IsIdentifier(f[1])) return malformed();
        out.device_type = CanonicalType(f[1]);
      }
      if (f.size() == 3 && !ParseIndex(f[2], &out.device_index)) {
        return malformed();
      }
    } else {
      return malformed();
    }
  }
  return out;
}
// --8<-- [end:parse]

DeviceSpec DeviceSpec::from_string(std::string_view spec) {
  return errors::ValueOrThrow(Parse(spec));
}

std::string DeviceSpec::to_string() const {
  std::string out;
  if (job) out += "/job:" + *job;
  if (replica) out += "/replica:" + std::to_string(*replica);
  if (task) out += "/task:" + std::to_string(*task);
  if (device_type) {
    out += "/device:" + *device_type + ":" +
           (device_index ? std::to_string(*device_index) : "*");
  }
  return out;
}

// --8<-- [start:merge]
void DeviceSpec::merge_from(const DeviceSpec& dev) {
  if (dev.job) job = dev.job;
  if (dev.replica) replica = dev.replica;
  if (dev.task) task = dev.task;
  if (dev.device_type) device_type = dev.device_type;
  if (dev.device_index) device_index = dev.device_index;
}
// --8<-- [end:merge]

DeviceSpec DeviceSpec::make_merged_spec(const DeviceSpec& dev) const {
  DeviceSpec merged = *this;
  merged.merge_from(dev);
  return merged;
}

bool DeviceSpec::Matches(const DeviceSpec& device) const {
  auto agrees = [](const auto& pattern, const auto& value) {
    return !pattern.has_value() || pattern == value;
  };
  return agrees(job, device.job) && agrees(replica, device.replica) &&
         agrees(task, device.task) && agrees(device_type, device.device_type) &&
         agrees(device_index, device.device_index);
}

bool DeviceSpec::IsFullySpecified() const {
  return job && replica && task && device_type && device_index;
}

bool DeviceSpec::IsEmpty() const {
  return !job && !replica && !task && !device_type && !device_index;
}

std::string FullDeviceName(std::string_view job, int replica, int task,
                           std::string_view device_type, int index) {
  return StrCat("/job:", job, "/replica:", replica, "/task:", task,
                LocalDeviceName(device_type, index));
}

std::string LocalDeviceName(std::string_view device_type, int index) {
  return StrCat("/device:", device_type, ":", index);
}

namespace {

// One field of MergeDevNames: `other`'s value, if set, joins `target`'s,
// which must be unset or equal. `target_spec` is the whole target as merged
// so far, which is what TensorFlow's message shows.
template <typename T>
Status MergeField(std::optional<T>* target, const std::optional<T>& other,
                  const char* what, const DeviceSpec& target_spec,
                  const DeviceSpec& other_spec) {
  if (!other.has_value()) return Status::OK();
  if (target->has_value() && **target != *other) {
    return errors::InvalidArgument("Cannot merge devices with incompatible ",
                                   what, ": '", target_spec.to_string(),
                                   "' and '", other_spec.to_string(), "'");
  }
  *target = other;
  return Status::OK();
}

}  // namespace

// --8<-- [start:merge_dev_names]
Status MergeDevNames(DeviceSpec* target, const DeviceSpec& other,
                     bool allow_soft_placement) {
  TF_RETURN_IF_ERROR(
      MergeField(&target->job, other.job, "jobs", *target, other));
  TF_RETURN_IF_ERROR(
      MergeField(&target->replica, other.replica, "replicas", *target, other));
  TF_RETURN_IF_ERROR(
      MergeField(&target->task, other.task, "tasks", *target, other));
  // Types and indices may disagree under soft placement: the placer then
  // drops them and chooses a device itself.
  const bool types_clash = other.device_type && target->device_type &&
                           *other.device_type != *target->device_type;
  if (types_clash && allow_soft_placement) {
    target->device_type.reset();
    target->device_index.reset();
    return Status::OK();
  }
  TF_RETURN_IF_ERROR(MergeField(&target->device_type, other.device_type,
                                "types", *target, other));
  const bool indices_clash = other.device_index && target->device_index &&
                             *other.device_index != *target->device_index;
  if (indices_clash && allow_soft_placement) {
    target->device_index.reset();
    return Status::OK();
  }
  return MergeField(&target->device_index, other.device_index, "ids", *target,
                    other);
}
// --8<-- [end:merge_dev_names]

bool IsSameAddressSpace(const DeviceSpec& a, const DeviceSpec& b) {
  return a.job && a.replica && a.task && a.job == b.job &&
         a.replica == b.replica && a.task == b.task;
}

namespace {

// --8<-- [start:merge_hook]
// The merge of nested tf.device scopes, as Python's merge_device does it: the
// scope's spec, with every field the node already has taking precedence. A
// malformed string is an error here; device_scope calls this when it is
// entered, so a malformed scope fails on the line that wrote it, as
// tf.device raises in Python.
StatusOr<std::string> MergeDeviceStrings(std::string_view node_device,
                                         std::string_view scope_device) {
  TF_ASSIGN_OR_RETURN(DeviceSpec scope, DeviceSpec::Parse(scope_device));
  TF_ASSIGN_OR_RETURN(DeviceSpec node, DeviceSpec::Parse(node_device));
  return scope.make_merged_spec(node).to_string();
}

MINITF_REGISTER_DEVICE_MERGE_FUNCTION(MergeDeviceStrings, 0);
// --8<-- [end:merge_hook]

}  // namespace

}  // namespace minitf
