// tf::gradients: reverse-mode automatic differentiation, graph to graph.
//
// TensorFlow 1.x never computes a derivative directly. tf.gradients walks the
// graph backwards from ys to xs and, for each operation on the way, asks the
// gradient registry for a function that *adds gradient ops to the graph*:
// given the forward op and the gradients flowing into its outputs, it builds
// the gradients of its inputs. Gradients reaching a tensor along several
// paths are summed with AddN; a broadcast input gets its gradient summed back
// to its own shape. The result is more graph, run later by a Session.
//
//   auto x = tf::placeholder(tf::float32, {3}, "x");
//   auto y = tf::reduce_sum(x * x);
//   auto dx = tf::gradients({y}, {x})[0];          // 2 * x, built under
//   tf::Session sess;                              // "gradients/..."
//   sess.run(dx, {{x, tf::Tensor(...)}});
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "minitf/graph/graph.h"
#include "minitf/tensor/errors.h"

namespace minitf {

namespace errors {
/// Raised as Python's LookupError: an op on the path has no gradient.
class LookupError : public OpError {
 public:
  explicit LookupError(const std::string& message)
      : OpError(error::NOT_FOUND, message) {}
};
}  // namespace errors

/// A gradient function. `op` is the forward operation; `grads` holds one
/// gradient per output of `op` (an invalid Output where no gradient flows,
/// TensorFlow's None). Returns one gradient per input of `op`, invalid for
/// an input without one. Throws the typed errors of the ops it builds.
using GradFn = std::function<std::vector<Output>(
    const Operation& op, const std::vector<Output>& grads)>;

/// The gradient functions by op type. Thread safety: registration happens
/// during static initialisation; lookups afterwards are read-only.
///
/// A type may hold several functions at different priorities
/// (registration.h): the library's are at priority 0, and a function
/// registered at a higher one is the type's gradient while it is there, as a
/// program that links a gradient of its own wants.
class GradientRegistry {
 public:
  static GradientRegistry* Global();

  /// Registers `fn` for `op_type` at `priority`; registering a type twice at
  /// one priority, or a type marked not differentiable, is a bug.
  void Register(const std::string& op_type, GradFn fn, int priority = 0);
  /// Removes the function of `op_type` at `priority`; NotFound when there is
  /// none. Thread safety: while no graph is being differentiated.
  Status Unregister(const std::string& op_type, int priority);
  /// Marks `op_type` as having no gradient (its inputs get None).
  void RegisterNotDifferentiable(const std::string& op_type);

  /// The function of the highest priority for `op_type`, or nullptr when
  /// none is registered or the type is not differentiable.
  const GradFn* Lookup(const std::string& op_type) const;
  bool IsNotDifferentiable(const std::string& op_type) const;
  /// Every op type with a gradient function, sorted.
  std::vector<std::string> OpTypes() const;

 private:
  std::map<std::string, Prioritized<GradFn>, std::less<>> fns_;
  std::map<std::string, bool, std::less<>> not_differentiable_;
};

namespace internal {
struct GradientRegistration {
  GradientRegistration(const std::string& op_type, GradFn fn,
                       int priority = 0) {
    GradientRegistry::Global()->Register(op_type, std::move(fn), priority);
  }
  explicit GradientRegistration(const std::string& op_type) {
    GradientRegistry::Global()->RegisterNotDifferentiable(op_type);
  }
};
}  // namespace internal

/// MINITF_REGISTER_GRADIENT("MatMul", MatMulGrad), as TensorFlow's
/// `@ops.RegisterGradient("MatMul")`.
#define MINITF_REGISTER_GRADIENT(op_type, fn)           \
  static const ::minitf::internal::GradientRegistration \
  MINITF_REGISTRATION_NAME(minitf_grad_registration_)   \
      [[maybe_unused]] (op_type, fn)
/// MINITF_REGISTER_GRADIENT_WITH_PRIORITY("MatMul", MyMatMulGrad, 1): the
/// gradient of MatMul is MyMatMulGrad, in place of the library's.
#define MINITF_REGISTER_GRADIENT_WITH_PRIORITY(op_type, fn, priority) \
  static const ::minitf::internal::GradientRegistration               \
  MINITF_REGISTRATION_NAME(minitf_grad_registration_)                 \
      [[maybe_unused]] (op_type, fn, priority)
/// MINITF_NOT_DIFFERENTIABLE("Shape"), as ops.NotDifferentiable("Shape").
#define MINITF_NOT_DIFFERENTIABLE(op_type)              \
  static const ::minitf::internal::GradientRegistration \
  MINITF_REGISTRATION_NAME(minitf_grad_registration_)   \
      [[maybe_unused]] (op_type)

/// tf.gradients(ys, xs, grad_ys): the symbolic sum of dy/dx over ys, one
/// Output per x with x's shape, or an invalid Output (None) for an x that no
/// y depends on. grad_ys, when given, holds one initial gradient per y (of
/// y's shape; an invalid entry means ones); by default every y is seeded with
/// ones. A tf::Variable in xs stands for its value. The ops are built under
/// name scope `name` ("gradients/"), one sub-scope per op ("MatMul_grad").
/// A float output of an op on the path that no gradient reached gets zeros
/// ("gradients/zeros_like"), as in TensorFlow. With gate_gradients, the
/// gradients of an op with more than one pass through
/// control_flow_ops.tuple ("<op>_grad/tuple/control_dependency[_N]"), so
/// none is used before all are computed; optimizers ask for it.
/// The nodes are TensorFlow's, name for name.
/// Throws InvalidArgumentError for tensors of different graphs or invalid
/// handles, and errors::LookupError ("No gradient defined for operation 'x'
/// (op type: Foo)") for an op on the path without a gradient.
std::vector<Output> gradients(const std::vector<Output>& ys,
                              const std::vector<Output>& xs,
                              const std::vector<Output>& grad_ys = {},
                              const std::string& name = "gradients",
                              bool gate_gradients = false);

}  // namespace minitf
