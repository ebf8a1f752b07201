// Replacing the merge of nested tf.device scopes, for the course's
// exercises.
//
// Layer 2 treats device strings as opaque; chapter 4 installs its
// field-by-field merge through SetDeviceMergeFunction (graph.h), from a
// static initialiser. An exercise in which the learner writes that merge
// (exercises/04-device-placement/03_device_spec_merge) needs the library's
// programs to place their nodes with the learner's merge instead, and a
// second SetDeviceMergeFunction from another static initialiser would win or
// lose by the order in which they run. This header is the only way to do
// it: while an override is set, GetDeviceMergeFunction returns it,
// whichever function was set.
//
//   // exercises/04-device-placement/03_device_spec_merge/register_piece.cc
//   MINITF_OVERRIDE_DEVICE_MERGE_FOR_EXERCISE(YourMerge);
#pragma once

#include "minitf/graph/exercise_override.h"
#include "minitf/graph/graph.h"

namespace minitf {

/// Makes `fn` the merge of nested device scopes until removed. Thread
/// safety: during static initialisation or while no graph is being built.
void OverrideDeviceMergeForExercise(DeviceMergeFn fn);

/// GetDeviceMergeFunction returns the function set last again.
void RemoveDeviceMergeOverrideForExercise();

}  // namespace minitf

/// MINITF_OVERRIDE_DEVICE_MERGE_FOR_EXERCISE(fn): from a static
/// initialiser, the exercise's merge in place of the library's.
#define MINITF_OVERRIDE_DEVICE_MERGE_FOR_EXERCISE(fn) \
  static const ::minitf::internal::ExerciseOverride<  \
      &::minitf::OverrideDeviceMergeForExercise>      \
      minitf_device_merge_override [[maybe_unused]] (fn)
