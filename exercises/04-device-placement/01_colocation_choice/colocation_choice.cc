// Exercise 01_colocation_choice: this is the file you edit.
//
// Read README.md in this folder, replace the body of ChooseGroupDevice with
// the placer's three steps, then check your work from the repository root:
//   python3 tools/learn.py check 4.1
#include "colocation_choice.h"

#include "minitf/tensor/errors.h"

namespace minitf::exercises {

StatusOr<Device*> ChooseGroupDevice(const std::vector<GroupMember>& group,
                                    const DeviceSet& devices) {
  // ==== EXERCISE 01_colocation_choice: replace this return with your code ====
  // Merge the requests (DeviceSpec::Parse, MergeDevNames), intersect the
  // supported types, then pick the best device that fits both.
  return errors::Unimplemented(
      "exercise 01_colocation_choice: write ChooseGroupDevice (called with ",
      group.size(), " members and ", devices.devices().size(), " devices)");
}

}  // namespace minitf::exercises
