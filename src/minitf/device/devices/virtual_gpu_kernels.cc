// The kernels a virtual GPU runs: the CPU's, for the ops TensorFlow 1.x has
// GPU kernels for.
//
// A virtual GPU has no kernels of its own; it borrows the CPU kernels through
// aliases in the kernel registry (kernel.h), which a kernel registered
// directly for "GPU" (chapter 5) takes precedence over. Only the ops that
// TensorFlow can run on a GPU get an alias, so that the placer meets the
// same choices on a virtual GPU as on a real one: the summary ops, which
// TensorFlow runs on the CPU only, stay without one, and MatMul is limited
// to the dtypes TensorFlow's GPU MatMul takes. Ops TensorFlow registers on
// the GPU for int32 with their tensors in host memory (Add, Shape, Fill ...)
// are aliased for every dtype, since they have a GPU kernel too.
//
// A virtual GPU keeps those int32 tensors (shapes, sizes, reduction
// indices) in its own memory, where the CPU kernels make and count them like
// every other output of a kernel placed there (Device::kernel_allocator),
// and they reach the CPU by copies. TensorFlow keeps them in host memory,
// outside the GPU's limit, and so does chapter 5 on a GPU whose memory the
// CPU cannot read (Device::KeepsInHostMemory). On a virtual GPU the
// difference is a few bytes per tensor, and it keeps one rule: a tensor
// lives on the device of the node that made it.

#include "minitf/graph/kernel.h"

namespace minitf {
namespace {

constexpr const char* kOpsWithGpuKernels[] = {
    // Constants, placeholders and plumbing.
    "Const",
    "Placeholder",
    "Identity",
    "NoOp",
    "Shape",
    "Size",
    "Rank",
    "Reshape",
    "Fill",
    "ZerosLike",
    "OnesLike",
    "Pack",
    "ConcatV2",
    "Slice",
    "Transpose",
    "Cast",
    "OneHot",
    "Pad",
    "StopGradient",
    "BroadcastGradientArgs",
    "Tile",
    "BroadcastTo",
    "ExpandDims",
    "GatherV2",
    "Range",
    "DynamicStitch",
    // Elementwise arithmetic and comparisons.
    "Abs",
    "Add",
    "AddV2",
    "AddN",
    "Sub",
    "Mul",
    "Div",
    "RealDiv",
    "Neg",
    "Sign",
    "Square",
    "Sqrt",
    "Reciprocal",
    "FloorMod",
    "Exp",
    "Log",
    "Maximum",
    "Minimum",
    "Equal",
    "NotEqual",
    "Less",
    "LessEqual",
    "Greater",
    "GreaterEqual",
    "LogicalAnd",
    "LogicalOr",
    "LogicalNot",
    // Reductions.
    "Sum",
    "Mean",
    "Prod",
    "Max",
    "Min",
    "ArgMax",
    "ArgMin",
    // Neural-network ops.
    "BiasAdd",
    "Relu",
    "ReluGrad",
    "Sigmoid",
    "Tanh",
    "Softmax",
    "LogSoftmax",
    "SoftmaxCrossEntropyWithLogits",
    "SparseSoftmaxCrossEntropyWithLogits",
    // Random numbers.
    "RandomUniform",
    "RandomUniformInt",
    "RandomStandardNormal",
    "TruncatedNormal",
    // Variables and their updates (layer 3).
    "VariableV2",
    "Assign",
    "AssignAdd",
    "AssignSub",
    "IsVariableInitialized",
    "ApplyGradientDescent",
    "ApplyMomentum",
    "ApplyAdam",
    "ApplyRMSProp",
};

[[maybe_unused]] const bool kAliasesRegistered = [] {
  for (const char* op : kOpsWithGpuKernels) {
    internal::KernelAliasRegistration(op, DEVICE_GPU, DEVICE_CPU);
  }
  return true;
}();

// TensorFlow's GPU MatMul takes floating-point types only (cuBLAS has no
// integer GEMM it uses), so an int32 MatMul has no GPU kernel.
MINITF_REGISTER_KERNEL_ALIAS("MatMul", DEVICE_GPU, DEVICE_CPU,
                             {DT_FLOAT, DT_DOUBLE});

}  // namespace
}  // namespace minitf
