// The GPU kernels of the graph's ops: each queues this chapter's CUDA
// kernels (tensor_ops.h) on the compute stream of the GPU it runs on. Their
// base, GpuOpKernel, is in gpu_op_kernel.h.
//
// A kernel registered here for "GPU" takes the place of chapter 4's alias
// to the CPU kernel (virtual_gpu_kernels.cc), for every GPU device: real
// GPUs, emulated GPUs, and chapter 4's virtual GPUs, which have no streams.
// On those it runs the CPU kernel it replaced, so that linking this layer
// changes nothing for a program that did not ask for emulated GPUs. Ops
// without a kernel here keep the alias: on an emulated GPU they run the CPU
// kernel on device memory the CPU can read (GpuDeviceContext::KernelQueued
// says why that is safe); a GPU whose memory the CPU cannot read runs them
// as host_memory.h allows, or refuses them.
//
// The index inputs (a reduction's axes, ArgMax's dimension, Fill's dims) are
// int32, read on the host, as TensorFlow's GPU kernels read them from host
// memory: a GPU whose memory the CPU cannot read keeps them there
// (host_memory.h), and on an emulated GPU the CPU reads them where they are.
#include <memory>
#include <utility>
#include <vector>

#include "minitf/gpu/gpu_device.h"
#include "minitf/gpu/gpu_op_kernel.h"
#include "minitf/gpu/host_memory.h"
#include "minitf/gpu/tensor_ops.h"
#include "minitf/graph/kernel.h"
#include "minitf/graph/kernels/index_inputs.h"
#include "minitf/graph/shape_inference.h"
#include "minitf/tensor/kernels/checks.h"
#include "minitf/train/kernels/apply_recipe.h"

