#include "minitf/train/ops/training_ops.h"

#include <vector>

#include "minitf/graph/node_builder.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/shape_inference.h"
#include "minitf/tensor/errors.h"
#include "minitf/train/ops/state_ops.h"

namespace minitf {
namespace {

// The shape function of every Apply op: inputs listed in `same` have the
// variable's shape (input 0), those in `scalars` are scalars; the output is
// the variable's shape, merged with what the others know.
Status ApplyShape(InferenceContext* c, const std::vector<int>& same,
                  const std::vector<int>& scalars) {
  TensorShape var = c->input(0);
  for (int i : same) {
    TensorShape merged;
    TF_RETURN_IF_ERROR(
        InferenceContext::MergeShapes(var, c->input(i), &merged));
    var = merged;
  }
  for (int i : scalars) {
    TensorShape unused;
    TF_RETURN_IF_ERROR(InferenceContext::WithRank(c->input(i), 0, &unused));
  }
  c->set_output(0, var);
  return Status::OK();
}

}  // namespace

// --8<-- [start:register_apply]
MINITF_REGISTER_OP("ApplyGradientDescent")
    .Input("var: Ref(T)")
    .Input("alpha: T")
    .Input("delta: T")
    .Output("out: Ref(T)")
    .Attr("T: {float, double}")
    .Attr("use_locking: bool = false")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) { return ApplyShape(c, {2}, {1}); });

MINITF_REGISTER_OP("ApplyMomentum")
    .Input("var: Ref(T)")
    .Input("accum: Ref(T)")
    .Input("lr: T")
    .Input("grad: T")
    .Input("momentum: T")
    .Output("out: Ref(T)")
    .Attr("T: {float, double}")
    .Attr("use_locking: bool = false")
    .Attr("use_nesterov: bool = false")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) {
      return ApplyShape(c, {1, 3}, {2, 4});
    });
// --8<-- [end:register_apply]

MINITF_REGISTER_OP("ApplyAdam")
    .Input("var: Ref(T)")
    .Input("m: Ref(T)")
    .Input("v: Ref(T)")
    .Input("beta1_power: T")
    .Input("beta2_power: T")
    .Input("lr: T")
    .Input("beta1: T")
    .Input("beta2: T")
    .Input("epsilon: T")
    .Input("grad: T")
    .Output("out: Ref(T)")
    .Attr("T: {float, double}")
    .Attr("use_locking: bool = false")
    .Attr("use_nesterov: bool = false")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) {
      return ApplyShape(c, {1, 2, 9}, {3, 4, 5, 6, 7, 8});
    });

MINITF_REGISTER_OP("ApplyRMSProp")
    .Input("var: Ref(T)")
    .Input("ms: Ref(T)")
    .Input("mom: Ref(T)")
    .Input("lr: T")
    .Input("rho: T")
    .Input("momentum: T")
    .Input("epsilon: T")
    .Input("grad: T")
    .Output("out: Ref(T)")
    .Attr("T: {float, double}")
    .Attr("use_locking: bool = false")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) {
      return ApplyShape(c, {1, 2, 7}, {3, 4, 5, 6});
    });

namespace {

// Builds an Apply op whose first `num_refs` inputs are variables, colocated
// with the first, as TensorFlow's placer puts a ref's consumers.
Output ApplyOp(const char* op, int num_refs, const std::vector<Output>& inputs,
               NodeBuilder builder) {
  for (int i = 0; i < num_refs; ++i) {
    if (!IsRefOutput(inputs[i])) {
      throw errors::InvalidArgumentError(std::string("Input 'ref' of '") + op +
                                         "' Op requires l-value input, got " +
                                         inputs[i].name());
    }
  }
  graph_scope in_graph(*GraphForInputs(inputs));
  colocate_with with_var(inputs[0].op());
  for (const Output& in : inputs) builder.Input(in);
  return ops::AddOp(builder, inputs);
}

}  // namespace

Output apply_gradient_descent(Output var, Output alpha, Output delta,
                              bool use_locking, const std::string& name) {
  return ApplyOp("ApplyGradientDescent", 1, {var, alpha, delta},
                 NodeBuilder("ApplyGradientDescent", name)
                     .Attr("use_locking", use_locking));
}

Output apply_momentum(Output var, Output accum, Output lr, Output grad,
                      Output momentum, bool use_locking, bool use_nesterov,
                      const std::string& name) {
  return ApplyOp("ApplyMomentum", 2, {var, accum, lr, grad, momentum},
                 NodeBuilder("ApplyMomentum", name)
                     .Attr("use_locking", use_locking)
                     .Attr("use_nesterov", use_nesterov));
}

Output apply_adam(Output var, Output m, Output v, Output beta1_power,
                  Output beta2_power, Output lr, Output beta1, Output beta2,
                  Output epsilon, Output grad, bool use_locking,
                  bool use_nesterov, const std::string& name) {
  return ApplyOp(
      "ApplyAdam", 3,
      {var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad},
      NodeBuilder("ApplyAdam", name)
          .Attr("use_locking", use_locking)
          .Attr("use_nesterov", use_nesterov));
}

Output apply_rms_prop(Output var, Output ms, Output mom, Output lr, Output rho,
                      Output momentum, Output epsilon, Output grad,
                      bool use_locking, const std::string& name) {
  return ApplyOp(
      "ApplyRMSProp", 3, {var, ms, mom, lr, rho, momentum, epsilon, grad},
      NodeBuilder("ApplyRMSProp", name).Attr("use_locking", use_locking));
}

}  // namespace minitf
