// What the tests of layer 6 share.
#pragma once

#include <string>

#include "minitf/tensor/errors.h"

namespace minitf::testing {

/// The message of the InvalidArgumentError that `f` throws (TensorFlow's
/// ValueError, at this layer's API), or "" when it throws none.
template <typename F>
std::string ErrorOf(F f) {
  try {
    f();
  } catch (const errors::InvalidArgumentError& e) {
    return e.what();
  }
  return "";
}

}  // namespace minitf::testing
