// Exercise 03_device_spec_merge: the device that nested tf.device scopes
// give a node.
//
// Every `with tf.device(...)` pushes a device scope; a node built inside
// several requests their merge, field by field (job, replica, task, device
// type, device index): a field the inner scope sets wins, a field it leaves
// unset is inherited from the scopes around it. tf.device(None) hides the
// scopes around it; tf.device("") changes nothing.
//
//   ScopedDevice({"/job:worker", "/gpu:0"});   // "/job:worker/device:GPU:0"
//   ScopedDevice({"/job:ps/task:1", "/cpu:*"});
//                                      // "/job:ps/task:1/device:CPU:*"
//   ScopedDevice({"/gpu:0", std::nullopt});    // ""
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "minitf/tensor/status.h"

namespace minitf::exercises {

/// One `tf.device(...)` scope: its device string ("/gpu:0", "" included), or
/// std::nullopt for tf.device(None).
using DeviceScope = std::optional<std::string>;

/// The device a node built inside `scopes` requests, as TensorFlow 1.x's
/// Graph._apply_device_functions gives it: in DeviceSpec's canonical form
/// (DeviceSpec::to_string), "" when no scope sets a field.
///
/// `scopes` lists the scopes outermost first, as they are written. The
/// innermost scope applies first and every field it sets wins; each scope
/// further out fills only the fields still unset. A std::nullopt scope stops
/// the walk: the scopes outside it give nothing.
///
/// Errors: every scope is checked as it is entered, outermost first, those
/// outside a std::nullopt too: the first that does not parse is
/// InvalidArgument, as DeviceSpec::Parse gives it ("Malformed device
/// specification '/gpu:x'").
///
/// REQUIRES: no scope names an index without a type ("/device:*:1"), a
/// spelling TensorFlow's Python and C++ parsers read differently.
StatusOr<std::string> ScopedDevice(const std::vector<DeviceScope>& scopes);

}  // namespace minitf::exercises
