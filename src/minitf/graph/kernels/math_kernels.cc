// CPU kernels of the math ops: each calls layer 1's kernel for the op.
//
// Attrs are read once, in the constructor; Compute only moves tensors in and
// out of layer 1's functions, whose errors (a bad axis, a division by zero)
// come back as the Status the executor reports.
#include <vector>

#include "minitf/graph/kernel.h"
#include "minitf/graph/kernels/function_kernels.h"
#include "minitf/graph/kernels/index_inputs.h"
#include "minitf/graph/shape_inference.h"
#include "minitf/tensor/kernels/array_ops.h"
#include "minitf/tensor/kernels/cwise_ops.h"
#include "minitf/tensor/kernels/matmul.h"
#include "minitf/tensor/kernels/reduction_ops.h"

namespace minitf {
namespace {

using internal::BinaryOp;
using internal::UnaryOp;

class MatMulOp : public OpKernel {
 public:
  explicit MatMulOp(const OpKernelConstruction& c)
      : OpKernel(c),
        transpose_a_(c.GetAttr<bool>("transpose_a").value()),
        transpose_b_(c.GetAttr<bool>("transpose_b").value()) {}
  Status Compute(OpKernelContext* ctx) override {
    TF_ASSIGN_OR_RETURN(
        Tensor out, kernels::MatMul(ctx->input(0), ctx->input(1), transpose_a_,
                                    transpose_b_));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }

 private:
  const bool transpose_a_;
  const bool transpose_b_;
};

// --8<-- [start:reduction_kernel]
// Sum, Mean, Max, Min, Prod. The axes arrive as a tensor (input 1), a scalar
// or a list; layer 1 checks them against the input's rank.
template <StatusOr<Tensor> (*Fn)(const Tensor&, const kernels::Axes&, bool)>
class ReductionOp : public OpKernel {
 public:
  explicit ReductionOp(const OpKernelConstruction& c)
      : OpKernel(c), keep_dims_(c.GetAttr<bool>("keep_dims").value()) {}
  Status Compute(OpKernelContext* ctx) override {
    TF_ASSIGN_OR_RETURN(std::vector<int64_t> indices,
                        IndexValues(ctx->input(1)));
    std::vector<int> axes(indices.begin(), indices.end());
    TF_ASSIGN_OR_RETURN(Tensor out, Fn(ctx->input(0), axes, keep_dims_));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }

 private:
  const bool keep_dims_;
};
// --8<-- [end:reduction_kernel]

// ArgMax, ArgMin. Layer 1 gives int64 indices; output_type int32 casts them.
template <StatusOr<Tensor> (*Fn)(const Tensor&, int)>
class ArgOp : public OpKernel {
 public:
  explicit ArgOp(const OpKernelConstruction& c)
      : OpKernel(c), output_type_(c.GetAttr<DType>("output_type").value()) {}
  Status Compute(OpKernelContext* ctx) override {
    TF_ASSIGN_OR_RETURN(int64_t axis, DimensionInput(ctx, 1));
    TF_ASSIGN_OR_RETURN(Tensor out, Fn(ctx->input(0), static_cast<int>(axis)));
    TF_ASSIGN_OR_RETURN(out, kernels::Cast(out, output_type_));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }

 private:
  const DType output_type_;
};

class CastOp : public OpKernel {
 public:
  explicit CastOp(const OpKernelConstruction& c)
      : OpKernel(c), dst_(c.GetAttr<DType>("DstT").value()) {}
  Status Compute(OpKernelContext* ctx) override {
    TF_ASSIGN_OR_RETURN(Tensor out, kernels::Cast(ctx->input(0), dst_));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }

 private:
  const DType dst_;
};

// AddN: a running sum. The shapes must be equal: AddN does not broadcast.
class AddNOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    Tensor sum = ctx->input(0);
    for (int i = 1; i < ctx->num_inputs(); ++i) {
      if (ctx->input(i).shape() != sum.shape()) {
        return errors::InvalidArgument("Inputs to operation ", name(),
                                       " of type AddN must have the same "
                                       "size and shape.  Input 0: ",
                                       ShapeErrorString(sum.shape()),
                                       " != input ", i, ": ",
                                       ShapeErrorString(ctx->input(i).shape()));
      }
      TF_ASSIGN_OR_RETURN(sum, kernels::Add(sum, ctx->input(i)));
    }
    ctx->set_output(0, std::move(sum));
    return Status::OK();
  }
};

