// CPU kernels of the variable ops (ops/state_ops.h). Each finds its
// variable's Var in the session's ResourceMgr by the VariableV2 node's
// container and name, read once, in the kernel's constructor
// (var_lookup.h).
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>

#include "minitf/graph/kernel.h"
#include "minitf/graph/resource_mgr.h"
#include "minitf/graph/shape_inference.h"
#include "minitf/train/kernels/var_lookup.h"
#include "minitf/train/var.h"

namespace minitf {

std::string Var::DebugString() const {
  return std::string(DataTypeString(dtype_)) + "/" +
         ShapeErrorString(tensor_.IsInitialized() ? tensor_.shape()
                                                  : declared_shape_);
}

namespace {

// The base of the kernels that take a variable as their `ref` input. A
// constructor cannot fail, so a bad `ref` is kept and reported by Compute.
class RefKernel : public OpKernel {
 public:
  explicit RefKernel(const OpKernelConstruction& c) : OpKernel(c) {
    StatusOr<VarLocation> loc = RefLocation(c, 0);
    if (loc.ok()) {
      loc_ = std::move(loc).value();
    } else {
      bad_ref_ = loc.status();
    }
  }

 protected:
  // The session's Var of the `ref` input.
  StatusOr<std::shared_ptr<Var>> RefVar(OpKernelContext* ctx) const {
    if (!bad_ref_.ok()) return bad_ref_;
    return FindVar(ctx, loc_);
  }
  const std::string& var_name() const { return loc_.name; }

 private:
  VarLocation loc_;
  Status bad_ref_;
};

// --8<-- [start:variable_kernel]
// Outputs the variable's value, sharing its buffer, or leaves the output
// unset while it has none (the executor stops its readers, not Assign).
// A fetch of the variable reads it again when the run's steps are done, and
// so gets the value the run's updates left (OpKernel::RereadRef).
class VariableOp : public OpKernel {
 public:
  explicit VariableOp(const OpKernelConstruction& c)
      : OpKernel(c), loc_(LocationOf(c.node())) {}
  Status Compute(OpKernelContext* ctx) override {
    TF_ASSIGN_OR_RETURN(std::shared_ptr<Var> var, FindVar(ctx, loc_));
    std::lock_guard<std::mutex> lock(var->mu());
    if (var->is_initialized()) ctx->set_output(0, *var->tensor());
    return Status::OK();
  }
  Status RereadRef(OpKernelContext* ctx) override { return Compute(ctx); }

 private:
  const VarLocation loc_;
};
// --8<-- [end:variable_kernel]

// --8<-- [start:assign_kernel]
// ref = value. The variable takes value's buffer (copy-on-write, var.h), so
// an assignment copies nothing.
class AssignOp : public RefKernel {
 public:
  explicit AssignOp(const OpKernelConstruction& c)
      : RefKernel(c),
        validate_shape_(c.GetAttr<bool>("validate_shape").value()) {}
  Status Compute(OpKernelContext* ctx) override {
    const Tensor& value = ctx->input(1);
    TF_ASSIGN_OR_RETURN(std::shared_ptr<Var> var, RefVar(ctx));
    std::lock_guard<std::mutex> lock(var->mu());
    // The shape the variable has: its value's, else the one it declared.
    const TensorShape& lhs =
        var->is_initialized() ? var->tensor()->shape() : var->declared_shape();
    if (validate_shape_ && lhs.IsFullyDefined() && lhs != value.shape()) {
      return errors::InvalidArgument(
          "Assign requires shapes of both tensors to match. lhs shape= ",
          ShapeErrorString(lhs),
          " rhs shape= ", ShapeErrorString(value.shape()));
    }
    *var->tensor() = value;
    ctx->set_output(0, value);
    return Status::OK();
  }

 private:
  const bool validate_shape_;
};
// --8<-- [end:assign_kernel]

// --8<-- [start:assign_update_kernel]
// ref += value (or -=): in place when no reader holds the old value, else
// into a new buffer, so a value a reader holds never changes.
template <bool kAdd>
class AssignUpdateOp : public RefKernel {
 public:
  using RefKernel::RefKernel;
  Status Compute(OpKernelContext* ctx) override {
    const Tensor& value = ctx->input(1);
    TF_ASSIGN_OR_RETURN(std::shared_ptr<Var> var, RefVar(ctx));
    std::lock_guard<std::mutex> lock(var->mu());
    // The executor has checked the ref input, so this holds only if the
    // value were removed in between; say so rather than crash.
    if (!var->is_initialized()) {
      return errors::FailedPrecondition(
          "Attempting to use uninitialized value ", var_name());
    }
    Tensor& old = *var->tensor();
    if (old.shape() != value.shape()) {
      return errors::InvalidArgument(
          "Cannot update variable with shape ", ShapeErrorString(old.shape()),
          " using a Tensor with shape ", ShapeErrorString(value.shape()),
          ", shapes must be equal.");
    }
    // Asked before `out` takes a reference of its own.
    const bool in_place = var->CanUpdateInPlace(ctx->input(0));
    Tensor out;
    if (in_place) {
      out = old;
    } else {
      TF_ASSIGN_OR_RETURN(
          out, Tensor::Allocate(old.dtype(), old.shape(), ctx->allocator()));
    }
    Status status = SwitchDType(old.dtype(), [&]<typename T>() {
      // The op's dtypes leave bool out: it has no + or -.
      if constexpr (std::is_same_v<T, bool>) {
        return errors::InvalidArgument(type_string(), " does not support bool");
      } else {
        Update<T>(old, value, &out);
        return Status::OK();
      }
    });
    TF_RETURN_IF_ERROR(status);
    old = out;
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }

 private:
  // out = old +/- value; out may be old itself.
  template <typename T>
  static void Update(const Tensor& old, const Tensor& value, Tensor* out) {
    if (kAdd) {
      out->flat<T>() = old.flat<T>() + value.flat<T>();
    } else {
      out->flat<T>() = old.flat<T>() - value.flat<T>();
    }
  }
};
// --8<-- [end:assign_update_kernel]

class IsVariableInitializedOp : public RefKernel {
 public:
  using RefKernel::RefKernel;
  Status Compute(OpKernelContext* ctx) override {
    TF_ASSIGN_OR_RETURN(std::shared_ptr<Var> var, RefVar(ctx));
    std::lock_guard<std::mutex> lock(var->mu());
    TF_ASSIGN_OR_RETURN(Tensor out, Tensor::Allocate(DT_BOOL, TensorShape()));
    out.scalar<bool>() = var->is_initialized();
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};

MINITF_REGISTER_KERNEL("VariableV2", DEVICE_CPU, VariableOp);
MINITF_REGISTER_KERNEL("Assign", DEVICE_CPU, AssignOp);
MINITF_REGISTER_KERNEL("AssignAdd", DEVICE_CPU, AssignUpdateOp<true>);
MINITF_REGISTER_KERNEL("AssignSub", DEVICE_CPU, AssignUpdateOp<false>);
MINITF_REGISTER_KERNEL("IsVariableInitialized", DEVICE_CPU,
                       IsVariableInitializedOp);

}  // namespace
}  // namespace minitf
