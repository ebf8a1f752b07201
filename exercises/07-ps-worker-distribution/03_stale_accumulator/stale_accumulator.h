// Exercise 03_stale_accumulator: the rule at the heart of synchronous
// training.
//
// SyncReplicasOptimizer's ConditionalAccumulator (chapter 7 part 2, §1)
// sums the workers' gradients for one update and counts them. Each gradient
// comes with the local step of the worker that computed it; one computed
// before the last update (local step below the accumulator's global step)
// is stale and is dropped without an error. TakeGrad hands out the mean once
// enough gradients are in, clears the count and moves the global step on,
// which makes every gradient still on its way from the old step stale.
//
// This is the accumulator's bookkeeping alone: no graph, no waiting (the
// library's take_grad waits; TryTakeGrad here answers at once).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace minitf::exercises {

/// Invariants: count() gradients are summed in the sum, each of size()
/// elements; global_step() only grows, except by SetGlobalStep.
class StaleAccumulator {
 public:
  /// An accumulator of gradients of `size` elements, at global step 0.
  explicit StaleAccumulator(int64_t size) : size_(size) {}

  /// Adds `grad` and returns true, unless `local_step` < global_step():
  /// then drops it and returns false. Throws InvalidArgumentError "Shape
  /// mismatch: expected [2], got [3]" for a fresh gradient of the wrong
  /// size (a stale one is dropped before it is looked at, as TensorFlow's).
  bool ApplyGrad(int64_t local_step, const std::vector<float>& grad);
  /// Once at least `num_required` gradients are in: their mean, element by
  /// element; the count goes back to 0 and the global step up by 1.
  /// Before that: std::nullopt, and nothing changes. Throws
  /// InvalidArgumentError "Argument num_required must be positive, but was
  /// 0" for num_required < 1.
  std::optional<std::vector<float>> TryTakeGrad(int num_required);
  /// Sets the global step (the chief, at the start).
  void SetGlobalStep(int64_t step) { global_step_ = step; }

  int count() const { return count_; }
  int64_t global_step() const { return global_step_; }

 private:
  const int64_t size_;
  std::vector<float> sum_;
  int count_ = 0;
  int64_t global_step_ = 0;
};

}  // namespace minitf::exercises
