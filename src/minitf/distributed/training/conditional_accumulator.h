// ConditionalAccumulator: where the workers' gradients meet for one update.
//
// In synchronous training every worker computes a gradient from its own
// batch, and the variable is updated once, with their average. Something on
// the variable's device must collect the gradients until enough have come:
// TensorFlow's ConditionalAccumulator. It is a resource on that device (like
// a variable's value, in the device's ResourceMgr, so every session and
// every worker that names it by its shared_name reaches the same one) with
// a sum, a count, and a global step:
//
//   apply_grad(g, local_step)  adds g and counts it, unless local_step is
//                              below the accumulator's step: a gradient
//                              computed from variables older than the last
//                              update is stale, and silently dropped;
//   take_grad(n)               waits until n gradients are counted, then
//                              outputs their mean (or sum), clears the
//                              count and adds one to its global step, which
//                              makes every gradient still on its way from
//                              the old step stale;
//   set_global_step(s)         sets the step (the chief, at the start);
//   num_accumulated()          the count.
//
// take_grad is asynchronous (wait_list.h): it waits without an executor
// thread, and a step that is given up ends it with Cancelled "TakeGrad
// operation was cancelled".
//
// The ops are TensorFlow 1.x's, names and attrs: ConditionalAccumulator,
// AccumulatorApplyGradient, AccumulatorTakeGradient,
// AccumulatorSetGlobalStep, AccumulatorNumAccumulated. One difference:
// minitf's tensors have no string dtype, so the handle, TensorFlow's
// Ref(string) holding [container, name], is a Ref(int32) holding 0. The
// kernels find the accumulator by the handle node's attrs, as chapter 3's
// variable kernels find a variable (the kernels' bases, which the queue's
// kernels share, are layer 2's resource_op_kernel.h), and the reference edge
// keeps every op of the accumulator on its device (the placer's colocation
// of references).
//
//   tf::ConditionalAccumulator acc(tf::float32, {2}, "", "w/grad_accum");
//   auto apply = acc.apply_grad(grad, local_step);
//   auto mean = acc.take_grad(2);        // waits for two gradients
//   sess.run(apply, ...); sess.run(apply, ...);
//   sess.run(mean);                      // their mean; the step is now 1
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "minitf/distributed/training/wait_list.h"
#include "minitf/graph/graph.h"
#include "minitf/graph/resource_mgr.h"
#include "minitf/tensor/tensor.h"

namespace minitf {

/// Whether a gradient computed at `local_step` is stale for an accumulator
/// at `global_step` (and so dropped without an error).
using StaleGradientRule =
    std::function<bool(int64_t local_step, int64_t global_step)>;

/// Makes `rule` what every accumulator of the process asks while no rule of
/// a higher priority is registered (registration.h). The library's rule,
/// TensorFlow's (local_step < global_step), is at priority 0.
/// AlreadyExists when `priority` is taken. Thread safety: during static
/// initialisation or while no accumulator applies a gradient.
Status RegisterStaleGradientRule(StaleGradientRule rule, int priority);
/// Removes the rule registered at `priority`; NotFound when there is none,
/// InvalidArgument for the library's (priority 0).
Status UnregisterStaleGradientRule(int priority);

namespace internal {
/// RegisterStaleGradientRule from a static initialiser; aborts on error.
void RegisterStaleGradientRuleOrDie(StaleGradientRule rule, int priority);
}  // namespace internal

/// MINITF_REGISTER_STALE_GRADIENT_RULE(MyRule, 1): from a static
/// initialiser, the accumulators drop gradients by MyRule.
#define MINITF_REGISTER_STALE_GRADIENT_RULE(rule, priority)          \
  static const ::minitf::internal::StaticRegistration<               \
      &::minitf::internal::RegisterStaleGradientRuleOrDie>           \
  MINITF_REGISTRATION_NAME(minitf_stale_gradient_rule_registration_) \
      [[maybe_unused]] (rule, priority)

/// tf.ConditionalAccumulator: builds the accumulator's node and its ops.
///
/// Invariants: handle() is a ConditionalAccumulator node of dtype() and
/// shape(); the ops it builds take that handle and are colocated with it.
///
/// Thread safety: build on one thread, as any graph; its ops may run from
/// many sessions and processes at once.
class ConditionalAccumulator {
 public:
  /// tf.ConditionalAccumulator(dtype, shape, shared_name, name,
  /// reduction_type). `dtype` is float32, float64, int32 or int64, else
  /// TypeError in TensorFlow's words; `reduction_type` is "MEAN" or "SUM",
  /// else InvalidArgumentError ("Attr 'reduction_type' of
  /// 'ConditionalAccumulator' Op passed string 'MAX' not in: "MEAN",
  /// "SUM"."). An unknown `shape` (the default) takes the first gradient's.
  ConditionalAccumulator(DType dtype,
                         const TensorShape& shape = TensorShape::UnknownRank(),
                         const std::string& shared_name = "",
                         const std::string& name = "conditional_accumulator",
                         const std::string& reduction_type = "MEAN");

