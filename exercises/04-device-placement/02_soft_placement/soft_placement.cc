// Exercise 02_soft_placement: this is the file you edit.
//
// Read README.md in this folder, replace the body of PlaceNode with the
// placer's fallback and its errors, then check your work from the repository
// root:
//   python3 tools/learn.py check 4.2
#include "soft_placement.h"

#include "minitf/tensor/errors.h"

namespace minitf::exercises {

StatusOr<Device*> PlaceNode(const std::string& name,
                            const std::string& requested_device,
                            const std::vector<std::string>& supported_types,
                            const DeviceSet& devices,
                            bool allow_soft_placement) {
  // ==== EXERCISE 02_soft_placement: replace this return with your code ====
  // Find the best device that satisfies the request; failing that, and with
  // soft placement, drop the request's type and index and look again;
  // failing that, say why in TensorFlow's words.
  (void)supported_types;
  (void)devices;
  (void)allow_soft_placement;
  return errors::Unimplemented(
      "exercise 02_soft_placement: write PlaceNode "
      "(called for ",
      name, " on ", requested_device, ")");
}

}  // namespace minitf::exercises
