// CPU kernels of the neural-network ops: Relu, Softmax, LogSoftmax, BiasAdd
// and _FusedMatMul, each a call into layer 1.
#include "minitf/graph/kernel.h"
#include "minitf/tensor/kernels/checks.h"
#include "minitf/tensor/kernels/cwise_ops.h"
#include "minitf/tensor/kernels/matmul.h"
#include "minitf/tensor/kernels/nn_ops.h"

namespace minitf {
namespace {

class ReluOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    TF_ASSIGN_OR_RETURN(Tensor out, kernels::Relu(ctx->input(0)));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};

// The ops normalise the last axis; other axes are transposes in the graph.
template <StatusOr<Tensor> (*Fn)(const Tensor&, int)>
class SoftmaxOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    TF_ASSIGN_OR_RETURN(Tensor out, Fn(ctx->input(0), -1));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};

// BiasAdd is a broadcasting Add once the shapes are known to fit: bias a
// vector as long as value's last dimension.
class BiasAddOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    const Tensor& value = ctx->input(0);
    const Tensor& bias = ctx->input(1);
    TF_RETURN_IF_ERROR(kernels::CheckBiasAdd(value, bias));
    TF_ASSIGN_OR_RETURN(Tensor out, kernels::Add(value, bias));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};

// --8<-- [start:fused_matmul_kernel]
// _FusedMatMul with fused_ops ["BiasAdd"] or ["BiasAdd", "Relu"], the two
// fusions the remapper (graph_rewrite.h) makes; TensorFlow's CPU kernel
// takes more (Relu6, Elu, LeakyRelu, GeluApproximate, ...).
class FusedMatMulOp : public OpKernel {
 public:
  explicit FusedMatMulOp(const OpKernelConstruction& c)
      : OpKernel(c),
        transpose_a_(c.GetAttr<bool>("transpose_a").value()),
        transpose_b_(c.GetAttr<bool>("transpose_b").value()),
        fused_ops_(c.GetAttr<std::vector<std::string>>("fused_ops").value()) {}
  Status Compute(OpKernelContext* ctx) override {
    const std::vector<std::string> bias_add = {"BiasAdd"};
    const std::vector<std::string> bias_add_relu = {"BiasAdd", "Relu"};
    if ((fused_ops_ != bias_add && fused_ops_ != bias_add_relu) ||
        ctx->num_inputs() != 3) {
      std::string ops;
      for (const std::string& op : fused_ops_) {
        ops += (ops.empty() ? "" : ",") + op;
      }
      return errors::Unimplemented("Fusion is not implemented: [", ops, "]");
    }
    TF_ASSIGN_OR_RETURN(
        Tensor out,
        kernels::FusedMatMul(ctx->input(0), ctx->input(1), ctx->input(2),
                             transpose_a_, transpose_b_,
                             /*relu=*/fused_ops_ == bias_add_relu));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }

 private:
  const bool transpose_a_;
  const bool transpose_b_;
  const std::vector<std::string> fused_ops_;
};
// --8<-- [end:fused_matmul_kernel]

MINITF_REGISTER_KERNEL("Relu", DEVICE_CPU, ReluOp);
MINITF_REGISTER_KERNEL("_FusedMatMul", DEVICE_CPU, FusedMatMulOp);
MINITF_REGISTER_KERNEL("Softmax", DEVICE_CPU, SoftmaxOp<kernels::Softmax>);
MINITF_REGISTER_KERNEL("LogSoftmax", DEVICE_CPU,
                       SoftmaxOp<kernels::LogSoftmax>);
MINITF_REGISTER_KERNEL("BiasAdd", DEVICE_CPU, BiasAddOp);

}  // namespace
}  // namespace minitf
