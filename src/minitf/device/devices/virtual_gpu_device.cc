#include "minitf/device/devices/virtual_gpu_device.h"

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdlib>
#include <mutex>
#include <string_view>
#include <utility>

#include "minitf/device/devices/device_factory.h"
#include "minitf/device/devices/gpu_visibility.h"
#include "minitf/device/memory/tracking_allocator.h"

namespace minitf {

void VirtualGpuDeviceContext::CopyCPUTensorToDevice(const Tensor* cpu_tensor,
                                                    Device*,
                                                    Tensor* device_tensor,
                                                    StatusCallback done) const {
  done(CopyHostAddressableBytes(*cpu_tensor, device_tensor));
}

void VirtualGpuDeviceContext::CopyDeviceTensorToCPU(const Tensor* device_tensor,
                                                    std::string_view, Device*,
                                                    Tensor* cpu_tensor,
                                                    StatusCallback done) const {
  done(CopyHostAddressableBytes(*device_tensor, cpu_tensor));
}

void VirtualGpuDeviceContext::CopyDeviceTensorToDevice(
    const Tensor* src_tensor, Device*, Device*, Tensor* dst_tensor,
    StatusCallback done) const {
  done(CopyHostAddressableBytes(*src_tensor, dst_tensor));
}

namespace {

DeviceLocality GpuLocality() {
  // As TensorFlow fills it for a GPU on NUMA node 0: bus_id is the node plus
  // one, and the list of peer links is present but empty.
  DeviceLocality locality;
  locality.bus_id = 1;
  locality.links = LocalLinks{};
  return locality;
}

// Chapter 4's allocator of a virtual GPU's memory.
DeviceAllocator* NewTrackingAllocator(int tf_gpu_id, int64_t memory_limit) {
  return new TrackingAllocator(StrCat("GPU_", tf_gpu_id, "_virtual"),
                               cpu_allocator(), memory_limit);
}

}  // namespace

VirtualGpuDevice::VirtualGpuDevice(std::string name, int tf_gpu_id,
                                   int platform_gpu_id, int64_t memory_limit,
                                   int intra_op_threads)
    : VirtualGpuDevice(std::move(name), platform_gpu_id,
                       NewTrackingAllocator(tf_gpu_id, memory_limit),
                       intra_op_threads) {}

VirtualGpuDevice::VirtualGpuDevice(std::string name, int platform_gpu_id,
                                   DeviceAllocator* allocator,
                                   int intra_op_threads)
    : Device(BuildDeviceAttributes(
                 std::move(name), "GPU", allocator->GetStats().bytes_limit,
                 GpuLocality(),
                 StrCat("device: ", platform_gpu_id,
                        ", name: ", kVirtualGpuName, ", pci bus id: virtual")),
             cpu_allocator(), allocator),
      pool_(intra_op_threads) {}

namespace {

// The installed factory, in a function-local static: a later layer installs
// its factory from a static initialiser, which may run before this file's.
struct AllocatorFactorySlot {
  std::mutex mu;
  VirtualGpuAllocatorFactory factory;  // guarded by mu
};

AllocatorFactorySlot& FactorySlot() {
  static AllocatorFactorySlot* slot = new AllocatorFactorySlot;
  return *slot;
}

}  // namespace

void SetVirtualGpuAllocatorFactory(VirtualGpuAllocatorFactory factory) {
  AllocatorFactorySlot& slot = FactorySlot();
  std::lock_guard<std::mutex> lock(slot.mu);
  slot.factory = std::move(factory);
}

StatusOr<DeviceAllocator*> NewVirtualGpuAllocator(int tf_gpu_id,
                                                  int64_t memory_bytes,
                                                  const GPUOptions& options) {
  VirtualGpuAllocatorFactory factory;
  {
    AllocatorFactorySlot& slot = FactorySlot();
    std::lock_guard<std::mutex> lock(slot.mu);
    factory = slot.factory;
  }
  if (factory) return factory(tf_gpu_id, memory_bytes, options);
  return NewTrackingAllocator(tf_gpu_id, memory_bytes);
}

namespace {

std::atomic<GpuPlatform*>& PlatformSlot() {
  static std::atomic<GpuPlatform*> slot{nullptr};
  return slot;
}

}  // namespace

void SetGpuPlatform(GpuPlatform* platform) { PlatformSlot().store(platform); }

GpuPlatform* GetGpuPlatform() { return PlatformSlot().load(); }

StatusOr<bool> EmulateGpuKernels(const GPUOptions& options) {
  if (options.emulate_gpu_kernels) return true;
  const char* env = std::getenv("MINITF_EMULATE_GPU_KERNELS");
  if (env == nullptr || *env == '\0' || std::string_view(env) == "0") {
    return false;
  }
  if (std::string_view(env) == "1") return true;
  return errors::InvalidArgument(
      "MINITF_EMULATE_GPU_KERNELS must be 1 (emulated GPU kernels) or 0 "
      "(the CPU's), got '",
      env, "'");
}

StatusOr<int> VirtualGpuCount(const GPUOptions& options) {
  if (options.virtual_gpus < 0 || options.virtual_gpus > kMaxVirtualGpus) {
    return errors::InvalidArgument(
        "gpu_options.virtual_gpus must be from 0 to ", kMaxVirtualGpus,
        ", got ", options.virtual_gpus);
  }
  if (options.virtual_gpus > 0) return options.virtual_gpus;
  const char* env = std::getenv("MINITF_VIRTUAL_GPUS");
  if (env == nullptr || *env == '\0') return 0;
  const std::string_view text(env);
  int count = 0;
  bool ok = text.size() <= 2;
  for (char c : text) {
    ok = ok && c >= '0' && c <= '9';
    count = count * 10 + (c - '0');
  }
  if (!ok || count > kMaxVirtualGpus) {
    return errors::InvalidArgument(
        "MINITF_VIRTUAL_GPUS must be a whole number from 0 to ",
        kMaxVirtualGpus, ", got '", text, "'");
  }
  return count;
}

StatusOr<int64_t> VirtualGpuMemoryLimit(const GPUOptions& options) {
  const int64_t mb = options.virtual_gpu_memory_limit_mb;
  if (mb < 0 || mb > (INT64_MAX >> 20)) {
    return errors::InvalidArgument(
        "gpu_options.virtual_gpu_memory_limit_mb must be from 0 to ",
        INT64_MAX >> 20, ", got ", mb);
  }
  return mb == 0 ? kDefaultVirtualGpuMemoryLimit : mb << 20;
}

namespace {

// --8<-- [start:gpu_factory]
// TensorFlow's BaseGPUDeviceFactory::CreateDevices, on virtual GPUs when the
// options ask for them, else on the GPUs the installed platform finds.
class GpuDeviceFactory : public DeviceFactory {
 public:
  Status CreateDevices(const SessionOptions& options,
                       const std::string& name_prefix,
                       std::vector<std::unique_ptr<Device>>* devices) override {
    const GPUOptions& gpu_options = options.config.gpu_options;
    TF_ASSIGN_OR_RETURN(int wanted,
                        DeviceCountForType(options, "GPU", INT_MAX));
    // {"GPU": 0} hides the GPUs without reading the rest of the options, as
    // TensorFlow does: a bad visible_device_list is then no error.
    if (wanted == 0) return Status::OK();
    TF_ASSIGN_OR_RETURN(int cards, VirtualGpuCount(gpu_options));
    if (cards > 0) {
      TF_ASSIGN_OR_RETURN(int threads, IntraOpThreads(options.config));
      return CreateVirtualGpus(gpu_options, name_prefix, wanted, cards, threads,
                               devices);
    }
    GpuPlatform* platform = GetGpuPlatform();
    const int visible = platform == nullptr ? 0 : platform->VisibleGpuCount();
    // With no GPU in sight TensorFlow creates none and checks nothing more,
    // so a program written for a GPU machine still runs on the CPU.
    if (visible == 0) return Status::OK();
    TF_ASSIGN_OR_RETURN(
        std::vector<int> platform_ids,
        ParseVisibleDeviceList(gpu_options.visible_device_list, visible));
    const int count = std::min(wanted, static_cast<int>(platform_ids.size()));
    for (int tf_id = 0; tf_id < count; ++tf_id) {
      TF_ASSIGN_OR_RETURN(
          std::unique_ptr<Device> device,
          platform->CreateGpuDevice(name_prefix + LocalDeviceName("GPU", tf_id),
                                    tf_id, platform_ids[tf_id], gpu_options));
      devices->push_back(std::move(device));
    }
    return Status::OK();
  }

