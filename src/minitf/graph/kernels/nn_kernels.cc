// CPU kernels of the neural-network ops: Relu, Softmax, LogSoftmax and
// BiasAdd, each a call into layer 1.
#include "minitf/graph/kernel.h"
#include "minitf/tensor/kernels/checks.h"
#include "minitf/tensor/kernels/cwise_ops.h"
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

MINITF_REGISTER_KERNEL("Relu", DEVICE_CPU, ReluOp);
MINITF_REGISTER_KERNEL("Softmax", DEVICE_CPU, SoftmaxOp<kernels::Softmax>);
MINITF_REGISTER_KERNEL("LogSoftmax", DEVICE_CPU,
                       SoftmaxOp<kernels::LogSoftmax>);
MINITF_REGISTER_KERNEL("BiasAdd", DEVICE_CPU, BiasAddOp);

}  // namespace
}  // namespace minitf
