// Exercise 01_average_gradients: this is the file you edit.
//
// Read README.md in this folder, replace the body of AverageGradients with
// the tutorial's mean, then check your work from the repository root:
//   python3 tools/learn.py check 6.1
#include "average_gradients.h"

#include "minitf/tensor/errors.h"

namespace minitf::exercises {

std::vector<Output> AverageGradients(
    const std::vector<std::vector<Output>>& tower_grads) {
  // ==== EXERCISE 01_average_gradients: replace this throw with your code ====
  // Check the towers; then, per variable, expand each tower's gradient to
  // [1,S], concat them to [N,S] and take the mean over axis 0.
  (void)tower_grads;
  throw errors::UnimplementedError(
      "exercise 01_average_gradients: write AverageGradients");
}

}  // namespace minitf::exercises
