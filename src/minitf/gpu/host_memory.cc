#include "minitf/gpu/host_memory.h"

#include <algorithm>
#include <mutex>
#include <string_view>
#include <utility>
#include <vector>

#include "minitf/device/devices/device_context.h"

namespace minitf::gpu {
namespace {

// The ops whose CPU kernel reads no input's data and makes no tensor: it
// passes a buffer on (Identity, Reshape), keeps one (VariableV2, Assign) or
// does nothing. Their index inputs (Reshape's shape) are int32, on the host.
constexpr std::string_view kBufferOnlyOps[] = {
    "Identity", "Reshape",     "ExpandDims", "StopGradient",
    "NoOp",     "Placeholder", "VariableV2", "Assign",
};

// The ops whose CPU kernel reads only its inputs' shapes (or a variable's
// state) and makes small outputs, which stay in host memory.
constexpr std::string_view kShapeOnlyOps[] = {
    "Shape",
    "Size",
    "Rank",
    "IsVariableInitialized",
};

template <size_t N>
bool OneOf(const std::string_view (&ops)[N], std::string_view op) {
  return std::find(std::begin(ops), std::end(ops), op) != std::end(ops);
}

// Runs `cpu` with host memory as every allocation's, its outputs into
// `outputs`: what a CPU kernel needs on a GPU. `reads_inputs`: the kernel
// reads its inputs' data, which must then lie in host memory.
Status RunOnHost(OpKernel& cpu, OpKernelContext* ctx, bool reads_inputs,
                 std::vector<Tensor>* outputs) {
  std::vector<const Tensor*> inputs;
  for (int i = 0; i < ctx->num_inputs(); ++i) {
    const Tensor& in = ctx->input(i);
    // A kernel of this layer that left an int32 in the GPU's memory; the
    // CPU would crash reading it.
    if (reads_inputs && in.IsInitialized() &&
        !in.allocator()->HostAccessible()) {
      return errors::Internal("Input ", i, " of ", cpu.type_string(), " (node ",
                              cpu.name(), "), of type ", in.dtype(),
                              ", lies in the GPU's memory, where the CPU "
                              "cannot read it");
    }
    inputs.push_back(&in);
  }
  outputs->assign(ctx->num_outputs(), Tensor());
  OpKernelContext::Params params;
  params.inputs = inputs.data();
  params.num_inputs = static_cast<int>(inputs.size());
  params.outputs = outputs->data();
  params.num_outputs = static_cast<int>(outputs->size());
  params.allocator = cpu_allocator();
  params.resource_manager = ctx->resource_manager();
  params.step_id = ctx->step_id();
  params.step_extension = ctx->step_extension();
  ScopedDefaultAllocator host(cpu_allocator());
  OpKernelContext host_ctx(params);
  return cpu.Compute(&host_ctx);
}

// A CPU kernel whose outputs it makes in host memory, where it reads them.
class ShapeOnlyKernel final : public OpKernel {
 public:
  ShapeOnlyKernel(const OpKernelConstruction& c, std::unique_ptr<OpKernel> cpu)
      : OpKernel(c), cpu_(std::move(cpu)) {}
  Status Compute(OpKernelContext* ctx) override {
    std::vector<Tensor> outputs;
    TF_RETURN_IF_ERROR(RunOnHost(*cpu_, ctx, /*reads_inputs=*/false, &outputs));
    for (size_t i = 0; i < outputs.size(); ++i) {
      ctx->set_output(static_cast<int>(i), std::move(outputs[i]));
    }
    return Status::OK();
  }

 private:
  const std::unique_ptr<OpKernel> cpu_;
};

// The outputs of `cpu`, run on the host: those of dtypes kept in host
// memory as the kernel made them, the others copied into the GPU of ctx.
StatusOr<std::vector<Tensor>> MakeOnHost(OpKernel& cpu, OpKernelContext* ctx) {
  std::vector<Tensor> outputs;
  TF_RETURN_IF_ERROR(RunOnHost(cpu, ctx, /*reads_inputs=*/true, &outputs));
  auto* context = dynamic_cast<DeviceContext*>(ctx->op_device_context());
  for (Tensor& made : outputs) {
    if (!made.IsInitialized() || KeptInHostMemory(made.dtype())) continue;
    if (context == nullptr) {
      return errors::Internal(cpu.name(), " runs on a GPU without a context");
    }
    TF_ASSIGN_OR_RETURN(
        Tensor on_gpu,
        Tensor::Allocate(made.dtype(), made.shape(), ctx->allocator()));
    Status copied;
    context->CopyCPUTensorToDevice(&made, nullptr, &on_gpu,
                                   [&copied](const Status& s) { copied = s; });
    TF_RETURN_IF_ERROR(copied);
    made = std::move(on_gpu);
  }
  return outputs;
}

void SetOutputs(const std::vector<Tensor>& outputs, OpKernelContext* ctx) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    ctx->set_output(static_cast<int>(i), outputs[i]);
  }
}

// A CPU kernel whose inputs all lie in host memory: it runs on the host and
// its outputs are copied into the GPU. A Const's value never changes, so
// its copy is made once and kept.
class HostComputeKernel final : public OpKernel {
 public:
  HostComputeKernel(const OpKernelConstruction& c,
                    std::unique_ptr<OpKernel> cpu)
      : OpKernel(c),
        cpu_(std::move(cpu)),
        constant_(c.node().type_string() == "Const") {}
  Status Compute(OpKernelContext* ctx) override {
    if (!constant_) return ComputeOnHost(*cpu_, ctx);
    std::lock_guard<std::mutex> lock(mu_);
    if (value_.empty()) {
      TF_ASSIGN_OR_RETURN(value_, MakeOnHost(*cpu_, ctx));
    }
    SetOutputs(value_, ctx);
    return Status::OK();
  }

 private:
  const std::unique_ptr<OpKernel> cpu_;
  const bool constant_;
  std::mutex mu_;
  std::vector<Tensor> value_;  // a Const's output, once made; guarded by mu_
};

}  // namespace

Status ComputeOnHost(OpKernel& cpu, OpKernelContext* ctx) {
  TF_ASSIGN_OR_RETURN(std::vector<Tensor> outputs, MakeOnHost(cpu, ctx));
  SetOutputs(outputs, ctx);
  return Status::OK();
}

bool CpuKernelRunsWithDeviceMemory(const Node& node) {
  const std::string_view op = node.type_string();
  if (OneOf(kBufferOnlyOps, op) || OneOf(kShapeOnlyOps, op)) return true;
  for (int i = 0; i < node.num_inputs(); ++i) {
    if (!KeptInHostMemory(node.input_type(i))) return false;
  }
  return true;
}

std::unique_ptr<OpKernel> AdoptCpuKernelForDeviceMemory(
    const Node& node, std::unique_ptr<OpKernel> cpu,
    const std::string& device_type) {
  const std::string_view op = node.type_string();
  if (OneOf(kBufferOnlyOps, op)) return cpu;
  OpKernelConstruction construction(&node, device_type);
  if (OneOf(kShapeOnlyOps, op)) {
    return std::make_unique<ShapeOnlyKernel>(construction, std::move(cpu));
  }
  return std::make_unique<HostComputeKernel>(construction, std::move(cpu));
}

}  // namespace minitf::gpu
