#include "minitf/gpu/gpu_device.h"

#include <cstdio>
#include <mutex>
#include <utility>

#include "minitf/device/devices/virtual_gpu_device.h"
#include "minitf/gpu/gpu_allocator.h"
#include "minitf/gpu/host_memory.h"
#if MINITF_WITH_CUDA
#include "minitf/gpu/stream_executor/cuda_stream_executor.h"
#endif

namespace minitf::gpu {

StatusOr<std::unique_ptr<GpuDeviceContext>> GpuDeviceContext::Create(
    StreamExecutor* executor, bool synchronous) {
  std::unique_ptr<GpuDeviceContext> context(
      new GpuDeviceContext(executor, synchronous));
  for (GpuStream* stream :
       {&context->compute_, &context->host_to_device_,
        &context->device_to_host_, &context->device_to_device_}) {
    TF_ASSIGN_OR_RETURN(*stream, executor->CreateStream());
  }
  return context;
}

GpuDeviceContext::~GpuDeviceContext() {
  for (GpuStream stream :
       {compute_, host_to_device_, device_to_host_, device_to_device_}) {
    if (stream != nullptr) executor_->DestroyStream(stream);
  }
}

Status GpuDeviceContext::KernelQueued() const {
  return synchronous_ ? executor_->SynchronizeStream(compute_) : Status::OK();
}

namespace {

enum Direction { kHostToDevice, kDeviceToHost, kDeviceToDevice };

// An event that lives as long as the scope that made it.
class ScopedEvent {
 public:
  explicit ScopedEvent(StreamExecutor* executor) : executor_(executor) {}
  ~ScopedEvent() {
    if (event_ != nullptr) executor_->DestroyEvent(event_);
  }
  Status Record(GpuStream stream) {
    if (event_ == nullptr) {
      TF_ASSIGN_OR_RETURN(event_, executor_->CreateEvent());
    }
    return executor_->RecordEvent(event_, stream);
  }
  GpuEvent get() const { return event_; }