 private:
  // `cards` virtual GPUs, which CUDA_VISIBLE_DEVICES filters here as the
  // driver filters real ones.
  static Status CreateVirtualGpus(
      const GPUOptions& gpu_options, const std::string& name_prefix, int wanted,
      int cards, int intra_op_threads,
      std::vector<std::unique_ptr<Device>>* devices) {
    const std::vector<int> visible =
        VisibleByEnvironment(std::getenv("CUDA_VISIBLE_DEVICES"), cards);
    if (visible.empty()) return Status::OK();
    TF_ASSIGN_OR_RETURN(
        std::vector<int> platform_ids,
        ParseVisibleDeviceList(gpu_options.visible_device_list,
                               static_cast<int>(visible.size())));
    TF_ASSIGN_OR_RETURN(int64_t memory_limit,
                        VirtualGpuMemoryLimit(gpu_options));
    TF_ASSIGN_OR_RETURN(bool emulated, EmulateGpuKernels(gpu_options));
    GpuPlatform* platform = GetGpuPlatform();
    if (emulated && platform == nullptr) {
      return errors::FailedPrecondition(
          "Emulated GPU kernels were asked for (gpu_options."
          "emulate_gpu_kernels or MINITF_EMULATE_GPU_KERNELS), but this "
          "program has no GPU kernels: link chapter 5's layer (minitf_gpu)");
    }
    const int count = std::min(wanted, static_cast<int>(platform_ids.size()));
    for (int tf_id = 0; tf_id < count; ++tf_id) {
      std::string name = name_prefix + LocalDeviceName("GPU", tf_id);
      if (emulated) {
        TF_ASSIGN_OR_RETURN(std::unique_ptr<Device> device,
                            platform->CreateEmulatedGpuDevice(
                                std::move(name), tf_id, platform_ids[tf_id],
                                memory_limit, gpu_options));
        devices->push_back(std::move(device));
        continue;
      }
      TF_ASSIGN_OR_RETURN(
          DeviceAllocator * allocator,
          NewVirtualGpuAllocator(tf_id, memory_limit, gpu_options));
      devices->push_back(std::make_unique<VirtualGpuDevice>(
          std::move(name), platform_ids[tf_id], allocator, intra_op_threads));
    }
    return Status::OK();
  }
};
// --8<-- [end:gpu_factory]

}  // namespace

// TensorFlow's priority for its GPU factory, far above the CPU's 60, so the
// placer prefers a GPU for an op that has a kernel for both.
MINITF_REGISTER_LOCAL_DEVICE_FACTORY("GPU", GpuDeviceFactory, 210);

}  // namespace minitf
