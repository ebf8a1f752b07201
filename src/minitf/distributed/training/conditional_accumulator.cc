#include "minitf/distributed/training/conditional_accumulator.h"

#include <iostream>
#include <sstream>
#include <utility>

#include "minitf/device/executor/async_op_kernel.h"
#include "minitf/graph/node_builder.h"
#include "minitf/graph/op_def.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/build.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/replaceable_function.h"
#include "minitf/graph/resource_op_kernel.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/shape_inference.h"
#include "minitf/tensor/errors.h"

namespace minitf {
namespace {

// TensorFlow's ops (tensorflow/core/ops/data_flow_ops.cc), with the handle
// an int32 reference (see the header) and dtype's numbertype limited to
// minitf's number dtypes.
MINITF_REGISTER_OP("ConditionalAccumulator")
    .Output("handle: Ref(int32)")
    .Attr("dtype: {float, double, int32, int64}")
    .Attr("shape: shape")
    .Attr("container: string = \"\"")
    .Attr("shared_name: string = \"\"")
    .Attr("reduction_type: string = \"MEAN\"")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) {
      c->set_output(0, TensorShape({}));
      return Status::OK();
    });

MINITF_REGISTER_OP("AccumulatorApplyGradient")
    .Input("handle: Ref(int32)")
    .Input("local_step: int64")
    .Input("gradient: dtype")
    .Attr("dtype: {float, double, int32, int64}")
    .SetIsStateful()
    .SetShapeFn(shape_fns::NoOutputs);

MINITF_REGISTER_OP("AccumulatorTakeGradient")
    .Input("handle: Ref(int32)")
    .Input("num_required: int32")
    .Output("average: dtype")
    .Attr("dtype: {float, double, int32, int64}")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) {
      // The accumulator's shape is not visible here; unknown, as in TF.
      c->set_output(0, TensorShape::UnknownRank());
      return Status::OK();
    });

MINITF_REGISTER_OP("AccumulatorSetGlobalStep")
    .Input("handle: Ref(int32)")
    .Input("new_global_step: int64")
    .SetIsStateful()
    .SetShapeFn(shape_fns::NoOutputs);

MINITF_REGISTER_OP("AccumulatorNumAccumulated")
    .Input("handle: Ref(int32)")
    .Output("num_accumulated: int32")
    .SetIsStateful()
    .SetShapeFn([](InferenceContext* c) {
      c->set_output(0, TensorShape({}));
      return Status::OK();
    });

// The attr's allowed values, checked by the builder and by the kernel of a
// graph imported from a GraphDef, in TensorFlow's words.
Status CheckReductionType(const std::string& reduction) {
  if (reduction == "MEAN" || reduction == "SUM") return Status::OK();
  return errors::InvalidArgument(
      "Attr 'reduction_type' of 'ConditionalAccumulator' Op passed string '",
      reduction, "' not in: \"MEAN\", \"SUM\".");
}

// What an accumulator is, from its node's attrs: the Spec of
// ResourceOpKernel (resource_op_kernel.h), which writes the lookup and the
// kernels' bases. Every session, and every task that runs ops on this
// device, shares the accumulator at `place`.
struct AccumulatorSpec {
  using Resource = AccumulatorResource;
  static constexpr const char* kOp = "ConditionalAccumulator";
  static constexpr const char* kWhat = "accumulator";

  ResourcePlace place;
  DType dtype = DT_INVALID;
  TensorShape shape;
  bool mean = true;

  static StatusOr<AccumulatorSpec> FromAttrs(const AttrMap& attrs,
                                             ResourcePlace place) {
    AccumulatorSpec spec;
    spec.place = std::move(place);
    TF_ASSIGN_OR_RETURN(spec.dtype, GetAttr<DType>(attrs, "dtype"));
    TF_ASSIGN_OR_RETURN(spec.shape, GetAttr<TensorShape>(attrs, "shape"));
    TF_ASSIGN_OR_RETURN(std::string reduction,
                        GetAttr<std::string>(attrs, "reduction_type"));
    TF_RETURN_IF_ERROR(CheckReductionType(reduction));
    spec.mean = reduction == "MEAN";
    return spec;
  }
  std::shared_ptr<AccumulatorResource> Create() const {
    return std::make_shared<AccumulatorResource>(dtype, shape, place.name,
                                                 mean);
  }
};