MINITF_REGISTER_KERNEL("Add", DEVICE_CPU, BinaryOp<kernels::Add>);
MINITF_REGISTER_KERNEL("AddV2", DEVICE_CPU, BinaryOp<kernels::Add>);
MINITF_REGISTER_KERNEL("Sub", DEVICE_CPU, BinaryOp<kernels::Sub>);
MINITF_REGISTER_KERNEL("Mul", DEVICE_CPU, BinaryOp<kernels::Mul>);
MINITF_REGISTER_KERNEL("Div", DEVICE_CPU, BinaryOp<kernels::Div>);
// Layer 1's Div divides floats exactly, which is all RealDiv takes.
MINITF_REGISTER_KERNEL("RealDiv", DEVICE_CPU, BinaryOp<kernels::Div>);
MINITF_REGISTER_KERNEL("Maximum", DEVICE_CPU, BinaryOp<kernels::Maximum>);
MINITF_REGISTER_KERNEL("Minimum", DEVICE_CPU, BinaryOp<kernels::Minimum>);
MINITF_REGISTER_KERNEL("Equal", DEVICE_CPU, BinaryOp<kernels::Equal>);
MINITF_REGISTER_KERNEL("NotEqual", DEVICE_CPU, BinaryOp<kernels::NotEqual>);
MINITF_REGISTER_KERNEL("Less", DEVICE_CPU, BinaryOp<kernels::Less>);
MINITF_REGISTER_KERNEL("LessEqual", DEVICE_CPU, BinaryOp<kernels::LessEqual>);
MINITF_REGISTER_KERNEL("Greater", DEVICE_CPU, BinaryOp<kernels::Greater>);
MINITF_REGISTER_KERNEL("GreaterEqual", DEVICE_CPU,
                       BinaryOp<kernels::GreaterEqual>);
MINITF_REGISTER_KERNEL("LogicalAnd", DEVICE_CPU, BinaryOp<kernels::LogicalAnd>);
MINITF_REGISTER_KERNEL("LogicalOr", DEVICE_CPU, BinaryOp<kernels::LogicalOr>);

MINITF_REGISTER_KERNEL("Neg", DEVICE_CPU, UnaryOp<kernels::Neg>);
MINITF_REGISTER_KERNEL("Square", DEVICE_CPU, UnaryOp<kernels::Square>);
MINITF_REGISTER_KERNEL("Sqrt", DEVICE_CPU, UnaryOp<kernels::Sqrt>);
MINITF_REGISTER_KERNEL("Exp", DEVICE_CPU, UnaryOp<kernels::Exp>);
MINITF_REGISTER_KERNEL("Log", DEVICE_CPU, UnaryOp<kernels::Log>);
MINITF_REGISTER_KERNEL("Abs", DEVICE_CPU, UnaryOp<kernels::Abs>);
MINITF_REGISTER_KERNEL("Sign", DEVICE_CPU, UnaryOp<kernels::Sign>);
MINITF_REGISTER_KERNEL("Sigmoid", DEVICE_CPU, UnaryOp<kernels::Sigmoid>);
MINITF_REGISTER_KERNEL("Tanh", DEVICE_CPU, UnaryOp<kernels::Tanh>);
MINITF_REGISTER_KERNEL("LogicalNot", DEVICE_CPU, UnaryOp<kernels::LogicalNot>);

MINITF_REGISTER_KERNEL("MatMul", DEVICE_CPU, MatMulOp);
MINITF_REGISTER_KERNEL("Sum", DEVICE_CPU, ReductionOp<kernels::ReduceSum>);
MINITF_REGISTER_KERNEL("Mean", DEVICE_CPU, ReductionOp<kernels::ReduceMean>);
MINITF_REGISTER_KERNEL("Max", DEVICE_CPU, ReductionOp<kernels::ReduceMax>);
MINITF_REGISTER_KERNEL("Min", DEVICE_CPU, ReductionOp<kernels::ReduceMin>);
MINITF_REGISTER_KERNEL("Prod", DEVICE_CPU, ReductionOp<kernels::ReduceProd>);
MINITF_REGISTER_KERNEL("ArgMax", DEVICE_CPU, ArgOp<kernels::ArgMax>);
MINITF_REGISTER_KERNEL("ArgMin", DEVICE_CPU, ArgOp<kernels::ArgMin>);
MINITF_REGISTER_KERNEL("Cast", DEVICE_CPU, CastOp);
MINITF_REGISTER_KERNEL("AddN", DEVICE_CPU, AddNOp);

}  // namespace
}  // namespace minitf
