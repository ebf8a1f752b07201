// Host memory on a GPU: the int32 tensors a GPU keeps on the host, and the
// CPU's kernels that a GPU runs there.
//
// A real GPU's memory is not the CPU's: the CPU cannot read a tensor there,
// and a kernel borrowed from the CPU (chapter 4's aliases) that tried would
// crash the process. Yet a graph placed on a GPU is full of small int32
// tensors the host needs to read: the shapes that Shape makes and Reshape
// reads, the axes of a reduction, the sizes of a gradient's Mean. TensorFlow
// keeps those in host memory (its HOST_MEMORY arguments; every int32 of a
// GPU is one), and so does this layer, on GPUs whose memory the CPU cannot
// read:
//   - an int32 that crosses into the GPU stays in host memory
//     (GpuDevice::KeepsInHostMemory; device_context.h routes the copy);
//   - a node whose inputs are all in host memory (int32, or none: a Const,
//     a random op's shape) runs the CPU's kernel on the host, and what it
//     makes that is not int32 is copied into the GPU (a Const once);
//   - the CPU kernels that read no data, only shapes, or move buffers
//     without reading them (Identity, Reshape, VariableV2, Assign, Shape...)
//     run as they are, their own outputs (Shape's) in host memory;
//   - any other CPU kernel is refused with Unimplemented, naming the op.
// On emulated and virtual GPUs, whose memory the CPU can read, none of this
// applies and every tensor of the GPU lives in its memory (chapter 4).
//
//   // GpuDevice::AdoptCpuKernel, for a GPU with memory of its own:
//   if (CpuKernelRunsWithDeviceMemory(node)) {
//     return AdoptCpuKernelForDeviceMemory(node, std::move(cpu_kernel), "GPU");
//   }
#pragma once

#include <memory>
#include <string>

#include "minitf/device/devices/device.h"
#include "minitf/graph/kernel.h"
#include "minitf/tensor/dtype.h"

namespace minitf::gpu {

// --8<-- [start:rules]
/// True for the dtypes a GPU whose memory the CPU cannot read keeps in host
/// memory: int32, as TensorFlow's MTypeFromDType says.
inline bool KeptInHostMemory(DType dtype) { return dtype == DT_INT32; }

/// True when the CPU's kernel for `node` can run on a GPU whose memory the
/// CPU cannot read, as AdoptCpuKernelForDeviceMemory makes it (see the top
/// of this file).
bool CpuKernelRunsWithDeviceMemory(const Node& node);

/// The CPU's kernel `cpu` for `node`, made fit for a GPU of `device_type`
/// whose memory the CPU cannot read. REQUIRES:
/// CpuKernelRunsWithDeviceMemory(node).
std::unique_ptr<OpKernel> AdoptCpuKernelForDeviceMemory(
    const Node& node, std::unique_ptr<OpKernel> cpu,
    const std::string& device_type);
// --8<-- [end:rules]

/// Runs `cpu`, a CPU kernel of a node whose inputs all lie in host memory,
/// on the host, and sets ctx's outputs: those of dtypes kept in host memory
/// as the kernel made them, the others copied into the GPU of ctx (its
/// allocator and its DeviceContext). For the kernels of the GPU layer that
/// meet an int32 node (chapter 5's kernels compute on the GPU's memory).
Status ComputeOnHost(OpKernel& cpu, OpKernelContext* ctx);

}  // namespace minitf::gpu
