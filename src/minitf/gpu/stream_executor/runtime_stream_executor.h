// RuntimeStreamExecutor: a StreamExecutor (stream_executor.h) written once
// against CUDA's runtime API, and compiled twice.
//
// A StreamExecutor's every call is one call of CUDA's runtime: cudaMalloc,
// cudaStreamCreateWithFlags, cudaEventRecord, cudaMemcpyAsync. The CPU
// emulator of CUDA answers the same calls under the same names
// (emulator/runtime_api.h), so one source serves both, as the kernels'
// does (kernels/backend_impl.cuh): emulated_stream_executor.cc includes it
// after the emulator's cuda.h, cuda_stream_executor.cc after
// <cuda_runtime.h>. The two differ only in what the constructor is given:
// the GPU's ordinal, the platform's name, its kernels, and whether the CPU
// can read its memory.
//
// The including file first declares CUDA's runtime (either one) and
// defines MINITF_GPU_BACKEND (emulated or cuda), the namespace that keeps
// the two compilations' classes apart in one program.
//
//   #include "minitf/gpu/emulator/cuda.h"   // or <cuda_runtime.h>
//   #include "minitf/gpu/stream_executor/runtime_stream_executor.h"
//   auto se = std::make_unique<RuntimeStreamExecutor>(
//       0, "CPU emulator of CUDA", EmulatedGpuKernels(), true);
#pragma once

#include <string>
#include <utility>

#include "minitf/gpu/kernels/backend.h"
#include "minitf/gpu/stream_executor/stream_executor.h"

#ifndef MINITF_GPU_BACKEND
#error "define MINITF_GPU_BACKEND and declare CUDA's runtime first"
#endif

namespace minitf::gpu::MINITF_GPU_BACKEND {

/// One GPU through the runtime this file was compiled with. Every call
/// first makes the GPU the calling thread's current device, since the
/// runtime's current device is per host thread and the executor's threads
/// serve all of a session's devices.
class RuntimeStreamExecutor final : public StreamExecutor {
 public:
  /// REQUIRES: 0 <= ordinal < the runtime's device count; `kernels` lives
  /// as long as the program.
  RuntimeStreamExecutor(int ordinal, std::string platform_name,
                        const GpuKernels& kernels, bool host_accessible)
      : ordinal_(ordinal),
        platform_name_(std::move(platform_name)),
        kernels_(kernels),
        host_accessible_(host_accessible) {}

  std::string platform_name() const override { return platform_name_; }

  StatusOr<GpuDescription> Describe() const override {
    TF_RETURN_IF_ERROR(Activate());
    cudaDeviceProp prop;
    TF_RETURN_IF_ERROR(Check(cudaGetDeviceProperties(&prop, ordinal_),
                             "cudaGetDeviceProperties"));
    size_t free = 0, total = 0;
    TF_RETURN_IF_ERROR(Check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo"));
    char bus_id[32] = {0};
    TF_RETURN_IF_ERROR(
        Check(cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, ordinal_),
              "cudaDeviceGetPCIBusId"));
    GpuDescription d;
    d.name = prop.name;
    // TensorFlow prints the bus id in lower case: "0000:01:00.0".
    for (char* c = bus_id; *c != '\0'; ++c) {
      if (*c >= 'A' && *c <= 'F') *c = static_cast<char>(*c - 'A' + 'a');
    }
    d.pci_bus_id = bus_id;
    d.compute_capability_major = prop.major;
    d.compute_capability_minor = prop.minor;
    d.total_memory = static_cast<int64_t>(total);
    d.free_memory = static_cast<int64_t>(free);
    return d;
  }

  const GpuKernels& kernels() const override { return kernels_; }

  void* AllocateDeviceMemory(size_t bytes) override {
    void* ptr = nullptr;
    if (!Activate().ok() || cudaMalloc(&ptr, bytes) != cudaSuccess) {
      cudaGetLastError();  // an out-of-memory is the BFC allocator's to say
      return nullptr;
    }
    return ptr;
  }
  void FreeDeviceMemory(void* ptr) override {
    if (Activate().ok()) cudaFree(ptr);
  }
  bool HostAccessible() const override { return host_accessible_; }

  StatusOr<GpuStream> CreateStream() override {
    TF_RETURN_IF_ERROR(Activate());
    cudaStream_t stream = nullptr;
    TF_RETURN_IF_ERROR(
        Check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking),
              "cudaStreamCreate"));
    return static_cast<GpuStream>(stream);
  }
  void DestroyStream(GpuStream stream) override {
    if (Activate().ok()) cudaStreamDestroy(AsStream(stream));
  }
  StatusOr<GpuEvent> CreateEvent() override {
    TF_RETURN_IF_ERROR(Activate());
    cudaEvent_t event = nullptr;
    TF_RETURN_IF_ERROR(
        Check(cudaEventCreateWithFlags(&event, cudaEventDisableTiming),
              "cudaEventCreate"));
    return static_cast<GpuEvent>(event);
  }
  void DestroyEvent(GpuEvent event) override {
    if (Activate().ok()) cudaEventDestroy(AsEvent(event));
  }
  Status RecordEvent(GpuEvent event, GpuStream stream) override {
    TF_RETURN_IF_ERROR(Activate());
    return Check(cudaEventRecord(AsEvent(event), AsStream(stream)),
                 "cudaEventRecord");
  }
  Status WaitForEvent(GpuStream stream, GpuEvent event) override {
    TF_RETURN_IF_ERROR(Activate());
    return Check(cudaStreamWaitEvent(AsStream(stream), AsEvent(event), 0),
                 "cudaStreamWaitEvent");
  }
  Status SynchronizeStream(GpuStream stream) override {
    TF_RETURN_IF_ERROR(Activate());
    return Check(cudaStreamSynchronize(AsStream(stream)),
                 "cudaStreamSynchronize");
  }
  Status MemcpyHostToDevice(void* dst, const void* src, size_t bytes,
                            GpuStream stream) override {
    return Copy(dst, src, bytes, cudaMemcpyHostToDevice, stream);
  }
  Status MemcpyDeviceToHost(void* dst, const void* src, size_t bytes,
                            GpuStream stream) override {
    return Copy(dst, src, bytes, cudaMemcpyDeviceToHost, stream);
  }
  Status MemcpyDeviceToDevice(void* dst, const void* src, size_t bytes,
                              GpuStream stream) override {
    return Copy(dst, src, bytes, cudaMemcpyDeviceToDevice, stream);
  }

 private:
  static Status Check(cudaError_t error, const char* call) {
    if (error == cudaSuccess) return Status::OK();
    return errors::Internal(call, " failed: ", cudaGetErrorName(error), ": ",
                            cudaGetErrorString(error));
  }
  static cudaStream_t AsStream(GpuStream stream) {
    return static_cast<cudaStream_t>(stream);
  }
  static cudaEvent_t AsEvent(GpuEvent event) {
    return static_cast<cudaEvent_t>(event);
  }
  Status Activate() const {
    return Check(cudaSetDevice(ordinal_), "cudaSetDevice");
  }
  Status Copy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind,
              GpuStream stream) {
    TF_RETURN_IF_ERROR(Activate());
    return Check(cudaMemcpyAsync(dst, src, bytes, kind, AsStream(stream)),
                 "cudaMemcpyAsync");
  }

  const int ordinal_;
  const std::string platform_name_;
  const GpuKernels& kernels_;
  const bool host_accessible_;
};

}  // namespace minitf::gpu::MINITF_GPU_BACKEND
