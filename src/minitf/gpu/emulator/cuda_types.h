// The CUDA runtime's types, as the emulator spells them: dim3 and uint3 for
// grid, block and thread coordinates, float4 for vectorised loads, cudaError_t
// with CUDA's numbers, cudaMemcpyKind, cudaDeviceProp (the fields the course
// reads) and the opaque stream and event handles. Names and numbers are CUDA's
// own (driver_types.h, vector_types.h of CUDA 13), so a kernel or host program
// written against <cuda_runtime.h> compiles against these unchanged.
//
//   dim3 block(16, 16);                          // z defaults to 1
//   dim3 grid((n + 15) / 16, (m + 15) / 16);
//   cudaError_t err = cudaGetLastError();
//   if (err != cudaSuccess) std::puts(cudaGetErrorName(err));
//   cudaStream_t stream;  cudaStreamCreate(&stream);
#pragma once

#include <cstddef>

/// Three unsigned coordinates: threadIdx and blockIdx are uint3.
struct uint3 {
  unsigned int x, y, z;
};

/// Four floats in 16 aligned bytes: a kernel moves one with a single
/// 128-bit load or store (vector_types.h's float4).
struct alignas(16) float4 {
  float x, y, z, w;
};
inline constexpr float4 make_float4(float x, float y, float z, float w) {
  return {x, y, z, w};
}

/// A grid's or a block's extent; unspecified dimensions are 1, as in CUDA.
struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return {x, y, z}; }
};

/// CUDA's error codes, with CUDA's numbers (driver_types.h). Only the codes
/// the emulator returns are listed. The underlying type is fixed to int so
/// that every int is a value of the type, as cudaGetErrorString accepts any
/// code a program hands it ("unrecognized error code"): without it, a code
/// beyond the listed ones would be out of the enum's range, which UBSan
/// reports.
enum cudaError_t : int {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInsufficientDriver = 35,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorLaunchFailure = 719,
  cudaErrorUnknown = 999,
};
typedef cudaError_t cudaError;

/// The direction of a copy (cudaMemcpy). Host and emulated device share one
/// address space, so every direction is a memcpy; the kind is still checked.
enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};

/// The flags of cudaStreamCreateWithFlags and cudaEventCreateWithFlags,
/// with CUDA's values (driver_types.h defines them as macros too).
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventDisableTiming 0x02

/// What cudaGetDeviceProperties reports: CUDA's field names, a subset.
struct cudaDeviceProp {
  char name[256];
  std::size_t totalGlobalMem;
  std::size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  std::size_t totalConstMem;
  int major;
  int minor;
  int multiProcessorCount;
  int maxThreadsPerMultiProcessor;
  std::size_t sharedMemPerMultiprocessor;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
};

namespace minitf::gpu::emulator {
class Stream;
class Event;
}  // namespace minitf::gpu::emulator

/// A stream: work on it runs in order, apart from other streams' work.
/// 0 (nullptr) is the default stream.
typedef minitf::gpu::emulator::Stream* cudaStream_t;
/// A marker in a stream: done once the work before it is.
typedef minitf::gpu::emulator::Event* cudaEvent_t;
