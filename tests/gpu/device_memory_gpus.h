// GPUs whose memory the CPU may not read, on a machine without one: the
// emulator's streams and kernels over host memory that says it is not host
// accessible, so that any read of it on the host (a CPU kernel, a copy by
// memcpy) stops the process, as on a real GPU it would crash.
//
// A test installs the platform for its own run; the session then finds
// `n` such GPUs, /gpu:0 to /gpu:n-1, as it would find real ones:
//
//   GpusWithDeviceMemory platform(2);
//   ScopedGpuPlatform use(&platform);
//   Session sess;  // /gpu:0 and /gpu:1 have memory the CPU may not read
#pragma once

#include <memory>
#include <string>
#include <utility>

#include "minitf/device/devices/virtual_gpu_device.h"
#include "minitf/gpu/gpu_allocator.h"
#include "minitf/gpu/gpu_device.h"
#include "minitf/gpu/stream_executor/stream_executor.h"
#include "minitf/gpu/sub_allocator.h"

namespace minitf::gpu::testing {

/// Host memory that says the CPU cannot read it, as a real GPU's memory.
class MemoryTheCpuMayNotRead final : public SubAllocator {
 public:
  void* Alloc(size_t alignment, size_t bytes) override {
    return host_.Alloc(alignment, bytes);
  }
  void Free(void* ptr, size_t bytes) override { host_.Free(ptr, bytes); }
  bool HostAccessible() const override { return false; }

 private:
  HostSubAllocator host_;
};

/// `n` "real" GPUs of 64 MiB each: the emulator's streams over memory the
/// CPU may not read.
class GpusWithDeviceMemory final : public GpuPlatform {
 public:
  explicit GpusWithDeviceMemory(int n = 1) : n_(n) {}
  int VisibleGpuCount() override { return n_; }
  StatusOr<std::unique_ptr<Device>> CreateGpuDevice(
      std::string name, int tf_gpu_id, int platform_gpu_id,
      const GPUOptions& options) override {
    std::unique_ptr<StreamExecutor> executor = NewEmulatedStreamExecutor();
    TF_ASSIGN_OR_RETURN(GpuDescription d, executor->Describe());
    TF_ASSIGN_OR_RETURN(
        std::unique_ptr<BFCAllocator> bfc,
        NewGpuBfcAllocator(tf_gpu_id,
                           std::make_unique<MemoryTheCpuMayNotRead>(), options,
                           64 << 20, 64 << 20, false));
    TF_ASSIGN_OR_RETURN(
        std::unique_ptr<GpuDevice> device,
        GpuDevice::Create(std::move(name), platform_gpu_id, std::move(executor),
                          bfc.release(), d, /*emulated=*/false));
    return std::unique_ptr<Device>(std::move(device));
  }
  StatusOr<std::unique_ptr<Device>> CreateEmulatedGpuDevice(
      std::string, int, int, int64_t, const GPUOptions&) override {
    return errors::Unimplemented("not in this test");
  }

 private:
  const int n_;
};

/// Puts a platform in for one test and the linked one back after it.
class ScopedGpuPlatform {
 public:
  explicit ScopedGpuPlatform(GpuPlatform* platform)
      : linked_(GetGpuPlatform()) {
    SetGpuPlatform(platform);
  }
  ~ScopedGpuPlatform() { SetGpuPlatform(linked_); }

 private:
  GpuPlatform* const linked_;
};

}  // namespace minitf::gpu::testing
