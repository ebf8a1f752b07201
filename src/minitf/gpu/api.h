// The public API of layer 5 (GPU kernels), as included by <minitf/minitf.h>.
//
// Kernels are written once in CUDA C++ and compile with nvcc for a GPU and
// with the host compiler against the CPU emulator of CUDA
// (minitf/gpu/emulator/), which runs a grid's blocks on host threads and a
// block's threads as fibers, with __syncthreads, shared memory, atomics,
// warp primitives and the runtime API, and reports misuse as
// compute-sanitizer does. Kernel sources include minitf/gpu/emulator/cuda.h
// themselves: it defines CUDA's keywords (threadIdx, __shared__, ...) as
// macros, which have no place in every program that includes
// <minitf/minitf.h>. The engine's GPU kernels (kernels/device/*.cuh) sit behind
// GpuKernels (kernels/backend.h), run by the emulator or, in the layer library
// where nvcc is found, by a GPU with cuBLAS; tensor_ops.h applies them to
// tensors. The GPU device (gpu_device.h) runs them for the graph's ops, on a
// real GPU or on an emulated one (MINITF_EMULATE_GPU_KERNELS=1), with
// TensorFlow's BFC allocator of a GPU's memory (bfc_allocator.h,
// gpu_allocator.h); linking the layer makes every virtual GPU allocate
// through it, as GPU_<n>_bfc.
//
//   // kernels.cuh, compiled by nvcc or by the host compiler:
//   #include "minitf/gpu/emulator/cuda.h"
//   __global__ void scale(float* x, float a, int n) {
//     int i = blockIdx.x * blockDim.x + threadIdx.x;
//     if (i < n) x[i] *= a; }
#pragma once

#include "minitf/gpu/bfc_allocator.h"
#include "minitf/gpu/gpu_allocator.h"
#include "minitf/gpu/gpu_device.h"
#include "minitf/gpu/kernels/backend.h"
#include "minitf/gpu/sub_allocator.h"
#include "minitf/gpu/tensor_ops.h"
