// Exercise 03_stale_accumulator: one solution.
#include "stale_accumulator.h"

#include "minitf/tensor/errors.h"

namespace minitf::exercises {

bool StaleAccumulator::ApplyGrad(int64_t local_step,
                                 const std::vector<float>& grad) {
  // Computed before the last update: its variables are gone.
  if (local_step < global_step_) return false;
  if (static_cast<int64_t>(grad.size()) != size_) {
    throw errors::InvalidArgumentError(StrCat(
        "Shape mismatch: expected [", size_, "], got [", grad.size(), "]"));
  }
  if (count_ == 0) {
    sum_ = grad;
  } else {
    for (int64_t i = 0; i < size_; ++i) sum_[i] += grad[i];
  }
  ++count_;
  return true;
}

std::optional<std::vector<float>> StaleAccumulator::TryTakeGrad(
    int num_required) {
  if (num_required < 1) {
    throw errors::InvalidArgumentError(StrCat(
        "Argument num_required must be positive, but was ", num_required));
  }
  if (count_ < num_required) return std::nullopt;
  std::vector<float> mean = sum_;
  for (float& v : mean) v /= static_cast<float>(count_);
  count_ = 0;
  ++global_step_;  // every gradient of the old step is stale from now on
  return mean;
}

}  // namespace minitf::exercises
