// A function of the library that code linked into a program may replace,
// and the check of a registration made at static initialisation.
//
// Some pieces of the library are one function rather than a registry of
// many: the merge of a node's device with its scope's (graph.h), the towers'
// average_gradients, the accumulators' rule that drops stale gradients. Each
// is a ReplaceableFunction: a Prioritized list (registration.h) whose best
// entry answers, with the errors of a registry in words that name the
// function.
//
//   ReplaceableFunction<Rule> rules("stale-gradient rule", LibraryRule,
//                                   "stale-gradient rule");
//   rules.Register(MyRule, 1);    // OK: now *rules.Best() is MyRule
//   rules.Register(Other, 1);     // AlreadyExists: "A stale-gradient rule
//                                 // with priority 1 is already registered"
//   rules.Unregister(0);          // InvalidArgument: the library's own
#pragma once

#include <cstdio>
#include <string>
#include <string_view>
#include <utility>

#include "minitf/graph/registration.h"
#include "minitf/tensor/status.h"

namespace minitf {
namespace internal {

/// A registration made at static initialisation can only fail through a bug
/// in the program (two registrations at one priority), so an error `s`
/// stops the program, saying which registry refused it: "minitf: bad
/// kernel registration: ...".
inline void CheckRegistration(const Status& s, std::string_view what) {
  if (!s.ok()) {
    std::fprintf(stderr, "minitf: bad %.*s registration: %s\n",
                 static_cast<int>(what.size()), what.data(),
                 s.ToString().c_str());
    MINITF_CHECK(s.ok());
  }
}

}  // namespace internal

/// One replaceable function of the library, by priority: the highest
/// registered answers. Thread safety: none of its own, as Prioritized;
/// registrations are made at static initialisation, or by a test before
/// it looks the function up.
template <typename Fn>
class ReplaceableFunction {
 public:
  /// No function of the library's: Best() is null until one is registered.
  /// `noun` names the function in errors ("device merge function").
  explicit ReplaceableFunction(std::string noun) : noun_(std::move(noun)) {}
  /// `library` at priority 0, where it cannot be removed; `library_name`
  /// names it in that error: "The library's average_gradients (priority 0)
  /// cannot be removed".
  ReplaceableFunction(std::string noun, Fn library, std::string library_name)
      : noun_(std::move(noun)), library_name_(std::move(library_name)) {
    MINITF_CHECK(entries_.Add(0, std::move(library)).ok());
  }

  /// AlreadyExists when `priority` is taken.
  Status Register(Fn fn, int priority) {
    if (!entries_.Add(priority, std::move(fn)).ok()) {
      return errors::AlreadyExists(Article(), " ", noun_, " with priority ",
                                   priority, " is already registered");
    }
    return Status::OK();
  }
  /// NotFound when nothing is registered at `priority`; InvalidArgument for
  /// the library's own.
  Status Unregister(int priority) {
    if (priority == 0 && !library_name_.empty()) {
      return errors::InvalidArgument("The library's ", library_name_,
                                     " (priority 0) cannot be removed");
    }
    if (!entries_.Remove(priority)) {
      return errors::NotFound("No ", noun_, " with priority ", priority,
                              " is registered");
    }
    return Status::OK();
  }
  /// Register, from a static initialiser: an error stops the program.
  void RegisterOrDie(Fn fn, int priority) {
    internal::CheckRegistration(Register(std::move(fn), priority), noun_);
  }
  /// The function of the highest priority; nullptr when none is registered.
  const Fn* Best() const { return entries_.Best(); }

 private:
  // "An average_gradients function", "A stale-gradient rule".
  const char* Article() const {
    return std::string_view("aeiou").find(noun_[0]) != std::string_view::npos
               ? "An"
               : "A";
  }

  const std::string noun_;
  const std::string library_name_;  // empty: the library has none
  Prioritized<Fn> entries_;
};

}  // namespace minitf
