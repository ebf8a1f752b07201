#include "minitf/device/devices/device_context.h"

#include <cstring>
#include <future>
#include <memory>
#include <utility>

#include "minitf/device/devices/device.h"

namespace minitf {
namespace {

// The context that copies in or out of `device`, or an Internal error for a
// device that has a memory of its own but no way to reach it (a bug in the
// device's class).
StatusOr<DeviceContext*> ContextOf(Device* device) {
  DeviceContext* context = device->device_context();
  if (context == nullptr) {
    return errors::Internal("Device ", device->name(),
                            " has a memory of its own but no DeviceContext");
  }
  return context;
}

// Which memory each side holds a tensor in: a device's own, or the host's.
// The sender holds it in host memory when it is a device on host memory, or
// when the tensor, made by a kernel of a device whose memory the CPU cannot
// read, lies in host memory nonetheless (an int32 a GPU keeps on the host).
bool SentFromHostMemory(const Device& src, const Tensor& tensor) {
  return src.UsesHostMemory() ||
         (!src.allocator()->HostAccessible() && tensor.allocator() != nullptr &&
          tensor.allocator()->HostAccessible());
}
// The receiver takes it into host memory when it is a device on host memory
// or keeps that dtype on the host (Device::KeepsInHostMemory).
bool ReceivedIntoHostMemory(const Device& dst, DType dtype) {
  return dst.UsesHostMemory() || dst.KeepsInHostMemory(dtype);
}

}  // namespace

bool ReadableWithoutCopy(const Device& src, const Device& dst,
                         const Tensor& tensor) {
  return SentFromHostMemory(src, tensor) &&
         ReceivedIntoHostMemory(dst, tensor.dtype());
}

// --8<-- [start:copy_tensor]
void CopyTensorBetweenDevices(std::string_view tensor_name, Device* src,
                              Device* dst, const Tensor& input, Tensor* output,
                              StatusCallback done) {
  const bool src_host = SentFromHostMemory(*src, input);
  const bool dst_host = ReceivedIntoHostMemory(*dst, input.dtype());
  if (src_host && dst_host) {
    *output = input;  // one address space: the tensor itself will do
    done(Status::OK());
    return;
  }
  StatusOr<Tensor> allocated =
      dst->UsesHostMemory() || !dst_host
          ? dst->AllocateTensor(input.dtype(), input.shape())
          : Tensor::Allocate(input.dtype(), input.shape(), cpu_allocator());
  if (!allocated.ok()) {
    done(allocated.status());
    return;
  }
  // Kept alive by the callbacks until the copy is done, then handed over.
  auto copy = std::make_shared<Tensor>(std::move(allocated).value());
  const auto bytes = static_cast<int64_t>(input.TotalBytes());
  StatusCallback finish = [src, dst, output, copy, bytes,
                           done = std::move(done)](const Status& s) {
    if (s.ok()) {
      src->RecordTransfer(/*into=*/false, bytes);
      dst->RecordTransfer(/*into=*/true, bytes);
      *output = std::move(*copy);
    }
    done(s);
  };
  if (src_host) {
    StatusOr<DeviceContext*> to = ContextOf(dst);
    if (!to.ok()) return finish(to.status());
    to.value()->CopyCPUTensorToDevice(&input, dst, copy.get(),
                                      std::move(finish));
    return;
  }
  StatusOr<DeviceContext*> from = ContextOf(src);
  if (!from.ok()) return finish(from.status());
  if (dst_host) {
    from.value()->CopyDeviceTensorToCPU(&input, tensor_name, src, copy.get(),
                                        std::move(finish));
    return;
  }
  if (src->device_type() == dst->device_type()) {
    from.value()->CopyDeviceTensorToDevice(&input, src, dst, copy.get(),
                                           std::move(finish));
    return;
  }
  // Two kinds of device that cannot reach each other: stop on the host.
  StatusOr<DeviceContext*> to = ContextOf(dst);
  if (!to.ok()) return finish(to.status());
  // The stop is host memory, whatever the calling thread's default allocator
  // (a kernel's device's, when the copy runs inside a _Recv).
  StatusOr<Tensor> staged =
      Tensor::Allocate(input.dtype(), input.shape(), cpu_allocator());
  if (!staged.ok()) return finish(staged.status());
  auto host = std::make_shared<Tensor>(std::move(staged).value());
  from.value()->CopyDeviceTensorToCPU(
      &input, tensor_name, src, host.get(),
      [to = to.value(), dst, host, copy,
       finish = std::move(finish)](const Status& s) mutable {
        if (!s.ok()) return finish(s);
        to->CopyCPUTensorToDevice(host.get(), dst, copy.get(),
                                  [host, finish = std::move(finish)](
                                      const Status& s2) { finish(s2); });
      });
}
// --8<-- [end:copy_tensor]

StatusOr<Tensor> CopyTensorBetweenDevicesSync(std::string_view tensor_name,
                                              Device* src, Device* dst,
                                              const Tensor& input) {
  std::promise<Status> finished;
  Tensor output;
  CopyTensorBetweenDevices(
      tensor_name, src, dst, input, &output,
      [&finished](const Status& s) { finished.set_value(s); });
  TF_RETURN_IF_ERROR(finished.get_future().get());
  return output;
}

Status CopyHostAddressableBytes(const Tensor& from, Tensor* to) {
  if (from.dtype() != to->dtype() || from.TotalBytes() != to->TotalBytes()) {
    return errors::Internal("Cannot copy a tensor of type ", from.dtype(),
                            " and shape ", from.shape(), " into one of type ",
                            to->dtype(), " and shape ", to->shape());
  }
  if (from.TotalBytes() > 0) {
    std::memcpy(to->raw_data(), from.raw_data(), from.TotalBytes());
  }
  return Status::OK();
}

}  // namespace minitf
