// How an exercise's override takes effect before main() runs.
//
// The course's exercises put the learner's function in place of the
// library's (a shape function, a gradient, the merge of device scopes, the
// averaging of tower gradients, the stale-gradient rule) from a static
// initialiser in the exercise's own file, so that the library's programs,
// linked with that file, run with it. Each override header pairs its
// Override...ForExercise function with a macro that defines such an
// initialiser; the macros share the object they define, ExerciseOverride,
// which calls the function when it is constructed.
//
//   // stale_gradient_override.h
//   #define MINITF_OVERRIDE_STALE_GRADIENT_RULE_FOR_EXERCISE(rule)          \
//     static const ::minitf::internal::ExerciseOverride<                   \
//         &::minitf::OverrideStaleGradientRuleForExercise>                 \
//         minitf_stale_gradient_rule_override [[maybe_unused]] (rule)
#pragma once

#include <utility>

namespace minitf::internal {

/// Calls `install` with its constructor's arguments: a static one runs it
/// during static initialisation.
template <auto install>
struct ExerciseOverride {
  template <typename... Args>
  explicit ExerciseOverride(Args&&... args) {
    install(std::forward<Args>(args)...);
  }
};

}  // namespace minitf::internal

/// A name of its own for each override a file defines (a, b joined after
/// expansion, so that __COUNTER__ counts).
#define MINITF_EXERCISE_OVERRIDE_CONCAT2(a, b) a##b
#define MINITF_EXERCISE_OVERRIDE_CONCAT(a, b) \
  MINITF_EXERCISE_OVERRIDE_CONCAT2(a, b)