namespace minitf::gpu {
namespace {

// `t` where the CPU can read it: itself, or a copy of a tensor in the GPU's
// memory, made once the kernels queued before have written it.
StatusOr<Tensor> ReadOnHost(OpKernelContext* ctx, const GpuStreamContext& gpu,
                            const Tensor& t) {
  if (!t.IsInitialized() || t.allocator()->HostAccessible()) return t;
  TF_ASSIGN_OR_RETURN(Tensor host,
                      Tensor::Allocate(t.dtype(), t.shape(), cpu_allocator()));
  StreamExecutor* executor =
      static_cast<GpuDeviceContext*>(ctx->op_device_context())->executor();
  TF_RETURN_IF_ERROR(executor->MemcpyDeviceToHost(
      host.raw_data(), t.device_data(), t.TotalBytes(), gpu.stream));
  TF_RETURN_IF_ERROR(executor->SynchronizeStream(gpu.stream));
  return host;
}

#define MINITF_REGISTER_GPU_KERNEL(op_type, K, ...) \
  MINITF_REGISTER_GPU_KERNEL_UNIQ(__COUNTER__, op_type, K, __VA_ARGS__)
#define MINITF_REGISTER_GPU_KERNEL_UNIQ(ctr, op_type, K, ...) \
  MINITF_REGISTER_GPU_KERNEL_UNIQ2(ctr, op_type, K, __VA_ARGS__)
#define MINITF_REGISTER_GPU_KERNEL_UNIQ2(ctr, op_type, K, ...)                \
  static const ::minitf::internal::KernelRegistration minitf_gpu_kernel_##ctr \
      [[maybe_unused]] (op_type, DEVICE_GPU, MakeGpuKernel<K>, __VA_ARGS__)

// The dtypes of TensorFlow's GPU kernels. Its int32 arithmetic (the shape
// computations of gradients: Mean_grad's Prod and Maximum) is registered for
// the GPU with its tensors in host memory; so it is here where the CPU
// cannot read the GPU's memory (GpuOpKernel::Compute), while an emulated
// GPU runs it as a CUDA kernel like the others.
const std::vector<DType> kFloats = {DT_FLOAT, DT_DOUBLE};
const std::vector<DType> kNumbers = {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64};

template <UnaryOp kOp>
class UnaryGpuOp : public GpuOpKernel {
 public:
  using GpuOpKernel::GpuOpKernel;
  Status ComputeOnGpu(OpKernelContext* ctx,
                      const GpuStreamContext& gpu) override {
    TF_ASSIGN_OR_RETURN(Tensor out, Unary(gpu, kOp, ctx->input(0)));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};

template <BinaryOp kOp>
class BinaryGpuOp : public GpuOpKernel {
 public:
  using GpuOpKernel::GpuOpKernel;
  Status ComputeOnGpu(OpKernelContext* ctx,
                      const GpuStreamContext& gpu) override {
    TF_ASSIGN_OR_RETURN(Tensor out,
                        Binary(gpu, kOp, ctx->input(0), ctx->input(1)));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};

MINITF_REGISTER_GPU_KERNEL("Neg", UnaryGpuOp<UnaryOp::kNeg>, kNumbers);
MINITF_REGISTER_GPU_KERNEL("Abs", UnaryGpuOp<UnaryOp::kAbs>, kNumbers);
MINITF_REGISTER_GPU_KERNEL("Sign", UnaryGpuOp<UnaryOp::kSign>, kNumbers);
MINITF_REGISTER_GPU_KERNEL("Square", UnaryGpuOp<UnaryOp::kSquare>, kNumbers);
MINITF_REGISTER_GPU_KERNEL("Sqrt", UnaryGpuOp<UnaryOp::kSqrt>, kFloats);
MINITF_REGISTER_GPU_KERNEL("Reciprocal", UnaryGpuOp<UnaryOp::kReciprocal>,
                           kFloats);
MINITF_REGISTER_GPU_KERNEL("Exp", UnaryGpuOp<UnaryOp::kExp>, kFloats);
MINITF_REGISTER_GPU_KERNEL("Log", UnaryGpuOp<UnaryOp::kLog>, kFloats);
MINITF_REGISTER_GPU_KERNEL("Relu", UnaryGpuOp<UnaryOp::kRelu>, kNumbers);
MINITF_REGISTER_GPU_KERNEL("Sigmoid", UnaryGpuOp<UnaryOp::kSigmoid>, kFloats);
MINITF_REGISTER_GPU_KERNEL("Tanh", UnaryGpuOp<UnaryOp::kTanh>, kFloats);
MINITF_REGISTER_GPU_KERNEL("LogicalNot", UnaryGpuOp<UnaryOp::kLogicalNot>, {});

MINITF_REGISTER_GPU_KERNEL("Add", BinaryGpuOp<BinaryOp::kAdd>, kNumbers);
MINITF_REGISTER_GPU_KERNEL("AddV2", BinaryGpuOp<BinaryOp::kAdd>, kNumbers);
MINITF_REGISTER_GPU_KERNEL("Sub", BinaryGpuOp<BinaryOp::kSub>, kNumbers);
MINITF_REGISTER_GPU_KERNEL("Mul", BinaryGpuOp<BinaryOp::kMul>, kNumbers);
MINITF_REGISTER_GPU_KERNEL("RealDiv", BinaryGpuOp<BinaryOp::kDiv>, kFloats);
MINITF_REGISTER_GPU_KERNEL("Maximum", BinaryGpuOp<BinaryOp::kMaximum>,
                           kNumbers);
MINITF_REGISTER_GPU_KERNEL("Minimum", BinaryGpuOp<BinaryOp::kMinimum>,
                           kNumbers);
MINITF_REGISTER_GPU_KERNEL("ReluGrad", BinaryGpuOp<BinaryOp::kReluGrad>,
                           kNumbers);
MINITF_REGISTER_GPU_KERNEL("Equal", BinaryGpuOp<BinaryOp::kEqual>, {});
MINITF_REGISTER_GPU_KERNEL("NotEqual", BinaryGpuOp<BinaryOp::kNotEqual>, {});
MINITF_REGISTER_GPU_KERNEL("Less", BinaryGpuOp<BinaryOp::kLess>, kNumbers);
MINITF_REGISTER_GPU_KERNEL("LessEqual", BinaryGpuOp<BinaryOp::kLessEqual>,
                           kNumbers);
MINITF_REGISTER_GPU_KERNEL("Greater", BinaryGpuOp<BinaryOp::kGreater>,
                           kNumbers);
MINITF_REGISTER_GPU_KERNEL("GreaterEqual", BinaryGpuOp<BinaryOp::kGreaterEqual>,
                           kNumbers);
MINITF_REGISTER_GPU_KERNEL("LogicalAnd", BinaryGpuOp<BinaryOp::kLogicalAnd>,
                           {});
MINITF_REGISTER_GPU_KERNEL("LogicalOr", BinaryGpuOp<BinaryOp::kLogicalOr>, {});

class BiasAddGpuOp : public GpuOpKernel {
 public:
  using GpuOpKernel::GpuOpKernel;
  Status ComputeOnGpu(OpKernelContext* ctx,
                      const GpuStreamContext& gpu) override {
    TF_ASSIGN_OR_RETURN(Tensor out, BiasAdd(gpu, ctx->input(0), ctx->input(1)));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};
MINITF_REGISTER_GPU_KERNEL("BiasAdd", BiasAddGpuOp, kNumbers);

class CastGpuOp : public GpuOpKernel {
 public:
  CastGpuOp(const OpKernelConstruction& c, std::unique_ptr<OpKernel> cpu)
      : GpuOpKernel(c, std::move(cpu)),
        dst_(c.GetAttr<DType>("DstT").value()) {}
  Status ComputeOnGpu(OpKernelContext* ctx,
                      const GpuStreamContext& gpu) override {
    TF_ASSIGN_OR_RETURN(Tensor out, Cast(gpu, ctx->input(0), dst_));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }

