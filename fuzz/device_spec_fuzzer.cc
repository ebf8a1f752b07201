// DeviceSpec strings: tf.device("/job:ps/task:0"), a node's device in an
// imported graph. A spec that parses prints to a string that parses back
// to the same spec, and merges with itself.
#include <cstdlib>

#include "fuzzing.h"
#include "minitf/device/placement/device_spec.h"

namespace tf = minitf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tf::StatusOr<tf::DeviceSpec> spec =
      tf::DeviceSpec::Parse(tf::fuzzing::Bytes(data, size));
  if (!spec.ok()) return 0;
  tf::StatusOr<tf::DeviceSpec> again = tf::DeviceSpec::Parse(spec->to_string());
  // to_string drops an index without a type (as TensorFlow does), so only
  // a spec with a type must come back whole.
  if (!again.ok() || (spec->device_type && *again != *spec)) std::abort();
  tf::DeviceSpec merged = *spec;
  (void)tf::MergeDevNames(&merged, *spec, /*allow_soft_placement=*/false);
  (void)spec->Matches(merged);
  return 0;
}
