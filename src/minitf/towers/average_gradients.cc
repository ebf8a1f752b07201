#include "minitf/towers/average_gradients.h"

#include <cstddef>

#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/replaceable_function.h"
#include "minitf/tensor/errors.h"
#include "minitf/tensor/status.h"
#include "minitf/train/ops/grad_ops.h"

namespace minitf {
namespace {

// Python's zip(*tower_grads), checked: the towers' gradients of variable v
// are column v. Throws for no towers and for towers of different lengths.
std::vector<std::vector<Output>> ZipTowers(
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
  std::vector<std::vector<Output>> per_var(num_vars);
  for (const auto& grads : tower_grads) {
    for (size_t v = 0; v < num_vars; ++v) per_var[v].push_back(grads[v]);
  }
  return per_var;
}

}  // namespace

// --8<-- [start:reduce_mean_list]
Output reduce_mean(const std::vector<Output>& values, int axis, bool keep_dims,
                   const std::string& name) {
  for (const Output& v : values) {
    if (!v.valid()) {
      // Python prints each element of the tuple; a C++ Output that is None
      // has nothing to print but its None-ness.
      std::string elements;
      for (size_t i = 0; i < values.size(); ++i) {
        elements += StrCat(i > 0 ? ", " : "",
                           values[i].valid() ? values[i].name() : "None");
      }
      throw errors::InvalidArgumentError(
          StrCat("Failed to convert elements of (", elements,
                 values.size() == 1 ? "," : "",
                 ") to Tensor. Consider casting elements to a supported "
                 "type."));
    }
  }
  // TensorFlow converts the list while it builds the Mean op, under the op's
  // name scope and with the name of the op's input: "Mean/input".
  ops::OpScope scope(name, "Mean", values);
  Output packed = stack(values, /*axis=*/0, "input");
  return reduce_mean(packed, axis, keep_dims, scope.op_name() + "/");
}
// --8<-- [end:reduce_mean_list]

namespace internal {
// The library's average_gradients, registered at priority 0; the public one
// below runs the registered function of the highest priority.
// --8<-- [start:average_gradients]
std::vector<Output> average_gradients(
    const std::vector<std::vector<Output>>& tower_grads) {
  std::vector<Output> averaged_grads;
  for (const std::vector<Output>& grads_per_var : ZipTowers(tower_grads)) {
    std::vector<Output> grads;
    for (const Output& grad : grads_per_var) {
      if (!grad.valid()) {
        throw errors::InvalidArgumentError(
            "Tried to convert 'input' to a tensor and failed. Error: None "
            "values not supported.");
      }
      // [S] -> [1,S]: a leading axis to concatenate the towers along.
      grads.push_back(expand_dims(grad, 0));
    }
    // N x [1,S] -> [N,S] -> the mean over the towers, [S].
    Output grad = concat(grads, 0);
    averaged_grads.push_back(reduce_mean(grad, 0));
  }
  return averaged_grads;
}
// --8<-- [end:average_gradients]
}  // namespace internal

namespace {
// The registered functions, the library's at priority 0.
ReplaceableFunction<AverageGradientsFn>& AverageGradientsFunctions() {
  static auto* fns = new ReplaceableFunction<AverageGradientsFn>(
      "average_gradients function",
      [](const std::vector<std::vector<Output>>& tower_grads) {
        return internal::average_gradients(tower_grads);
      },
      "average_gradients");
  return *fns;
}
}  // namespace

Status RegisterAverageGradientsFunction(AverageGradientsFn fn, int priority) {
  return AverageGradientsFunctions().Register(std::move(fn), priority);
}

Status UnregisterAverageGradientsFunction(int priority) {
  return AverageGradientsFunctions().Unregister(priority);
}

namespace internal {
void RegisterAverageGradientsFunctionOrDie(AverageGradientsFn fn,
                                           int priority) {
  AverageGradientsFunctions().RegisterOrDie(std::move(fn), priority);
}
}  // namespace internal

std::vector<Output> average_gradients(
    const std::vector<std::vector<Output>>& tower_grads) {
  return (*AverageGradientsFunctions().Best())(tower_grads);
}

train::Optimizer::GradsAndVars average_gradients(
    const std::vector<train::Optimizer::GradsAndVars>& tower_grads) {
  std::vector<std::vector<Output>> grads_only;
  for (size_t t = 0; t < tower_grads.size(); ++t) {
    grads_only.emplace_back();
    for (size_t v = 0; v < tower_grads[t].size(); ++v) {
      const auto& [grad, var] = tower_grads[t][v];
      grads_only.back().push_back(grad);
      if (t > 0 && v < tower_grads[0].size() && var.valid() &&
          tower_grads[0][v].second.valid() &&
          var.name() != tower_grads[0][v].second.name()) {
        throw errors::InvalidArgumentError(
            StrCat("average_gradients: gradient ", v, " of tower ", t,
                   " is of variable ", var.name(), ", of tower 0 of ",
                   tower_grads[0][v].second.name()));
      }
    }
  }
  std::vector<Output> averaged = average_gradients(grads_only);
  train::Optimizer::GradsAndVars average_grads;
  for (size_t v = 0; v < averaged.size(); ++v) {
    // The variables are shared across towers, so tower 0's stands for all.
    average_grads.emplace_back(averaged[v], tower_grads[0][v].second);
  }
  return average_grads;
}

// --8<-- [start:average_gradients_stacked]
std::vector<Output> average_gradients_stacked(
    const std::vector<std::vector<Output>>& tower_grads) {
  std::vector<Output> averaged_grads;
  for (const std::vector<Output>& grads_per_var : ZipTowers(tower_grads)) {
    averaged_grads.push_back(reduce_mean(grads_per_var, 0));
  }
  return averaged_grads;
}
// --8<-- [end:average_gradients_stacked]

}  // namespace minitf
