// The one header a kernel source includes: CUDA C++ written once, compiled
// by nvcc for a real GPU or by the host compiler against the CPU emulator.
// Under nvcc (__CUDACC__) it is <cuda_runtime.h> plus two spellings that both
// compilers accept: MINITF_LAUNCH, which nvcc turns into `<<<...>>>`, and
// MINITF_DYNAMIC_SHARED, which declares the block's `extern __shared__`
// memory. (The host compiler cannot take `extern __shared__ float s[];` as
// it is: an extern array needs a definition somewhere, and no macro placed
// before the type can give it one.) Under the host compiler it is the
// emulator: CUDA's keywords, built-ins and runtime API (device_functions.h,
// runtime_api.h).
//
//   #include "minitf/gpu/emulator/cuda.h"
//   __global__ void scale(float* x, float a, int n) {
//     int i = blockIdx.x * blockDim.x + threadIdx.x;
//     if (i < n) x[i] *= a; }
//   MINITF_LAUNCH(scale, (n + 255) / 256, 256, 0, 0, d_x, 2.f, n);
//
// One program may hold the same kernel source twice: compiled by the host
// compiler for the emulator and by nvcc for the GPU. Two definitions of one
// C++ name that differ would break the one-definition rule, so engine kernels
// live in namespace minitf::gpu::MINITF_GPU_BACKEND, which is
// minitf::gpu::cuda under nvcc and minitf::gpu::emulated here. (The runtime
// functions do not clash: libcudart's are extern "C", the emulator's are C++
// names, mangled with their parameter types.) For the same reason engine
// code calls cudaMalloc(void**, size_t), never the template overload
// cudaMalloc<T>, which both runtimes define inline.
#pragma once

/// MINITF_KERNEL_NAME(k<float, 16>): a template kernel's name with its
/// commas, as one macro argument.
#define MINITF_KERNEL_NAME(...) __VA_ARGS__

#if defined(__CUDACC__)

#include <cuda_runtime.h>

/// The namespace of this compilation's kernels: minitf::gpu::cuda.
#define MINITF_GPU_BACKEND cuda

#define MINITF_LAUNCH(kernel, grid, block, shared_bytes, stream, ...) \
  kernel<<<(grid), (block), (shared_bytes), (stream)>>>(__VA_ARGS__)
#define MINITF_DYNAMIC_SHARED(type, name)                         \
  extern __shared__ __align__(16) unsigned char minitf_shared_[]; \
  type* name = reinterpret_cast<type*>(minitf_shared_)

#else

/// The namespace of this compilation's kernels: minitf::gpu::emulated.
#define MINITF_GPU_BACKEND emulated

#include "minitf/gpu/emulator/device_functions.h"
#include "minitf/gpu/emulator/launch.h"
#include "minitf/gpu/emulator/runtime_api.h"

#define MINITF_LAUNCH(kernel, grid, block, shared_bytes, stream, ...) \
  ::minitf::gpu::emulator::launch<kernel>(                            \
      #kernel, (grid), (block), (shared_bytes), stream,               \
      MINITF_EMULATOR_SERIAL_BLOCKS __VA_OPT__(, ) __VA_ARGS__)
#define MINITF_DYNAMIC_SHARED(type, name) \
  type* name = ::minitf::gpu::emulator::dynamic_shared<type>()

#endif
