// DeviceSpec: a (possibly partial) name for a device.
//
// TensorFlow names every device by five fields, job, replica, task, device
// type and index: `/job:worker/replica:0/task:1/device:GPU:0` is the first GPU
// of the second task of the job "worker". A program may give any subset, in
// several spellings (`/gpu:0`, `/device:GPU:0`, `GPU:*`, `/job:ps`), and
// `tf.device` scopes combine field by field, inner fields winning. The
// placer then asks which of the existing devices satisfy what is left. This
// file parses every spelling TensorFlow 1.x accepts, prints the canonical
// form TensorFlow prints, merges and matches; it also installs the
// field-wise merge into the graph's device scopes, at static initialisation,
// through the registry layer 2 offers (RegisterDeviceMergeFunction in
// graph.h).
//
//   auto spec = tf::DeviceSpec::from_string("/job:worker/gpu:0");
//   spec.to_string();                      // "/job:worker/device:GPU:0"
//   auto merged = tf::DeviceSpec::from_string("/job:ps")
//                     .make_merged_spec(tf::DeviceSpec::from_string("/cpu:1"));
//   merged.Matches(tf::DeviceSpec::from_string(
//       "/job:ps/replica:0/task:0/device:CPU:1"));          // true
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "minitf/tensor/status.h"

namespace minitf {

/// tf.DeviceSpec: five optional fields. A field that is unset means "any":
/// `/gpu:1` says nothing of the job, so it matches a GPU 1 in every job.
/// Every field has an initializer, so that designated initializers may
/// leave any out: DeviceSpec{.job = "ps", .device_type = "GPU"}.
///
/// Invariants of a spec returned by Parse: a job name starts with a letter
/// followed by letters, digits or '_'; replica, task and device_index are
/// non-negative; a device type is "CPU" or "GPU" when it was spelled in any
/// case ("cpu", "Gpu") and is kept as written otherwise ("XLA_GPU").
struct DeviceSpec {
  std::optional<std::string> job = std::nullopt;
  std::optional<int> replica = std::nullopt;
  std::optional<int> task = std::nullopt;
  std::optional<std::string> device_type = std::nullopt;
  std::optional<int> device_index = std::nullopt;

  // --- Parsing and printing ----------------------------------------------
  /// Reads every spelling TensorFlow 1.x accepts: "/job:ps/task:0",
  /// "/job:worker/replica:0/task:1/device:GPU:0", "/device:cpu:0", "/cpu:0",
  /// "/CPU:0", "/gpu:1", "gpu:*" ("*" leaves a field unset), "/" and "" (the
  /// empty spec). InvalidArgument with TensorFlow's text
  /// "Malformed device specification '/gpu:x'" for anything else: an index
  /// that is not a number, an unknown field, two device types.
  static StatusOr<DeviceSpec> Parse(std::string_view spec);
  /// tf.DeviceSpec.from_string: Parse, throwing InvalidArgumentError.
  static DeviceSpec from_string(std::string_view spec);

  /// TensorFlow's canonical form, fields in order and only those set:
  /// "/job:worker/device:GPU:0", "/device:GPU:*" for a type without an
  /// index, "" for the empty spec. An index without a type is not printed,
  /// as TensorFlow drops it too.
  std::string to_string() const;

  // --- Merging -------------------------------------------------------------
  /// DeviceSpec.merge_from: every field set in `dev` replaces this one's.
  void merge_from(const DeviceSpec& dev);
  /// DeviceSpec.make_merged_spec: a copy of this spec merged with `dev`,
  /// `dev` winning. This is how nested tf.device scopes combine: the outer
  /// scope's spec, merged with what the node already has.
  DeviceSpec make_merged_spec(const DeviceSpec& dev) const;

  // --- Matching --------------------------------------------------------------
  /// True when `device` satisfies this spec: every field set here is set in
  /// `device` with the same value (DeviceNameUtils::IsSpecification).
  /// "/gpu:1" matches "/job:localhost/replica:0/task:0/device:GPU:1".
  bool Matches(const DeviceSpec& device) const;
  /// True when job, replica, task, device type and index are all set: the
  /// spec names one device.
  bool IsFullySpecified() const;
  /// True when no field is set.
  bool IsEmpty() const;

  bool operator==(const DeviceSpec& other) const = default;
};

/// The canonical full name of a device: "/job:localhost/replica:0/task:0" +
/// "/device:GPU:0". REQUIRES: a valid job name, non-negative numbers.
std::string FullDeviceName(std::string_view job, int replica, int task,
                           std::string_view device_type, int index);
/// The local name of a device, "/device:GPU:0": what list_local_devices
/// shows, and what a device's full name ends with.
std::string LocalDeviceName(std::string_view device_type, int index);

/// DeviceNameUtils::MergeDevNames, the merge of colocation, where a field
/// set in both must agree: `other`'s fields are added to `target`, and a
/// conflict is InvalidArgument in TensorFlow's words ("Cannot merge devices
/// with incompatible types: '/device:GPU:0' and '/device:CPU:0'"). With
/// `allow_soft_placement`, conflicting types or indices are not an error:
/// the conflicting type and index are dropped, leaving the choice to the
/// placer. Jobs, replicas and tasks must agree regardless.
Status MergeDevNames(DeviceSpec* target, const DeviceSpec& other,
                     bool allow_soft_placement);

/// True when both name the same job, replica and task, all set: tensors
/// between them stay in one process.
bool IsSameAddressSpace(const DeviceSpec& a, const DeviceSpec& b);

}  // namespace minitf
