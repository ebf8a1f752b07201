// Replacing average_gradients, for the course's exercises.
//
// tf::average_gradients is a function, not a registry entry: the towers
// call it by name. An exercise in which the learner writes it
// (exercises/06-multi-gpu-towers/01_average_gradients) needs seed 004 to
// average its towers' gradients with the learner's function instead. This
// header is the only way to do that: while an override is set, every call
// of average_gradients over lists of gradients (and so over
// (gradient, variable) pairs, which calls that one) runs it.
//
//   // exercises/06-multi-gpu-towers/01_average_gradients/register_piece.cc
//   MINITF_OVERRIDE_AVERAGE_GRADIENTS_FOR_EXERCISE(
//       minitf::exercises::AverageGradients);
#pragma once

#include <functional>
#include <vector>

#include "minitf/graph/exercise_override.h"
#include "minitf/graph/graph.h"

namespace minitf {

/// What average_gradients does: tower_grads[t][v] -> one Output per v.
using AverageGradientsFn = std::function<std::vector<Output>(
    const std::vector<std::vector<Output>>& tower_grads)>;

/// Makes `fn` what average_gradients runs, until removed. Thread safety:
/// during static initialisation or while no graph is being built.
void OverrideAverageGradientsForExercise(AverageGradientsFn fn);

/// average_gradients runs the library's own again.
void RemoveAverageGradientsOverrideForExercise();

}  // namespace minitf

/// MINITF_OVERRIDE_AVERAGE_GRADIENTS_FOR_EXERCISE(AverageGradients): from a
/// static initialiser, the exercise's function in place of the library's.
#define MINITF_OVERRIDE_AVERAGE_GRADIENTS_FOR_EXERCISE(fn) \
  static const ::minitf::internal::ExerciseOverride<       \
      &::minitf::OverrideAverageGradientsForExercise>      \
      minitf_average_gradients_override [[maybe_unused]] (fn)
