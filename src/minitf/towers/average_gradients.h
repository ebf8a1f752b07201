// average_gradients: where the towers of a multi-GPU program meet.
//
// Each tower computes the gradients of its own loss, on its own slice of the
// batch, with respect to the one set of variables all towers share. One
// synchronous step applies their mean: for each variable, the mean over the
// towers of its gradient. That mean is the one point where every tower must
// have finished, which is why TensorFlow's cifar10 tutorial calls it "a
// synchronization point across all towers". Built under `/cpu:0`, each
// tower's gradient is copied to the CPU (Send/Recv, chapter 4) and the mean
// is computed there.
//
// The two versions of seed 004 build the same mean in two ways:
//   average_gradients          expand each [S] gradient to [1,S], concat the
//                              towers' along axis 0 to [N,S], reduce_mean
//                              over axis 0 (cifar10_multi_gpu_train.py);
//   average_gradients_stacked  reduce_mean over the list itself, which
//                              TensorFlow converts to a tensor by packing it
//                              (a Pack to [N,S]), then the same Mean.
//
//   std::vector<std::vector<tf::Output>> tower_grads;   // [tower][variable]
//   for (...) tower_grads.push_back(tf::gradients({loss}, vars));
//   tf::device_scope on_cpu("/cpu:0");
//   auto grads = tf::average_gradients(tower_grads);    // [variable]
//   opt.apply_gradients(zip(grads, tf::trainable_variables()));
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "minitf/graph/graph.h"
#include "minitf/train/optimizers/optimizer.h"

namespace minitf {

/// tf.reduce_mean(values, axis) with a list for its tensor, as TensorFlow
/// takes one: the list is converted to a tensor first by packing it along a
/// new axis 0, a Pack named "Mean/input" (N tensors of shape S -> [N,S]),
/// then the Mean of that. The nodes are named as TensorFlow names them:
/// "Mean/input", "Mean/reduction_indices", "Mean". Throws
/// InvalidArgumentError, in TensorFlow's words, for an invalid Output in the
/// list ("Failed to convert elements of (None, None) to Tensor. Consider
/// casting elements to a supported type.") and for tensors whose shapes
/// differ (Pack's shape error).
Output reduce_mean(const std::vector<Output>& values, int axis,
                   bool keep_dims = false, const std::string& name = "");

/// Seed 004's first average_gradients, the cifar10 tutorial's method, over
/// the plain lists that tf.gradients returns.
///
/// tower_grads[t][v] is tower t's gradient of variable v (every tower lists
/// the same variables in the same order). Returns, per variable v,
/// mean_t tower_grads[t][v]: ExpandDims of each to [1,S], ConcatV2 on axis
/// 0 to [N,S], Mean on axis 0 to [S], built in the current scopes (open a
/// device_scope("/cpu:0") to average on the CPU).
///
/// Throws InvalidArgumentError for no towers, towers with different
/// numbers of gradients ("average_gradients: tower 1 has 1 gradient(s),
/// tower 0 has 2": Python's zip would quietly drop the extra ones), an
/// invalid Output, TensorFlow's None ("Tried to convert 'input' to a tensor
/// and failed. Error: None values not supported."), and gradients of one
/// variable whose shapes differ (ConcatV2's shape error).
std::vector<Output> average_gradients(
    const std::vector<std::vector<Output>>& tower_grads);

/// What average_gradients does over lists: tower_grads[t][v] -> one Output
/// per v.
using AverageGradientsFn = std::function<std::vector<Output>(
    const std::vector<std::vector<Output>>& tower_grads)>;

/// Makes `fn` what average_gradients runs (over lists, and so over pairs,
/// which calls that one) while no function of a higher priority is
/// registered (registration.h). The cifar10 method above is the library's,
/// at priority 0. AlreadyExists when `priority` is taken. Thread safety:
/// during static initialisation or while no graph is being built.
Status RegisterAverageGradientsFunction(AverageGradientsFn fn, int priority);
/// Removes the function registered at `priority`; NotFound when there is
/// none, InvalidArgument for the library's (priority 0).
Status UnregisterAverageGradientsFunction(int priority);

namespace internal {
/// RegisterAverageGradientsFunction from a static initialiser; aborts on
/// error.
void RegisterAverageGradientsFunctionOrDie(AverageGradientsFn fn, int priority);
}  // namespace internal

/// MINITF_REGISTER_AVERAGE_GRADIENTS(MyAverage, 1): from a static
/// initialiser, the towers average with MyAverage in place of the library's.
#define MINITF_REGISTER_AVERAGE_GRADIENTS(fn, priority)            \
  static const ::minitf::internal::StaticRegistration<             \
      &::minitf::internal::RegisterAverageGradientsFunctionOrDie>  \
  MINITF_REGISTRATION_NAME(minitf_average_gradients_registration_) \
      [[maybe_unused]] (fn, priority)

/// The cifar10 tutorial's average_gradients itself, over the (gradient,
/// variable) pairs that Optimizer::compute_gradients returns: the same mean
/// per variable, paired with tower 0's variable (the towers share their
/// variables, so any tower's would do), ready for apply_gradients. Throws
/// as the other form does, and also when the towers' pairs at one position
/// name different variables.
train::Optimizer::GradsAndVars average_gradients(
    const std::vector<train::Optimizer::GradsAndVars>& tower_grads);

/// Seed 004's second average_gradients, the one its author found "didn't
/// work": per variable, tf.reduce_mean(grads_per_var, 0) over the towers'
/// gradients as a list (a Pack, then the Mean; see reduce_mean above). On
/// the dense gradients of a tf.gradients list it gives what
/// average_gradients gives, to the bit: both reduce the same [N,S] tensor.
/// Throws InvalidArgumentError as average_gradients does, with
/// reduce_mean's text for an invalid Output.
std::vector<Output> average_gradients_stacked(
    const std::vector<std::vector<Output>>& tower_grads);

}  // namespace minitf