 private:
  const DType dst_;
};
MINITF_REGISTER_GPU_KERNEL("Cast", CastGpuOp, {});

// Fill's dims lie on the host and its value, a scalar, is read there: from
// the GPU's memory first where the CPU cannot read it.
class FillGpuOp : public GpuOpKernel {
 public:
  using GpuOpKernel::GpuOpKernel;
  Status ComputeOnGpu(OpKernelContext* ctx,
                      const GpuStreamContext& gpu) override {
    const Tensor& dims = ctx->input(0);
    TF_ASSIGN_OR_RETURN(Tensor value, ReadOnHost(ctx, gpu, ctx->input(1)));
    // The CPU kernel's checks, in its words.
    TF_RETURN_IF_ERROR(kernels::CheckFillInputs(dims, value));
    TF_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, IndexValues(dims));
    TF_ASSIGN_OR_RETURN(TensorShape shape,
                        TensorShape::FromDims(sizes, /*allow_unknown=*/false));
    TF_ASSIGN_OR_RETURN(Tensor out, Fill(gpu, shape, value));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};
MINITF_REGISTER_GPU_KERNEL("Fill", FillGpuOp, kNumbers);

class TileGpuOp : public GpuOpKernel {
 public:
  using GpuOpKernel::GpuOpKernel;
  Status ComputeOnGpu(OpKernelContext* ctx,
                      const GpuStreamContext& gpu) override {
    TF_ASSIGN_OR_RETURN(std::vector<int64_t> multiples,
                        IndexValues(ctx->input(1)));
    TF_ASSIGN_OR_RETURN(Tensor out, Tile(gpu, ctx->input(0), multiples));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};
MINITF_REGISTER_GPU_KERNEL("Tile", TileGpuOp, {});

class BroadcastToGpuOp : public GpuOpKernel {
 public:
  using GpuOpKernel::GpuOpKernel;
  Status ComputeOnGpu(OpKernelContext* ctx,
                      const GpuStreamContext& gpu) override {
    TF_ASSIGN_OR_RETURN(std::vector<int64_t> shape, IndexValues(ctx->input(1)));
    TF_ASSIGN_OR_RETURN(Tensor out, BroadcastTo(gpu, ctx->input(0), shape));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};
MINITF_REGISTER_GPU_KERNEL("BroadcastTo", BroadcastToGpuOp, {});

// The array ops that move data: layer 2's index inputs (index_inputs.h),
// chapter 1's checks and plans (array_ops.h), the GPU's copies.
class TransposeGpuOp : public GpuOpKernel {
 public:
  using GpuOpKernel::GpuOpKernel;
  Status ComputeOnGpu(OpKernelContext* ctx,
                      const GpuStreamContext& gpu) override {
    TF_ASSIGN_OR_RETURN(std::vector<int64_t> perm, VectorInput(ctx, 1, "perm"));
    TF_ASSIGN_OR_RETURN(Tensor out,
                        Transpose(gpu, ctx->input(0),
                                  std::vector<int>(perm.begin(), perm.end())));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};
MINITF_REGISTER_GPU_KERNEL("Transpose", TransposeGpuOp, {});

// ConcatV2: inputs 0..N-1 are the values, the last one the axis.
class ConcatV2GpuOp : public GpuOpKernel {
 public:
  using GpuOpKernel::GpuOpKernel;
  Status ComputeOnGpu(OpKernelContext* ctx,
                      const GpuStreamContext& gpu) override {
    const int n = ctx->num_inputs() - 1;
    TF_ASSIGN_OR_RETURN(int64_t axis, ScalarInput(ctx, n, "axis"));
    std::vector<Tensor> values;
    for (int i = 0; i < n; ++i) values.push_back(ctx->input(i));
    TF_ASSIGN_OR_RETURN(Tensor out,
                        Concat(gpu, values, static_cast<int>(axis)));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};
MINITF_REGISTER_GPU_KERNEL("ConcatV2", ConcatV2GpuOp, {});

class PackGpuOp : public GpuOpKernel {
 public:
  PackGpuOp(const OpKernelConstruction& c, std::unique_ptr<OpKernel> cpu)
      : GpuOpKernel(c, std::move(cpu)),
        axis_(static_cast<int>(c.GetAttr<int64_t>("axis").value())) {}
  Status ComputeOnGpu(OpKernelContext* ctx,
                      const GpuStreamContext& gpu) override {
    std::vector<Tensor> values;
    for (int i = 0; i < ctx->num_inputs(); ++i) values.push_back(ctx->input(i));
    TF_ASSIGN_OR_RETURN(Tensor out, Stack(gpu, values, axis_));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }

