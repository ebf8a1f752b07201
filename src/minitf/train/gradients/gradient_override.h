// Replacing a registered gradient function, for the course's exercises.
//
// The gradient registry holds one function per op type, registered once by
// MINITF_REGISTER_GRADIENT; registering a type twice is a bug. An exercise
// in which the learner writes a gradient (exercises/03-*/01_matmul_grad)
// needs the library's programs to run on the learner's function instead, so
// that the seed program trains with it. This header is the only way to do
// that: an override sits beside the registry's own entry and wins every
// lookup (GradientRegistry::Lookup, and so tf::gradients) while it is there,
// whatever the order in which static initialisers run.
//
//   // exercises/03-variables-and-autodiff/01_matmul_grad/register_piece.cc
//   MINITF_OVERRIDE_GRADIENT_FOR_EXERCISE("MatMul",
//                                         minitf::exercises::MatMulGrad);
#pragma once

#include <string>

#include "minitf/graph/exercise_override.h"
#include "minitf/train/gradients/gradients.h"

namespace minitf {

/// Makes `fn` the gradient function of `op_type` until removed; a second
/// override of the same type replaces the first. Thread safety: as the
/// registry, during static initialisation or while no graph is being
/// differentiated.
void OverrideGradientForExercise(const std::string& op_type, GradFn fn);

/// Removes the override of `op_type`, if any: the registered function (or
/// none) is found again.
void RemoveGradientOverrideForExercise(const std::string& op_type);

}  // namespace minitf

/// MINITF_OVERRIDE_GRADIENT_FOR_EXERCISE("MatMul", MatMulGrad): from a static
/// initialiser, the exercise's MatMulGrad in place of the library's.
#define MINITF_OVERRIDE_GRADIENT_FOR_EXERCISE(op_type, fn) \
  static const ::minitf::internal::ExerciseOverride<       \
      &::minitf::OverrideGradientForExercise>              \
  MINITF_GRAD_CONCAT(minitf_grad_override_, __COUNTER__)   \
      [[maybe_unused]] (op_type, fn)
