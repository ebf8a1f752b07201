// What the tests of layer 7 share.
#pragma once

#include <string>

#include "minitf/tensor/errors.h"

namespace minitf::testing {

/// The message of the InvalidArgumentError that `f` throws, or "no
/// InvalidArgumentError" when it throws none.
template <typename F>
std::string InvalidArgumentText(F f) {
  try {
    f();
  } catch (const errors::InvalidArgumentError& e) {
    return e.what();
  }
  return "no InvalidArgumentError";
}

}  // namespace minitf::testing
