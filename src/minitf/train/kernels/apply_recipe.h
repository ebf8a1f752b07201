// The recipe of the optimizers' update kernels (ApplyGradientDescent,
// ApplyMomentum, ApplyAdam, ApplyRMSProp), up to their math.
//
// Every update kernel does the same before it computes: find the Vars of its
// variable inputs (var and its slots), lock them all, check that they hold
// values of one shape and that the gradient and the hyperparameters have the
// shapes they must, and make each buffer writable (copy-on-write, var.h).
// Then it runs its math on the values in place and outputs var. ApplyRecipe
// is that recipe with the math left open, so that the CPU kernels here and a
// later layer's kernels of the same ops (chapter 5's, which queue the math
// on a GPU) share every check and lock:
//
//   ApplyRecipe recipe(c, {"var"}, {{1, "alpha"}}, /*grad=*/2, "delta");
//   return recipe.Run(ctx, [&](Tensor** vars) {
//     /* vars[0] -= alpha * delta */ return Status::OK(); });
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "minitf/graph/kernel.h"
#include "minitf/tensor/status.h"
#include "minitf/train/kernels/var_lookup.h"

namespace minitf {

/// The checks, locks and copy-on-write of one Apply node.
class ApplyRecipe {
 public:
  /// The math: updates the locked, writable variable tensors in place
  /// (vars[0] is var, then the slots in input order).
  using Update = std::function<Status(Tensor** vars)>;
  /// Copies a variable's value into a new buffer of its own memory, for
  /// copy-on-write: a host memcpy by default, a device copy on a GPU.
  using CopyValue = std::function<Status(const Tensor& from, Tensor* to)>;

  /// `refs` names the variable inputs, the node's first ones ("var",
  /// "accum" ...); `scalars` the hyperparameter inputs that must be scalars,
  /// by index and name; `grad` the gradient's index, which must have var's
  /// shape. An input that is not a variable makes every Run fail.
  ApplyRecipe(const OpKernelConstruction& c, std::vector<std::string> refs,
              std::vector<std::pair<int, std::string>> scalars, int grad,
              std::string grad_name);

  /// Finds and locks the variables, checks the shapes, makes the values
  /// writable, calls `update` under the locks, and sets output 0 to var.
  /// Errors in TensorFlow's words ("var and grad do not have the same
  /// shape[2] [3]", "lr is not a scalar: [2]", "Attempting to use
  /// uninitialized value w"), or update's.
  Status Run(OpKernelContext* ctx, const Update& update,
             const CopyValue& copy = nullptr) const;

  int num_vars() const { return static_cast<int>(ref_names_.size()); }

 private:
  const std::vector<std::string> ref_names_;
  const std::vector<std::pair<int, std::string>> scalars_;
  const int grad_;
  const std::string grad_name_;
  std::vector<VarLocation> locs_;
  Status bad_ref_;
};

}  // namespace minitf