using ConditionalAccumulatorOp = ResourceOpKernel<AccumulatorSpec>;
using AccumulatorOpBase = ResourceHandleOp<AccumulatorSpec>;

class ApplyGradientOp : public OpKernel, AccumulatorOpBase {
 public:
  explicit ApplyGradientOp(const OpKernelConstruction& c)
      : OpKernel(c),
        AccumulatorOpBase(c),
        dtype_(c.GetAttr<DType>("dtype").value()) {}
  Status Compute(OpKernelContext* ctx) override {
    TF_RETURN_IF_ERROR(
        CheckSignature(dtype_, "int32_ref, int64", /*dtype_is_output=*/false));
    TF_ASSIGN_OR_RETURN(auto acc, GetResource(ctx));
    return acc->ApplyGrad(ctx->input(1).scalar<int64_t>(), ctx->input(2));
  }

 private:
  const DType dtype_;
};

// --8<-- [start:take_kernel]
class TakeGradientOp : public AsyncOpKernel, AccumulatorOpBase {
 public:
  explicit TakeGradientOp(const OpKernelConstruction& c)
      : AsyncOpKernel(c),
        AccumulatorOpBase(c),
        dtype_(c.GetAttr<DType>("dtype").value()) {}
  void ComputeAsync(OpKernelContext* ctx, StatusCallback done) override {
    Status s =
        CheckSignature(dtype_, "int32_ref, int32", /*dtype_is_output=*/true);
    const int32_t num_required = ctx->input(1).scalar<int32_t>();
    if (s.ok() && num_required <= 0) {
      s = errors::InvalidArgument(
          "Argument num_required must be positive, but was ", num_required);
    }
    StatusOr<std::shared_ptr<AccumulatorResource>> acc =
        s.ok() ? GetResource(ctx)
               : StatusOr<std::shared_ptr<AccumulatorResource>>(s);
    if (!acc.ok()) return done(acc.status());
    // Returns at once; `done` runs when enough gradients are here, from
    // the thread of the apply_grad that brought the last one.
    (*acc)->TakeGrad(ctx, num_required,
                     [ctx, done](const Status& st, const Tensor& average) {
                       if (st.ok()) ctx->set_output(0, average);
                       done(st);
                     });
  }

 private:
  const DType dtype_;
};
// --8<-- [end:take_kernel]

class SetGlobalStepOp : public OpKernel, AccumulatorOpBase {
 public:
  explicit SetGlobalStepOp(const OpKernelConstruction& c)
      : OpKernel(c), AccumulatorOpBase(c) {}
  Status Compute(OpKernelContext* ctx) override {
    TF_ASSIGN_OR_RETURN(auto acc, GetResource(ctx));
    acc->SetGlobalStep(ctx->input(1).scalar<int64_t>());
    return Status::OK();
  }
};

class NumAccumulatedOp : public OpKernel, AccumulatorOpBase {
 public:
  explicit NumAccumulatedOp(const OpKernelConstruction& c)
      : OpKernel(c), AccumulatorOpBase(c) {}
  Status Compute(OpKernelContext* ctx) override {
    TF_ASSIGN_OR_RETURN(auto acc, GetResource(ctx));
    ctx->set_output(0, Tensor(acc->NumAccumulated()));
    return Status::OK();
  }
};

MINITF_REGISTER_KERNEL("ConditionalAccumulator", DEVICE_CPU,
                       ConditionalAccumulatorOp);
MINITF_REGISTER_KERNEL("AccumulatorApplyGradient", DEVICE_CPU, ApplyGradientOp);
MINITF_REGISTER_KERNEL("AccumulatorTakeGradient", DEVICE_CPU, TakeGradientOp);
MINITF_REGISTER_KERNEL("AccumulatorSetGlobalStep", DEVICE_CPU, SetGlobalStepOp);
MINITF_REGISTER_KERNEL("AccumulatorNumAccumulated", DEVICE_CPU,
                       NumAccumulatedOp);

// A shape as Python prints it in its errors: "(3,)", "(None, 2)".
std::string PythonShape(const TensorShape& shape) {
  if (shape.unknown_rank()) return "<unknown>";
  std::ostringstream s;
  s << "(";
  for (int i = 0; i < shape.dims(); ++i) {
    if (i > 0) s << ", ";
    if (shape.dim_size(i) < 0) {
      s << "None";
    } else {
      s << shape.dim_size(i);
    }
  }
  s << (shape.dims() == 1 ? ",)" : ")");
  return s.str();
}

