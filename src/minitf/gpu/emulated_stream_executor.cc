// The StreamExecutor of the CPU emulator of CUDA: each call is the CUDA
// runtime call a real GPU's StreamExecutor makes, answered by the emulator
// (emulator/runtime_api.h), whose streams run their work in order on host
// threads of their own.

#include "minitf/gpu/emulator/cuda.h"
#include "minitf/gpu/stream_executor.h"

namespace minitf::gpu {
namespace {

Status FromCuda(cudaError_t error, const char* call) {
  if (error == cudaSuccess) return Status::OK();
  return errors::Internal(call, " failed: ", cudaGetErrorName(error), ": ",
                          cudaGetErrorString(error));
}

cudaStream_t AsStream(GpuStream stream) {
  return static_cast<cudaStream_t>(stream);
}

class EmulatedStreamExecutor final : public StreamExecutor {
 public:
  std::string platform_name() const override { return "CPU emulator of CUDA"; }

  StatusOr<GpuDescription> Describe() const override {
    cudaDeviceProp prop;
    TF_RETURN_IF_ERROR(
        FromCuda(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties"));
    size_t free = 0, total = 0;
    TF_RETURN_IF_ERROR(
        FromCuda(cudaMemGetInfo(&free, &total), "cudaMemGetInfo"));
    GpuDescription d;
    d.name = prop.name;
    d.pci_bus_id = "emulated";
    d.compute_capability_major = prop.major;
    d.compute_capability_minor = prop.minor;
    d.total_memory = static_cast<int64_t>(total);
    d.free_memory = static_cast<int64_t>(free);
    return d;
  }

  const GpuKernels& kernels() const override { return EmulatedGpuKernels(); }

  void* AllocateDeviceMemory(size_t bytes) override {
    void* ptr = nullptr;
    return cudaMalloc(&ptr, bytes) == cudaSuccess ? ptr : nullptr;
  }
  void FreeDeviceMemory(void* ptr) override { cudaFree(ptr); }
  bool HostAccessible() const override { return true; }

  StatusOr<GpuStream> CreateStream() override {
    cudaStream_t stream = nullptr;
    TF_RETURN_IF_ERROR(FromCuda(cudaStreamCreate(&stream), "cudaStreamCreate"));
    return static_cast<GpuStream>(stream);
  }
  void DestroyStream(GpuStream stream) override {
    cudaStreamDestroy(AsStream(stream));
  }
  StatusOr<GpuEvent> CreateEvent() override {
    cudaEvent_t event = nullptr;
    TF_RETURN_IF_ERROR(FromCuda(cudaEventCreate(&event), "cudaEventCreate"));
    return static_cast<GpuEvent>(event);
  }
  void DestroyEvent(GpuEvent event) override {
    cudaEventDestroy(static_cast<cudaEvent_t>(event));
  }
  Status RecordEvent(GpuEvent event, GpuStream stream) override {
    return FromCuda(
        cudaEventRecord(static_cast<cudaEvent_t>(event), AsStream(stream)),
        "cudaEventRecord");
  }
  Status WaitForEvent(GpuStream stream, GpuEvent event) override {
    return FromCuda(cudaStreamWaitEvent(AsStream(stream),
                                        static_cast<cudaEvent_t>(event), 0),
                    "cudaStreamWaitEvent");
  }
  Status SynchronizeStream(GpuStream stream) override {
    return FromCuda(cudaStreamSynchronize(AsStream(stream)),
                    "cudaStreamSynchronize");
  }

  Status MemcpyHostToDevice(void* dst, const void* src, size_t bytes,
                            GpuStream stream) override {
    return FromCuda(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice,
                                    AsStream(stream)),
                    "cudaMemcpyAsync");
  }
  Status MemcpyDeviceToHost(void* dst, const void* src, size_t bytes,
                            GpuStream stream) override {
    return FromCuda(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost,
                                    AsStream(stream)),
                    "cudaMemcpyAsync");
  }
  Status MemcpyDeviceToDevice(void* dst, const void* src, size_t bytes,
                              GpuStream stream) override {
    return FromCuda(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice,
                                    AsStream(stream)),
                    "cudaMemcpyAsync");
  }
};

}  // namespace

std::unique_ptr<StreamExecutor> NewEmulatedStreamExecutor() {
  return std::make_unique<EmulatedStreamExecutor>();
}

}  // namespace minitf::gpu
