// Replacing the accumulator's stale-gradient rule, for the course's exercises.
//
// A ConditionalAccumulator drops a gradient computed before the last update:
// one whose local step is below the accumulator's global step (chapter 7
// part 2, §1). The rule is one comparison inside AccumulatorResource::
// ApplyGrad, not a registry entry, so an exercise in which the learner writes
// it (exercises/07-ps-worker-distribution/05_stale_gradient_rule) needs
// another way in. This header is that way: while an override is set, every
// accumulator of the process asks it whether a gradient is stale, and seed
// 003's synchronous training then accepts and drops gradients by the
// learner's rule.
//
//   //
//   exercises/07-ps-worker-distribution/05_stale_gradient_rule/register_piece.cc
//   MINITF_OVERRIDE_STALE_GRADIENT_RULE_FOR_EXERCISE(
//       minitf::exercises::GradientIsStale);
#pragma once

#include <cstdint>
#include <functional>

#include "minitf/graph/exercise_override.h"

namespace minitf {

/// Whether a gradient computed at `local_step` is stale for an accumulator
/// at `global_step` (and so dropped without an error).
using StaleGradientRule =
    std::function<bool(int64_t local_step, int64_t global_step)>;

/// Makes `rule` what every accumulator asks, until removed. Thread safety:
/// during static initialisation or while no accumulator applies a gradient.
void OverrideStaleGradientRuleForExercise(StaleGradientRule rule);

/// The accumulators use the library's rule again.
void RemoveStaleGradientRuleOverrideForExercise();

}  // namespace minitf

/// MINITF_OVERRIDE_STALE_GRADIENT_RULE_FOR_EXERCISE(GradientIsStale): from a
/// static initialiser, the exercise's rule in place of the library's.
#define MINITF_OVERRIDE_STALE_GRADIENT_RULE_FOR_EXERCISE(rule) \
  static const ::minitf::internal::ExerciseOverride<           \
      &::minitf::OverrideStaleGradientRuleForExercise>         \
      minitf_stale_gradient_rule_override [[maybe_unused]] (rule)