// The registered rules; the library's, at priority 0: a gradient computed
// before the last update is stale, local_step below the accumulator's
// global step.
ReplaceableFunction<StaleGradientRule>& StaleGradientRules() {
  static auto* rules = new ReplaceableFunction<StaleGradientRule>(
      "stale-gradient rule",
      [](int64_t local_step, int64_t global_step) {
        return local_step < global_step;
      },
      "stale-gradient rule");
  return *rules;
}

bool GradientIsStale(int64_t local_step, int64_t global_step) {
  return (*StaleGradientRules().Best())(local_step, global_step);
}

}  // namespace

Status RegisterStaleGradientRule(StaleGradientRule rule, int priority) {
  return StaleGradientRules().Register(std::move(rule), priority);
}

Status UnregisterStaleGradientRule(int priority) {
  return StaleGradientRules().Unregister(priority);
}

namespace internal {
void RegisterStaleGradientRuleOrDie(StaleGradientRule rule, int priority) {
  StaleGradientRules().RegisterOrDie(std::move(rule), priority);
}
}  // namespace internal

// --8<-- [start:apply_grad]
Status AccumulatorResource::ApplyGrad(int64_t local_step, const Tensor& grad) {
  DeferredCalls finished;
  {
    std::lock_guard<std::mutex> lock(mu_);
    // A gradient computed before the last update is dropped, silently.
    if (GradientIsStale(local_step, global_step_)) return Status::OK();
    const TensorShape& expected = count_ > 0 ? sum_.shape() : shape_;
    if (!expected.IsCompatibleWith(grad.shape())) {
      return errors::InvalidArgument("Shape mismatch: expected ",
                                     ShapeErrorString(expected), ", got ",
                                     ShapeErrorString(grad.shape()));
    }
    if (count_ == 0) {
      sum_ = grad.DeepCopy();
    } else {
      SwitchDType(dtype_,
                  [&]<typename T>() { sum_.flat<T>() += grad.flat<T>(); });
    }
    ++count_;
    takers_.Run(&finished);
  }
  RunDeferred(&finished);
  return Status::OK();
}
// --8<-- [end:apply_grad]

// --8<-- [start:take_grad]
void AccumulatorResource::TakeGrad(
    OpKernelContext* ctx, int32_t num_required,
    std::function<void(const Status&, const Tensor&)> done) {
  auto [held_done, registered] = HoldDoneUntilRegistered(std::move(done));
  done = std::move(held_done);
  DeferredCalls finished;
  uint64_t id = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    id = takers_.Add(
        [this, num_required, done](DeferredCalls* calls) {
          if (count_ < num_required) return false;
          calls->push_back(
              [done, average = TakeLocked()] { done(Status::OK(), average); });
          return true;
        },
        [done](const Status&) {
          done(errors::Cancelled("TakeGrad operation was cancelled"), Tensor());
        });
    takers_.Run(&finished);
  }
  RunDeferred(&finished);
  // If the step is given up while this take waits, the take ends.
  CancelWithStep(ctx, "take_grad/" + name_,
                 [self = shared_from_this(), id](const Status& s) {
                   DeferredCalls cancelled;
                   {
                     std::lock_guard<std::mutex> lock(self->mu_);
                     self->takers_.Cancel(id, s, &cancelled);
                   }
                   RunDeferred(&cancelled);
                 });
  registered();
}

Tensor AccumulatorResource::TakeLocked() {
  Tensor out = sum_;
  if (mean_) {
    SwitchDType(dtype_, [&]<typename T>() {
      out.flat<T>() = out.flat<T>() / static_cast<T>(count_);
    });
  }
  sum_ = Tensor();
  count_ = 0;
  ++global_step_;
  return out;
}
// --8<-- [end:take_grad]

void AccumulatorResource::SetGlobalStep(int64_t step) {
  std::lock_guard<std::mutex> lock(mu_);
  if (step < global_step_) {
    std::cerr << "WARNING: Attempt to set current_global_step_ to smaller "
                 "value: current_global_step_ = "
              << global_step_ << " >= " << step << " = new_global_step.\n";
  }
  global_step_ = step;
}