 private:
  const int axis_;
};
MINITF_REGISTER_GPU_KERNEL("Pack", PackGpuOp, {});

class SliceGpuOp : public GpuOpKernel {
 public:
  using GpuOpKernel::GpuOpKernel;
  Status ComputeOnGpu(OpKernelContext* ctx,
                      const GpuStreamContext& gpu) override {
    TF_ASSIGN_OR_RETURN(std::vector<int64_t> begin,
                        VectorInput(ctx, 1, "begin"));
    TF_ASSIGN_OR_RETURN(std::vector<int64_t> size, VectorInput(ctx, 2, "size"));
    TF_ASSIGN_OR_RETURN(Tensor out, Slice(gpu, ctx->input(0), begin, size));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};
MINITF_REGISTER_GPU_KERNEL("Slice", SliceGpuOp, {});

template <ReduceOp kOp>
class ReductionGpuOp : public GpuOpKernel {
 public:
  ReductionGpuOp(const OpKernelConstruction& c, std::unique_ptr<OpKernel> cpu)
      : GpuOpKernel(c, std::move(cpu)),
        keep_dims_(c.GetAttr<bool>("keep_dims").value()) {}
  Status ComputeOnGpu(OpKernelContext* ctx,
                      const GpuStreamContext& gpu) override {
    TF_ASSIGN_OR_RETURN(std::vector<int64_t> indices,
                        IndexValues(ctx->input(1)));
    std::vector<int> axes(indices.begin(), indices.end());
    TF_ASSIGN_OR_RETURN(Tensor out,
                        Reduce(gpu, kOp, ctx->input(0), axes, keep_dims_));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }

 private:
  const bool keep_dims_;
};
MINITF_REGISTER_GPU_KERNEL("Sum", ReductionGpuOp<ReduceOp::kSum>, kNumbers);
MINITF_REGISTER_GPU_KERNEL("Mean", ReductionGpuOp<ReduceOp::kMean>, kNumbers);
MINITF_REGISTER_GPU_KERNEL("Prod", ReductionGpuOp<ReduceOp::kProd>, kNumbers);
MINITF_REGISTER_GPU_KERNEL("Max", ReductionGpuOp<ReduceOp::kMax>, kNumbers);
MINITF_REGISTER_GPU_KERNEL("Min", ReductionGpuOp<ReduceOp::kMin>, kNumbers);

template <bool kMax>
class ArgGpuOp : public GpuOpKernel {
 public:
  ArgGpuOp(const OpKernelConstruction& c, std::unique_ptr<OpKernel> cpu)
      : GpuOpKernel(c, std::move(cpu)),
        output_type_(c.GetAttr<DType>("output_type").value()) {}
  Status ComputeOnGpu(OpKernelContext* ctx,
                      const GpuStreamContext& gpu) override {
    TF_ASSIGN_OR_RETURN(int64_t axis, DimensionInput(ctx, 1));
    const int a = static_cast<int>(axis);
    TF_ASSIGN_OR_RETURN(Tensor out,
                        kMax ? ArgMax(gpu, ctx->input(0), a, output_type_)
                             : ArgMin(gpu, ctx->input(0), a, output_type_));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }

