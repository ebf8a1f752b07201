// Exercise 01_average_gradients: one answer.
#include "average_gradients.h"

#include <cstddef>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/tensor/errors.h"
#include "minitf/tensor/status.h"
#include "minitf/train/ops/grad_ops.h"

namespace minitf::exercises {

std::vector<Output> AverageGradients(
    const std::vector<std::vector<Output>>& tower_grads) {
  if (tower_grads.empty()) {
    throw errors::InvalidArgumentError("average_gradients: no towers");
  }
  const size_t num_vars = tower_grads[0].size();
  for (size_t t = 1; t < tower_grads.size(); ++t) {
    if (tower_grads[t].size() != num_vars) {
      throw errors::InvalidArgumentError(
          StrCat("average_gradients: tower ", t, " has ", tower_grads[t].size(),
                 " gradient(s), tower 0 has ", num_vars));
    }
  }
  std::vector<Output> averaged;
  for (size_t v = 0; v < num_vars; ++v) {
    std::vector<Output> grads;
    for (const std::vector<Output>& tower : tower_grads) {
      if (!tower[v].valid()) {
        throw errors::InvalidArgumentError(
            "Tried to convert 'input' to a tensor and failed. Error: None "
            "values not supported.");
      }
      grads.push_back(expand_dims(tower[v], 0));  // [S] -> [1,S]
    }
    // N x [1,S] -> [N,S] -> [S].
    averaged.push_back(reduce_mean(concat(grads, 0), 0));
  }
  return averaged;
}

}  // namespace minitf::exercises