 private:
  StreamExecutor* const executor_;
  GpuEvent event_ = nullptr;
};

Status CheckSameSize(const Tensor& from, const Tensor& to) {
  if (from.dtype() != to.dtype() || from.TotalBytes() != to.TotalBytes()) {
    return errors::Internal("Cannot copy a tensor of type ", from.dtype(),
                            " and shape ", from.shape(), " into one of type ",
                            to.dtype(), " and shape ", to.shape());
  }
  return Status::OK();
}

const GpuDeviceContext* GpuContextOf(Device* device) {
  return dynamic_cast<const GpuDeviceContext*>(device->device_context());
}

}  // namespace

// --8<-- [start:ordered_copy]
Status GpuDeviceContext::OrderedCopy(GpuStream copy_stream,
                                     const GpuDeviceContext* producer,
                                     const GpuDeviceContext* consumer,
                                     void* dst, const void* src, size_t bytes,
                                     int direction) const {
  if (bytes == 0) return Status::OK();
  // What the producer's kernels queued so far must be written before the
  // copy reads it.
  ScopedEvent produced(executor_);
  if (producer != nullptr) {
    TF_RETURN_IF_ERROR(produced.Record(producer->compute_));
    TF_RETURN_IF_ERROR(executor_->WaitForEvent(copy_stream, produced.get()));
  }
  // And the consumer's kernels queued so far must be done with the memory
  // the copy writes: a buffer freed on the host while a queued kernel still
  // reads it goes back to the allocator, which may hand it to this copy.
  // (Kernels on one stream need no such wait: they run in order.)
  ScopedEvent consumed(executor_);
  if (consumer != nullptr && consumer != producer) {
    TF_RETURN_IF_ERROR(consumed.Record(consumer->compute_));
    TF_RETURN_IF_ERROR(executor_->WaitForEvent(copy_stream, consumed.get()));
  }
  switch (direction) {
    case kHostToDevice:
      TF_RETURN_IF_ERROR(
          executor_->MemcpyHostToDevice(dst, src, bytes, copy_stream));
      break;
    case kDeviceToHost:
      TF_RETURN_IF_ERROR(
          executor_->MemcpyDeviceToHost(dst, src, bytes, copy_stream));
      break;
    default:
      TF_RETURN_IF_ERROR(
          executor_->MemcpyDeviceToDevice(dst, src, bytes, copy_stream));
  }
  // The consumer's kernels queued from now on run after the copy.
  ScopedEvent copied(executor_);
  if (consumer != nullptr) {
    TF_RETURN_IF_ERROR(copied.Record(copy_stream));
    TF_RETURN_IF_ERROR(
        consumer->executor_->WaitForEvent(consumer->compute_, copied.get()));
  }
  // The caller's tensors must live until the copy has run, and `done` says
  // when that is: minitf waits here, where TensorFlow's EventMgr polls the
  // stream and calls `done` later from a thread of its own.
  return executor_->SynchronizeStream(copy_stream);
}
// --8<-- [end:ordered_copy]

void GpuDeviceContext::CopyCPUTensorToDevice(const Tensor* cpu_tensor, Device*,
                                             Tensor* device_tensor,
                                             StatusCallback done) const {
  Status s = CheckSameSize(*cpu_tensor, *device_tensor);
  if (s.ok()) {
    s = OrderedCopy(host_to_device_, nullptr, this,
                    device_tensor->device_data(), cpu_tensor->raw_data(),
                    cpu_tensor->TotalBytes(), kHostToDevice);
  }
  done(s);
}

void GpuDeviceContext::CopyDeviceTensorToCPU(const Tensor* device_tensor,
                                             std::string_view, Device*,
                                             Tensor* cpu_tensor,
                                             StatusCallback done) const {
  Status s = CheckSameSize(*device_tensor, *cpu_tensor);
  if (s.ok()) {
    s = OrderedCopy(device_to_host_, this, nullptr, cpu_tensor->raw_data(),
                    device_tensor->device_data(), device_tensor->TotalBytes(),
                    kDeviceToHost);
  }
  done(s);
}

void GpuDeviceContext::CopyDeviceTensorToDevice(const Tensor* src_tensor,
                                                Device*, Device* dst,
                                                Tensor* dst_tensor,
                                                StatusCallback done) const {
  Status s = CheckSameSize(*src_tensor, *dst_tensor);
  const GpuDeviceContext* consumer = GpuContextOf(dst);
  if (s.ok() && consumer == nullptr) {
    s = errors::Internal("Cannot copy from ", "a GPU to device ", dst->name(),
                         ", which is not a GPU of this layer");
  }
  if (s.ok()) {
    s = OrderedCopy(device_to_device_, this, consumer,
                    dst_tensor->device_data(), src_tensor->device_data(),
                    src_tensor->TotalBytes(), kDeviceToDevice);
  }
  done(s);
}

std::string PhysicalDeviceDesc(int platform_gpu_id, const GpuDescription& d) {
  return StrCat("device: ", platform_gpu_id, ", name: ", d.name,
                ", pci bus id: ", d.pci_bus_id,
                ", compute capability: ", d.compute_capability_major, ".",
                d.compute_capability_minor);
}

GpuDevice::GpuDevice(DeviceAttributes attributes, DeviceAllocator* allocator,
                     std::unique_ptr<StreamExecutor> executor)
    : Device(std::move(attributes), cpu_allocator(), allocator),
      executor_(std::move(executor)) {}

bool GpuDevice::KeepsInHostMemory(DType dtype) const {
  return !allocator()->HostAccessible() && KeptInHostMemory(dtype);
}

StatusOr<std::unique_ptr<OpKernel>> GpuDevice::AdoptCpuKernel(
    const Node& node, std::unique_ptr<OpKernel> kernel) {
  if (allocator()->HostAccessible() || !CpuKernelRunsWithDeviceMemory(node)) {
    return Device::AdoptCpuKernel(node, std::move(kernel));
  }
  return AdoptCpuKernelForDeviceMemory(node, std::move(kernel), device_type());
}

GpuDevice::~GpuDevice() {
  // The streams go before the executor that made them.
  context_.reset();
}

StatusOr<std::unique_ptr<GpuDevice>> GpuDevice::Create(
    std::string name, int platform_gpu_id,
    std::unique_ptr<StreamExecutor> executor, DeviceAllocator* allocator,
    const GpuDescription& description, bool emulated) {
  // As TensorFlow's GPU on NUMA node 0: bus_id is the node plus one.
  DeviceLocality locality;
  locality.bus_id = 1;
  locality.links = LocalLinks{};
  DeviceAttributes attributes = BuildDeviceAttributes(
      std::move(name), "GPU", allocator->GetStats().bytes_limit, locality,
      PhysicalDeviceDesc(platform_gpu_id, description));
  std::unique_ptr<GpuDevice> device(
      new GpuDevice(std::move(attributes), allocator, std::move(executor)));
  TF_ASSIGN_OR_RETURN(device->context_,
                      GpuDeviceContext::Create(device->executor_.get(),
                                               /*synchronous=*/emulated));
  return device;
}

namespace {

// The BFC allocator's regions on a real GPU: cudaMalloc through an
// executor of its own (TensorFlow's DeviceMemAllocator), since the allocator
// may outlive the device while tensors it made are still held.
class DeviceSubAllocator final : public SubAllocator {
 public:
  explicit DeviceSubAllocator(std::unique_ptr<StreamExecutor> executor)
      : executor_(std::move(executor)) {}
  void* Alloc(size_t, size_t num_bytes) override {
    // cudaMalloc's memory is aligned to 256 bytes at least, all the BFC
    // allocator asks for.
    return executor_->AllocateDeviceMemory(num_bytes);
  }
  void Free(void* ptr, size_t) override { executor_->FreeDeviceMemory(ptr); }
  bool HostAccessible() const override { return executor_->HostAccessible(); }

