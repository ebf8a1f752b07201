// StreamExecutor: what a GPU device asks of the GPU it drives.
//
// TensorFlow reaches a GPU through StreamExecutor, a thin layer over the
// CUDA driver: device memory, streams (queues of work the GPU runs in
// order), events (marks in a stream that another stream, or the host, can
// wait for) and copies between host and device memory. A GpuDevice
// (gpu_device.h) holds one StreamExecutor and never calls CUDA itself, so the
// same device code drives a real GPU (cuda_stream_executor.h, built where
// CMake finds the CUDA toolkit) and the CPU emulator of CUDA
// (NewEmulatedStreamExecutor below), which is how every machine runs this
// chapter's GPU code path. Both are one source over CUDA's runtime API,
// compiled twice (runtime_stream_executor.h).
//
// Streams and events are the backend's cudaStream_t and cudaEvent_t, passed
// around as opaque handles, since the emulator's types are not CUDA's.
//
//   std::unique_ptr<tf::gpu::StreamExecutor> se =
//   tf::gpu::NewEmulatedStreamExecutor(); tf::gpu::GpuStream copies =
//   se->CreateStream().value(); se->MemcpyHostToDevice(d_x, x, bytes, copies);
//   tf::gpu::GpuEvent copied = se->CreateEvent().value();
//   se->RecordEvent(copied, copies);
//   se->WaitForEvent(compute, copied);   // kernels on `compute` see d_x
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "minitf/gpu/kernels/backend.h"
#include "minitf/tensor/status.h"

namespace minitf::gpu {

/// An event of the backend (its cudaEvent_t), opaque to host code.
using GpuEvent = void*;

/// What a GPU reports of itself (cudaDeviceProp, the fields TensorFlow
/// prints).
struct GpuDescription {
  std::string name;        ///< "NVIDIA H100 80GB HBM3"
  std::string pci_bus_id;  ///< "0000:01:00.0"
  int compute_capability_major = 0;
  int compute_capability_minor = 0;
  int64_t total_memory = 0;  ///< Bytes.
  int64_t free_memory = 0;   ///< Bytes free when asked.
};

/// One GPU, through one backend. Every call acts on that GPU (a backend
/// with several makes it the calling thread's current device first).
/// Errors are Internal, with the backend's error name and text.
///
/// Thread safety: every method may be called from any thread.
class StreamExecutor {
 public:
  virtual ~StreamExecutor() = default;

  /// "CUDA" or "CPU emulator of CUDA".
  virtual std::string platform_name() const = 0;
  virtual StatusOr<GpuDescription> Describe() const = 0;
  /// The kernels of this backend, to queue on its streams.
  virtual const GpuKernels& kernels() const = 0;

  /// Device memory, for the BFC allocator's sub-allocator; nullptr when the
  /// GPU has no room.
  virtual void* AllocateDeviceMemory(size_t bytes) = 0;
  virtual void FreeDeviceMemory(void* ptr) = 0;
  /// True when the CPU can read the device's memory (the emulator's).
  virtual bool HostAccessible() const = 0;

  virtual StatusOr<GpuStream> CreateStream() = 0;
  virtual void DestroyStream(GpuStream stream) = 0;
  virtual StatusOr<GpuEvent> CreateEvent() = 0;
  virtual void DestroyEvent(GpuEvent event) = 0;
  /// Marks the point `stream` has reached with `event`.
  virtual Status RecordEvent(GpuEvent event, GpuStream stream) = 0;
  /// Work queued on `stream` from now on waits until `event` has happened.
  virtual Status WaitForEvent(GpuStream stream, GpuEvent event) = 0;
  /// Blocks the caller until `stream`'s work is done; returns the first
  /// error of that work (a kernel's failure).
  virtual Status SynchronizeStream(GpuStream stream) = 0;

  /// Copies queued on `stream`. The host memory must stay valid until the
  /// stream has run them.
  virtual Status MemcpyHostToDevice(void* device_dst, const void* host_src,
                                    size_t bytes, GpuStream stream) = 0;
  virtual Status MemcpyDeviceToHost(void* host_dst, const void* device_src,
                                    size_t bytes, GpuStream stream) = 0;
  virtual Status MemcpyDeviceToDevice(void* dst, const void* src, size_t bytes,
                                      GpuStream stream) = 0;
};

/// The emulator's one GPU. Its memory is the host's.
std::unique_ptr<StreamExecutor> NewEmulatedStreamExecutor();

}  // namespace minitf::gpu
