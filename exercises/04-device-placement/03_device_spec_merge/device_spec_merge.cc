// Exercise 03_device_spec_merge: this is the file you edit.
//
// Read README.md in this folder, replace the body of ScopedDevice with the
// merge of nested device scopes, then check your work from the repository
// root:
//   python3 tools/learn.py check 4.3
#include "device_spec_merge.h"

#include "minitf/device/placement/device_spec.h"
#include "minitf/tensor/errors.h"

namespace minitf::exercises {

StatusOr<std::string> ScopedDevice(const std::vector<DeviceScope>& scopes) {
  // ==== EXERCISE 03_device_spec_merge: replace this return with your code ===
  // Parse every scope, outermost first; then, from the innermost scope out
  // to the first std::nullopt, fill in the fields still unset; print the
  // result with DeviceSpec::to_string.
  return errors::Unimplemented(
      "exercise 03_device_spec_merge: write ScopedDevice (called with ",
      scopes.size(), " scopes)");
}

}  // namespace minitf::exercises
