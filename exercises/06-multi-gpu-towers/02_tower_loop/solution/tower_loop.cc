// Exercise 02_tower_loop: one answer, the cifar10 tutorial's loop.
#include "tower_loop.h"

#include <string>

#include "minitf/graph/scope.h"
#include "minitf/towers/variable_sharing/variable_scope.h"
#include "minitf/train/gradients/gradients.h"
#include "minitf/train/variables.h"

namespace minitf::exercises {

std::vector<std::vector<Output>> BuildTowers(
    int num_gpus, const std::function<Output()>& model) {
  std::vector<std::vector<Output>> tower_grads;
  // Entering the current variable scope again gives a scope whose
  // reuse_variables() ends with this guard, so reuse does not leak out.
  variable_scope outer(get_variable_scope());
  for (int i = 0; i < num_gpus; ++i) {
    device_scope on_gpu("/gpu:" + std::to_string(i));
    name_scope tower("tower_" + std::to_string(i));
    Output loss = model();
    // The first tower created the variables; the next ones find them.
    outer.reuse_variables();
    std::vector<Output> vars;
    for (const Variable& v : trainable_variables()) vars.push_back(v.value());
    tower_grads.push_back(gradients({loss}, vars));
  }
  return tower_grads;
}

}  // namespace minitf::exercises