 private:
  const DType output_type_;
};
MINITF_REGISTER_GPU_KERNEL("ArgMax", ArgGpuOp<true>, kNumbers);
MINITF_REGISTER_GPU_KERNEL("ArgMin", ArgGpuOp<false>, kNumbers);

template <bool kLog>
class SoftmaxGpuOp : public GpuOpKernel {
 public:
  using GpuOpKernel::GpuOpKernel;
  Status ComputeOnGpu(OpKernelContext* ctx,
                      const GpuStreamContext& gpu) override {
    TF_ASSIGN_OR_RETURN(Tensor out, kLog ? LogSoftmax(gpu, ctx->input(0))
                                         : Softmax(gpu, ctx->input(0)));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};
MINITF_REGISTER_GPU_KERNEL("Softmax", SoftmaxGpuOp<false>, kFloats);
MINITF_REGISTER_GPU_KERNEL("LogSoftmax", SoftmaxGpuOp<true>, kFloats);

template <bool kSparse>
class XentGpuOp : public GpuOpKernel {
 public:
  using GpuOpKernel::GpuOpKernel;
  Status ComputeOnGpu(OpKernelContext* ctx,
                      const GpuStreamContext& gpu) override {
    Tensor loss, backprop;
    TF_RETURN_IF_ERROR(
        kSparse ? SparseSoftmaxCrossEntropyWithLogits(
                      gpu, ctx->input(0), ctx->input(1), &loss, &backprop)
                : SoftmaxCrossEntropyWithLogits(
                      gpu, ctx->input(0), ctx->input(1), &loss, &backprop));
    ctx->set_output(0, std::move(loss));
    ctx->set_output(1, std::move(backprop));
    return Status::OK();
  }
};
MINITF_REGISTER_GPU_KERNEL("SoftmaxCrossEntropyWithLogits", XentGpuOp<false>,
                           kFloats);
MINITF_REGISTER_GPU_KERNEL("SparseSoftmaxCrossEntropyWithLogits",
                           XentGpuOp<true>, kFloats);

// MatMul: cuBLAS on a real GPU, the course's best teaching GEMM on the
// emulator. float and double only, as TensorFlow's GPU MatMul.
class MatMulGpuOp : public GpuOpKernel {
 public:
  MatMulGpuOp(const OpKernelConstruction& c, std::unique_ptr<OpKernel> cpu)
      : GpuOpKernel(c, std::move(cpu)),
        transpose_a_(c.GetAttr<bool>("transpose_a").value()),
        transpose_b_(c.GetAttr<bool>("transpose_b").value()) {}
  Status ComputeOnGpu(OpKernelContext* ctx,
                      const GpuStreamContext& gpu) override {
    TF_ASSIGN_OR_RETURN(Tensor out, MatMul(gpu, ctx->input(0), ctx->input(1),
                                           transpose_a_, transpose_b_));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }

 private:
  const bool transpose_a_;
  const bool transpose_b_;
};
MINITF_REGISTER_GPU_KERNEL("MatMul", MatMulGpuOp, kFloats);

// --8<-- [start:apply_kernels]
// The optimizers' updates: layer 3's recipe (find, lock and check the
// variables, copy-on-write) with the math queued on the GPU. A variable's
// copy-on-write copy is a device-to-device copy on the compute stream, so
// the update queued after it reads it in order.
class GpuApplyOp : public GpuOpKernel {
 public:
  GpuApplyOp(const OpKernelConstruction& c, std::unique_ptr<OpKernel> cpu,
             ApplyRecipe recipe)
      : GpuOpKernel(c, std::move(cpu)), recipe_(std::move(recipe)) {}

 protected:
  Status RunOnGpu(OpKernelContext* ctx, const GpuStreamContext& gpu,
                  const ApplyRecipe::Update& update) const {
    auto* context = static_cast<GpuDeviceContext*>(ctx->op_device_context());
    return recipe_.Run(ctx, update, [&](const Tensor& from, Tensor* to) {
      return context->executor()->MemcpyDeviceToDevice(
          to->device_data(), from.device_data(), from.TotalBytes(), gpu.stream);
    });
  }

