// Exercise 05_stale_gradient_rule: the rule every ConditionalAccumulator of
// the engine applies to a gradient as it arrives.
//
// In synchronous training (SyncReplicasOptimizer, chapter 7 part 2) each
// worker sends its gradient to an accumulator on the parameter server, with
// the local step it computed it at. The accumulator counts the gradients of
// the current update and drops, without an error, those of an update that
// is already done. The library's AccumulatorResource::ApplyGrad asks one
// function which gradients those are; register_piece.cc makes it yours.
#pragma once

#include <cstdint>

namespace minitf::exercises {

/// Whether a gradient computed at worker step `local_step` is stale for an
/// accumulator whose global step is `global_step`: true when it was
/// computed before the accumulator's last update (its local step is below
/// the global step), false for a gradient of the current step or a later
/// one. Steps may be any int64, negative ones included.
bool GradientIsStale(int64_t local_step, int64_t global_step);

}  // namespace minitf::exercises
