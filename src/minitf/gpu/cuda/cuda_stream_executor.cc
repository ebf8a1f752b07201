// Plain C++ against the CUDA runtime's header: no kernel is launched here,
// so the host compiler builds it and nvcc is not needed.

#include "minitf/gpu/cuda/cuda_stream_executor.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <mutex>

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

// Every call first makes `ordinal` the calling thread's device, since the
// runtime's current device is per host thread and executor threads are
// shared by all of a session's devices.
class CudaStreamExecutor final : public StreamExecutor {
 public:
  explicit CudaStreamExecutor(int ordinal) : ordinal_(ordinal) {}

  std::string platform_name() const override { return "CUDA"; }

  StatusOr<GpuDescription> Describe() const override {
    TF_RETURN_IF_ERROR(Activate());
    cudaDeviceProp prop;
    TF_RETURN_IF_ERROR(FromCuda(cudaGetDeviceProperties(&prop, ordinal_),
                                "cudaGetDeviceProperties"));
    size_t free = 0, total = 0;
    TF_RETURN_IF_ERROR(
        FromCuda(cudaMemGetInfo(&free, &total), "cudaMemGetInfo"));
    char bus_id[32] = {0};
    TF_RETURN_IF_ERROR(
        FromCuda(cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, ordinal_),
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

  const GpuKernels& kernels() const override { return *CudaGpuKernels(); }

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
  bool HostAccessible() const override { return false; }

  StatusOr<GpuStream> CreateStream() override {
    TF_RETURN_IF_ERROR(Activate());
    cudaStream_t stream = nullptr;
    TF_RETURN_IF_ERROR(
        FromCuda(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking),
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
        FromCuda(cudaEventCreateWithFlags(&event, cudaEventDisableTiming),
                 "cudaEventCreate"));
    return static_cast<GpuEvent>(event);
  }
  void DestroyEvent(GpuEvent event) override {
    if (Activate().ok()) cudaEventDestroy(static_cast<cudaEvent_t>(event));
  }
  Status RecordEvent(GpuEvent event, GpuStream stream) override {
    TF_RETURN_IF_ERROR(Activate());
    return FromCuda(
        cudaEventRecord(static_cast<cudaEvent_t>(event), AsStream(stream)),
        "cudaEventRecord");
  }
  Status WaitForEvent(GpuStream stream, GpuEvent event) override {
    TF_RETURN_IF_ERROR(Activate());
    return FromCuda(cudaStreamWaitEvent(AsStream(stream),
                                        static_cast<cudaEvent_t>(event), 0),
                    "cudaStreamWaitEvent");
  }
  Status SynchronizeStream(GpuStream stream) override {
    TF_RETURN_IF_ERROR(Activate());
    return FromCuda(cudaStreamSynchronize(AsStream(stream)),
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
  Status Activate() const {
    return FromCuda(cudaSetDevice(ordinal_), "cudaSetDevice");
  }
  Status Copy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind,
              GpuStream stream) {
    TF_RETURN_IF_ERROR(Activate());
    return FromCuda(cudaMemcpyAsync(dst, src, bytes, kind, AsStream(stream)),
                    "cudaMemcpyAsync");
  }

  const int ordinal_;
};

}  // namespace

int CudaVisibleGpuCount() {
  static const int count = [] {
    int n = 0;
    const cudaError_t error = cudaGetDeviceCount(&n);
    if (error == cudaSuccess && n > 0) return n;
    cudaGetLastError();
    // One line, as TensorFlow's when it finds no GPU, then the CPU goes on.
    if (error == cudaSuccess) {
      std::fprintf(stderr, "No GPU will be used: the CUDA runtime sees none\n");
    } else if (error == cudaErrorInsufficientDriver) {
      std::fprintf(stderr,
                   "Could not find cuda drivers on your machine, GPU will "
                   "not be used.\n");
    } else {
      std::fprintf(stderr, "No GPU will be used: %s: %s\n",
                   cudaGetErrorName(error), cudaGetErrorString(error));
    }
    return 0;
  }();
  return count;
}

std::unique_ptr<StreamExecutor> NewCudaStreamExecutor(int ordinal) {
  return std::make_unique<CudaStreamExecutor>(ordinal);
}

}  // namespace minitf::gpu