 private:
  const ApplyRecipe recipe_;
};

class ApplyGradientDescentGpuOp : public GpuApplyOp {
 public:
  ApplyGradientDescentGpuOp(const OpKernelConstruction& c,
                            std::unique_ptr<OpKernel> cpu)
      : GpuApplyOp(c, std::move(cpu),
                   ApplyRecipe(c, {"var"}, {{1, "alpha"}}, 2, "delta")) {}
  Status ComputeOnGpu(OpKernelContext* ctx,
                      const GpuStreamContext& gpu) override {
    return RunOnGpu(ctx, gpu, [&](Tensor** vars) {
      return ApplyGradientDescent(gpu, vars[0], ctx->input(1), ctx->input(2));
    });
  }
};

class ApplyMomentumGpuOp : public GpuApplyOp {
 public:
  ApplyMomentumGpuOp(const OpKernelConstruction& c,
                     std::unique_ptr<OpKernel> cpu)
      : GpuApplyOp(c, std::move(cpu),
                   ApplyRecipe(c, {"var", "accum"},
                               {{2, "lr"}, {4, "momentum"}}, 3, "grad")),
        use_nesterov_(c.GetAttr<bool>("use_nesterov").value()) {}
  Status ComputeOnGpu(OpKernelContext* ctx,
                      const GpuStreamContext& gpu) override {
    return RunOnGpu(ctx, gpu, [&](Tensor** vars) {
      return ApplyMomentum(gpu, vars[0], vars[1], ctx->input(2), ctx->input(3),
                           ctx->input(4), use_nesterov_);
    });
  }

 private:
  const bool use_nesterov_;
};

class ApplyAdamGpuOp : public GpuApplyOp {
 public:
  ApplyAdamGpuOp(const OpKernelConstruction& c, std::unique_ptr<OpKernel> cpu)
      : GpuApplyOp(c, std::move(cpu),
                   ApplyRecipe(c, {"var", "m", "v"},
                               {{3, "beta1_power"},
                                {4, "beta2_power"},
                                {5, "lr"},
                                {6, "beta1"},
                                {7, "beta2"},
                                {8, "epsilon"}},
                               9, "grad")),
        use_nesterov_(c.GetAttr<bool>("use_nesterov").value()) {}
  Status ComputeOnGpu(OpKernelContext* ctx,
                      const GpuStreamContext& gpu) override {
    return RunOnGpu(ctx, gpu, [&](Tensor** vars) {
      return ApplyAdam(gpu, vars[0], vars[1], vars[2], ctx->input(3),
                       ctx->input(4), ctx->input(5), ctx->input(6),
                       ctx->input(7), ctx->input(8), ctx->input(9),
                       use_nesterov_);
    });
  }

 private:
  const bool use_nesterov_;
};

class ApplyRMSPropGpuOp : public GpuApplyOp {
 public:
  ApplyRMSPropGpuOp(const OpKernelConstruction& c,
                    std::unique_ptr<OpKernel> cpu)
      : GpuApplyOp(c, std::move(cpu),
                   ApplyRecipe(
                       c, {"var", "ms", "mom"},
                       {{3, "lr"}, {4, "rho"}, {5, "momentum"}, {6, "epsilon"}},
                       7, "grad")) {}
  Status ComputeOnGpu(OpKernelContext* ctx,
                      const GpuStreamContext& gpu) override {
    return RunOnGpu(ctx, gpu, [&](Tensor** vars) {
      return ApplyRMSProp(gpu, vars[0], vars[1], vars[2], ctx->input(3),
                          ctx->input(4), ctx->input(5), ctx->input(6),
                          ctx->input(7));
    });
  }
};
// --8<-- [end:apply_kernels]

MINITF_REGISTER_GPU_KERNEL("ApplyGradientDescent", ApplyGradientDescentGpuOp,
                           kFloats);
MINITF_REGISTER_GPU_KERNEL("ApplyMomentum", ApplyMomentumGpuOp, kFloats);
MINITF_REGISTER_GPU_KERNEL("ApplyAdam", ApplyAdamGpuOp, kFloats);
MINITF_REGISTER_GPU_KERNEL("ApplyRMSProp", ApplyRMSPropGpuOp, kFloats);

}  // namespace
}  // namespace minitf::gpu