  DType dtype() const { return dtype_; }
  const TensorShape& shape() const { return shape_; }
  Operation op() const { return handle_.op(); }
  /// The handle (TensorFlow's accumulator_ref).
  Output accumulator_ref() const { return handle_; }

  /// acc.apply_grad(grad, local_step): AccumulatorApplyGradient. `grad`
  /// must have dtype() (else InvalidArgumentError "Tensor conversion
  /// requested dtype float32 for Tensor with dtype float64") and a shape
  /// compatible with shape() (else InvalidArgumentError "Shapes (3,) and
  /// (2,) are incompatible", where TensorFlow raises ValueError). A
  /// `local_step` that is not int64 is cast.
  Operation apply_grad(Output grad, Output local_step,
                       const std::string& name = "");
  Operation apply_grad(Output grad, int64_t local_step = 0,
                       const std::string& name = "");
  /// acc.take_grad(num_required): AccumulatorTakeGradient, the average (or
  /// sum) of `num_required` gradients, waiting for them. A num_required
  /// below 1 fails when run: InvalidArgument "Argument num_required must be
  /// positive, but was 0".
  Output take_grad(Output num_required, const std::string& name = "");
  Output take_grad(int32_t num_required, const std::string& name = "");
  /// acc.set_global_step(new_global_step): AccumulatorSetGlobalStep.
  Operation set_global_step(Output new_global_step,
                            const std::string& name = "");
  /// acc.num_accumulated(): AccumulatorNumAccumulated, an int32 scalar.
  Output num_accumulated(const std::string& name = "");

 private:
  DType dtype_;
  TensorShape shape_;
  Output handle_;
};

/// The accumulator itself, a resource on its device.
///
/// Invariants: count() gradients are summed in the sum (none when 0); each
/// had the accumulator's dtype, a shape compatible with shape(), and a
/// local step >= the global step when it came; take attempts wait in
/// arrival order.
///
/// Thread safety: every method may be called from any thread; one mutex
/// guards the state.
class AccumulatorResource
    : public ResourceBase,
      public std::enable_shared_from_this<AccumulatorResource> {
 public:
  AccumulatorResource(DType dtype, TensorShape shape, std::string name,
                      bool mean)
      : dtype_(dtype),
        shape_(std::move(shape)),
        name_(std::move(name)),
        mean_(mean) {}

  std::string DebugString() const override;

  /// Adds `grad` unless `local_step` is stale; InvalidArgument "Shape
  /// mismatch: expected [2], got [3]" for a fresh gradient of the wrong
  /// shape. Runs the waiting takes.
  Status ApplyGrad(int64_t local_step, const Tensor& grad);
  /// Calls `done` with the mean (or sum) once `num_required` gradients are
  /// here; `done` may run before this returns. The wait is cancelled with
  /// the step (CancelWithStep).
  void TakeGrad(OpKernelContext* ctx, int32_t num_required,
                std::function<void(const Status&, const Tensor&)> done);
  /// Sets the global step; a smaller one is set too, with TensorFlow's
  /// warning on stderr.
  void SetGlobalStep(int64_t step);
  int32_t NumAccumulated();
  int64_t global_step();
  DType dtype() const { return dtype_; }
  const TensorShape& shape() const { return shape_; }
  bool mean() const { return mean_; }

 private:
  // The sum's value now, scaled for MEAN; resets the count and steps on.
  Tensor TakeLocked();

  const DType dtype_;
  const TensorShape shape_;
  const std::string name_;
  const bool mean_;
  std::mutex mu_;
  Tensor sum_;               // guarded by mu_
  int32_t count_ = 0;        // guarded by mu_
  int64_t global_step_ = 0;  // guarded by mu_
  WaitList takers_;          // guarded by mu_
};

}  // namespace minitf
