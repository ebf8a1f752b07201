// The CUDA runtime API, emulated: device memory, copies, streams, events,
// the device's properties and errors, with CUDA's names, signatures and error
// codes, so that host code written for <cuda_runtime.h> runs unchanged. The
// emulated device is one GPU whose memory is the host's: cudaMalloc is an
// exact-size heap allocation (AddressSanitizer guards its ends), and every
// copy is a memcpy. Work on a stream runs in order on a host thread of its
// own; the default stream (0) runs work on the calling thread, after every
// other stream has drained (CUDA's legacy default stream).
//
//   float* d;  cudaMalloc(&d, n * sizeof(float));
//   cudaMemcpy(d, host, n * sizeof(float), cudaMemcpyHostToDevice);
//   MINITF_LAUNCH(scale, n / 256, 256, 0, 0, d, 2.f, n);
//   if (cudaGetLastError() != cudaSuccess) { /* bad launch configuration */ }
//   cudaMemcpy(host, d, n * sizeof(float), cudaMemcpyDeviceToHost);
#pragma once

#include <cstddef>
#include <memory>

#include "minitf/gpu/emulator/block_runner.h"
#include "minitf/gpu/emulator/cuda_types.h"

// --- errors ---------------------------------------------------------------
/// Returns the last error of a runtime call on this host thread (or of a
/// kernel that failed since), and resets it to cudaSuccess.
cudaError_t cudaGetLastError();
/// As cudaGetLastError, without the reset.
cudaError_t cudaPeekAtLastError();
/// "cudaErrorInvalidConfiguration"; "unrecognized error code" if unknown.
const char* cudaGetErrorName(cudaError_t error);
/// "invalid configuration argument": libcudart's text for each code.
const char* cudaGetErrorString(cudaError_t error);

// --- the device -------------------------------------------------------------
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
/// "emulated": the emulated device sits on no PCI bus. Truncated to
/// `len` - 1 characters, as CUDA's.
cudaError_t cudaDeviceGetPCIBusId(char* pci_bus_id, int len, int device);
/// Waits for every stream; returns a kernel's failure since the last sync.
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaMemGetInfo(std::size_t* free, std::size_t* total);

// --- memory -----------------------------------------------------------------
cudaError_t cudaMalloc(void** ptr, std::size_t bytes);
template <class T>
cudaError_t cudaMalloc(T** ptr, std::size_t bytes) {
  return cudaMalloc(reinterpret_cast<void**>(ptr), bytes);
}
/// REQUIRES: ptr is nullptr or from cudaMalloc (else cudaErrorInvalidValue).
cudaError_t cudaFree(void* ptr);
cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes,
                       cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes,
                            cudaMemcpyKind kind, cudaStream_t stream = nullptr);
cudaError_t cudaMemset(void* ptr, int value, std::size_t bytes);
cudaError_t cudaMemsetAsync(void* ptr, int value, std::size_t bytes,
                            cudaStream_t stream = nullptr);

// --- streams and events -----------------------------------------------------
cudaError_t cudaStreamCreate(cudaStream_t* stream);
/// cudaStreamCreate; the flags (cudaStreamNonBlocking) are taken and
/// ignored, so the emulated default stream still waits for such a stream.
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags);
/// Waits for the stream's work, then frees it.
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
/// cudaSuccess if the stream's work is done, else cudaErrorNotReady.
cudaError_t cudaStreamQuery(cudaStream_t stream);
/// Work queued on `stream` after this waits until `event` has happened.
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                unsigned int flags = 0);
cudaError_t cudaEventCreate(cudaEvent_t* event);
/// cudaEventCreate; the flags (cudaEventDisableTiming) are taken and
/// ignored: every emulated event keeps its time.
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
/// Milliseconds between two recorded events, host clock.
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);

namespace minitf::gpu::emulator {

/// Checks a launch's configuration against the device's limits and queues
/// it on `stream`; a bad one becomes the thread's last error
/// (cudaErrorInvalidConfiguration), as a `<<<...>>>` launch's does. `thunk`
/// owns launch.thunk until the kernel has run. Called by launch.h.
void launch_kernel(KernelLaunch launch, std::shared_ptr<void> thunk,
                   cudaStream_t stream);

/// How many kernels have been launched with a valid configuration in this
/// process: what a test reads to see that an op ran as CUDA kernels.
long long launched_kernel_count();

}  // namespace minitf::gpu::emulator
