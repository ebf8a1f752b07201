// Registrations ranked by priority: how one piece of code takes the place
// of another in a registry.
//
// A registry (kernels, shape functions, gradients, the merge of device
// scopes, and the later layers' own) answers a lookup with one entry. Most
// keys have one registration; some have several, and then the one with the
// highest priority answers, as TensorFlow's kernel registry picks among
// kernels registered with KernelDefBuilder::Priority. The library registers
// its own pieces at priority 0, so code linked into a program can put its
// own piece in place of the library's by registering it at a higher
// priority, without editing the library and whatever the order in which
// static initialisers run. Two registrations of one key at one priority are
// an error: which of them should win would be undefined.
//
//   Prioritized<ShapeFn> fns;
//   fns.Add(0, LibraryShape);     // OK
//   fns.Add(1, AnotherShape);     // OK: now fns.Best() is AnotherShape
//   fns.Add(1, AThirdShape);      // AlreadyExists
//   fns.Remove(1);                // LibraryShape answers again
#pragma once

#include <functional>
#include <map>
#include <utility>

#include "minitf/tensor/status.h"

namespace minitf {

/// The values registered for one key, by priority. Invariant: at most one
/// value per priority. Thread safety: none of its own; the registry that
/// holds it guards it (or fills it during static initialisation only).
template <typename T>
class Prioritized {
 public:
  /// Adds `value` at `priority`; AlreadyExists when the priority is taken.
  Status Add(int priority, T value) {
    if (!entries_.emplace(priority, std::move(value)).second) {
      return errors::AlreadyExists("priority ", priority, " is taken");
    }
    return Status::OK();
  }
  /// Removes the value at `priority`; false when there was none.
  bool Remove(int priority) { return entries_.erase(priority) != 0; }
  /// The value with the highest priority, or nullptr when there is none.
  const T* Best() const {
    return entries_.empty() ? nullptr : &entries_.begin()->second;
  }
  /// Every value, highest priority first.
  const std::map<int, T, std::greater<int>>& entries() const {
    return entries_;
  }
  bool empty() const { return entries_.empty(); }

 private:
  std::map<int, T, std::greater<int>> entries_;
};

namespace internal {

/// Calls `add` with its constructor's arguments: a static one registers
/// during static initialisation. The registration macros of the layers
/// define one each.
template <auto add>
struct StaticRegistration {
  template <typename... Args>
  explicit StaticRegistration(Args&&... args) {
    add(std::forward<Args>(args)...);
  }
};

}  // namespace internal
}  // namespace minitf

/// A name of its own for each static registration in a file (a and b joined
/// after expansion, so that __COUNTER__ counts).
#define MINITF_REGISTRATION_CONCAT2(a, b) a##b
#define MINITF_REGISTRATION_CONCAT(a, b) MINITF_REGISTRATION_CONCAT2(a, b)
#define MINITF_REGISTRATION_NAME(prefix) \
  MINITF_REGISTRATION_CONCAT(prefix, __COUNTER__)