 private:
  const std::unique_ptr<StreamExecutor> executor_;
};

// --8<-- [start:platform]
class CudaAndEmulatorPlatform final : public GpuPlatform {
 public:
  int VisibleGpuCount() override {
#if MINITF_WITH_CUDA
    return CudaVisibleGpuCount();
#else
    return 0;
#endif
  }

  StatusOr<std::unique_ptr<Device>> CreateGpuDevice(
      std::string name, int tf_gpu_id, int platform_gpu_id,
      const GPUOptions& options) override {
#if MINITF_WITH_CUDA
    std::unique_ptr<StreamExecutor> executor =
        NewCudaStreamExecutor(platform_gpu_id);
    TF_ASSIGN_OR_RETURN(GpuDescription d, executor->Describe());
    const bool unified = d.compute_capability_major >= 6;
    TF_ASSIGN_OR_RETURN(
        std::unique_ptr<BFCAllocator> bfc,
        NewGpuBfcAllocator(tf_gpu_id,
                           std::make_unique<DeviceSubAllocator>(
                               NewCudaStreamExecutor(platform_gpu_id)),
                           options, d.total_memory, d.free_memory, unified));
    const int64_t limit = bfc->GetStats().bytes_limit;
    TF_ASSIGN_OR_RETURN(
        std::unique_ptr<GpuDevice> device,
        GpuDevice::Create(std::move(name), platform_gpu_id, std::move(executor),
                          bfc.release(), d, /*emulated=*/false));
    // TensorFlow's line, to the log (stderr), each time it makes the device.
    std::fprintf(stderr,
                 "Created TensorFlow device (%s with %lld MB memory) -> "
                 "physical GPU (%s)\n",
                 device->name().c_str(), static_cast<long long>(limit >> 20),
                 device->attributes().physical_device_desc.c_str());
    return std::unique_ptr<Device>(std::move(device));
#else
    (void)name;
    (void)tf_gpu_id;
    (void)platform_gpu_id;
    (void)options;
    return errors::Unavailable("minitf was built without CUDA");
#endif
  }

  StatusOr<std::unique_ptr<Device>> CreateEmulatedGpuDevice(
      std::string name, int tf_gpu_id, int platform_gpu_id,
      int64_t memory_bytes, const GPUOptions& options) override {
    std::unique_ptr<StreamExecutor> executor = NewEmulatedStreamExecutor();
    TF_ASSIGN_OR_RETURN(GpuDescription d, executor->Describe());
    TF_ASSIGN_OR_RETURN(
        DeviceAllocator * allocator,
        NewVirtualGpuAllocator(tf_gpu_id, memory_bytes, options));
    TF_ASSIGN_OR_RETURN(
        std::unique_ptr<GpuDevice> device,
        GpuDevice::Create(std::move(name), platform_gpu_id, std::move(executor),
                          allocator, d, /*emulated=*/true));
    return std::unique_ptr<Device>(std::move(device));
  }
};
// --8<-- [end:platform]

const bool kPlatformInstalled = [] {
  static CudaAndEmulatorPlatform* platform = new CudaAndEmulatorPlatform;
  SetGpuPlatform(platform);
  return true;
}();

}  // namespace
}  // namespace minitf::gpu