int32_t AccumulatorResource::NumAccumulated() {
  std::lock_guard<std::mutex> lock(mu_);
  return count_;
}

int64_t AccumulatorResource::global_step() {
  std::lock_guard<std::mutex> lock(mu_);
  return global_step_;
}

std::string AccumulatorResource::DebugString() const {
  return "A conditional accumulator " + name_;
}

// --8<-- [start:builder]
ConditionalAccumulator::ConditionalAccumulator(
    DType dtype, const TensorShape& shape, const std::string& shared_name,
    const std::string& name, const std::string& reduction_type)
    : dtype_(dtype), shape_(shape) {
  if (dtype != DT_FLOAT && dtype != DT_DOUBLE && dtype != DT_INT32 &&
      dtype != DT_INT64) {
    errors::ThrowIfError(errors::InvalidArgument(
        "Value passed to parameter 'dtype' has DataType ",
        DataTypePythonName(dtype),
        " not in list of allowed values: float32, float64, int32, int64"));
  }
  errors::ThrowIfError(CheckReductionType(reduction_type));
  handle_ = ops::AddOp(NodeBuilder("ConditionalAccumulator", name)
                           .Attr("dtype", dtype)
                           .Attr("shape", shape)
                           .Attr("shared_name", shared_name)
                           .Attr("reduction_type", reduction_type),
                       {});
}

Operation ConditionalAccumulator::apply_grad(Output grad, Output local_step,
                                             const std::string& name) {
  if (grad.dtype() != dtype_) {
    errors::ThrowIfError(errors::InvalidArgument(
        "Tensor conversion requested dtype ", DataTypePythonName(dtype_),
        " for Tensor with dtype ", DataTypePythonName(grad.dtype())));
  }
  if (!grad.shape().IsCompatibleWith(shape_)) {
    errors::ThrowIfError(
        errors::InvalidArgument("Shapes ", PythonShape(grad.shape()), " and ",
                                PythonShape(shape_), " are incompatible"));
  }
  if (local_step.dtype() != DT_INT64) local_step = cast(local_step, DT_INT64);
  colocate_with near(handle_);
  return Operation(ops::AddNode(NodeBuilder("AccumulatorApplyGradient", name)
                                    .Input(handle_)
                                    .Input(local_step)
                                    .Input(grad)
                                    .Attr("dtype", dtype_),
                                {handle_, local_step, grad}));
}
// --8<-- [end:builder]

Operation ConditionalAccumulator::apply_grad(Output grad, int64_t local_step,
                                             const std::string& name) {
  graph_scope use(*handle_.graph());
  return apply_grad(grad, constant(Tensor(local_step)), name);
}

Output ConditionalAccumulator::take_grad(Output num_required,
                                         const std::string& name) {
  colocate_with near(handle_);
  return ops::AddOp(NodeBuilder("AccumulatorTakeGradient", name)
                        .Input(handle_)
                        .Input(num_required)
                        .Attr("dtype", dtype_),
                    {handle_, num_required});
}

Output ConditionalAccumulator::take_grad(int32_t num_required,
                                         const std::string& name) {
  // As Python converts the int inside the op's name scope:
  // "AccumulatorTakeGradient/num_required".
  colocate_with near(handle_);
  ops::OpScope scope(name, "AccumulatorTakeGradient", {handle_});
  Output n = constant(Tensor(num_required), "num_required");
  return ops::AddOp(NodeBuilder("AccumulatorTakeGradient", scope.op_name())
                        .ExactName()
                        .Input(handle_)
                        .Input(n)
                        .Attr("dtype", dtype_),
                    {handle_, n});
}

Operation ConditionalAccumulator::set_global_step(Output new_global_step,
                                                  const std::string& name) {
  if (new_global_step.dtype() != DT_INT64) {
    new_global_step = cast(new_global_step, DT_INT64);
  }
  colocate_with near(handle_);
  return Operation(ops::AddNode(NodeBuilder("AccumulatorSetGlobalStep", name)
                                    .Input(handle_)
                                    .Input(new_global_step),
                                {handle_, new_global_step}));
}

Output ConditionalAccumulator::num_accumulated(const std::string& name) {
  colocate_with near(handle_);
  return ops::AddOp(
      NodeBuilder("AccumulatorNumAccumulated", name).Input(handle_), {handle_});
}

}  // namespace minitf
