// Kernels that are nothing but a call to one of layer 1's functions.
//
// Most graph ops compute exactly what a chapter-1 kernel computes: Add is
// kernels::Add, ZerosLike is kernels::ZerosLike. Rather than write a class
// for each, these templates take the function as a parameter and make the
// OpKernel around it: read the inputs, call, set output 0, pass errors on.
//
//   MINITF_REGISTER_KERNEL("Add", DEVICE_CPU, BinaryOp<kernels::Add>);
//   MINITF_REGISTER_KERNEL("Exp", DEVICE_CPU, UnaryOp<kernels::Exp>);
//
// IdentityOp, which calls nothing, is here too: two layers register it.
#pragma once

#include "minitf/graph/kernel.h"

namespace minitf::internal {

// --8<-- [start:binary_kernel]
/// A one-output op of two inputs whose math is layer 1's function `Fn`.
template <StatusOr<Tensor> (*Fn)(const Tensor&, const Tensor&)>
class BinaryOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    TF_ASSIGN_OR_RETURN(Tensor out, Fn(ctx->input(0), ctx->input(1)));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};
// --8<-- [end:binary_kernel]

/// A one-output op of one input whose math is layer 1's function `Fn`.
template <StatusOr<Tensor> (*Fn)(const Tensor&)>
class UnaryOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    TF_ASSIGN_OR_RETURN(Tensor out, Fn(ctx->input(0)));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};

/// Output 0 is input 0, the same tensor: Identity's kernel, and autodiff's
/// StopGradient's, an identity that only the gradients tell apart.
class IdentityOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    ctx->set_output(0, ctx->input(0));
    return Status::OK();
  }
};

}  // namespace minitf::internal
