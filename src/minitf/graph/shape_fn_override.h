// Replacing an op's registered shape function, for the course's exercises.
//
// An op registers its OpDef, shape function included, once; a second
// registration of the same name is refused. An exercise in which the learner
// writes a shape function (exercises/02-*/04_matmul_shape) needs the library's
// programs to build their graphs with the learner's function instead, so that
// the seed program runs on it. This header is the only way to do that: the
// override replaces the OpDef's shape function whether the op is registered
// before or after it (static initialisers run in no fixed order across
// files), and its removal puts the registered one back.
//
//   // exercises/02-graph-and-session/04_matmul_shape/register_piece.cc
//   MINITF_OVERRIDE_SHAPE_FN_FOR_EXERCISE("MatMul",
//                                         minitf::exercises::MatMulShape);
#pragma once

#include <string>

#include "minitf/graph/exercise_override.h"
#include "minitf/graph/op_def.h"

namespace minitf {

/// Makes `fn` the shape function of op `op_type` until removed; a second
/// override replaces the first. Thread safety: as the op registry's
/// registration, during static initialisation or while no graph is built.
void OverrideShapeFnForExercise(const std::string& op_type, ShapeFn fn);

/// Puts back the shape function `op_type` registered with, if overridden.
void RemoveShapeFnOverrideForExercise(const std::string& op_type);

}  // namespace minitf

/// MINITF_OVERRIDE_SHAPE_FN_FOR_EXERCISE("MatMul", MatMulShape): from a
/// static initialiser, the exercise's MatMulShape in place of the library's.
#define MINITF_OVERRIDE_SHAPE_FN_FOR_EXERCISE(op_type, fn)             \
  static const ::minitf::internal::ExerciseOverride<                   \
      &::minitf::OverrideShapeFnForExercise>                           \
  MINITF_EXERCISE_OVERRIDE_CONCAT(minitf_shape_override_, __COUNTER__) \
      [[maybe_unused]] (op_type, fn)
