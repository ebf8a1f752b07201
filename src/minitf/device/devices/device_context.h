// DeviceContext: how tensors cross into and out of a device's memory.
//
// A GPU's memory is not the CPU's: a kernel on the CPU cannot read a tensor
// that lives on the GPU, and the other way round. Tensors cross only by
// explicit copies, which TensorFlow routes through the device's
// DeviceContext: host to device, device to host, and device to device. The
// Send/Recv pairs the partitioner inserts (later in this chapter) call these
// copies whenever an edge of the graph joins two memories; so do feeds and
// fetches of tensors that live on a GPU. Copies report completion through a
// callback, since on a real GPU they run asynchronously on a stream (chapter
// 5); a virtual GPU's copies finish before the call returns.
//
// CopyTensorBetweenDevices is the one entry point that picks the route
// (TensorFlow's CopyTensor::ViaDMA), allocates the destination in the
// destination's memory and counts the bytes on both devices.
//
//   tf::Tensor on_gpu;
//   tf::CopyTensorBetweenDevices("x:0", cpu, gpu, x, &on_gpu,
//                                [&](const tf::Status& s) { status = s; });
//   gpu->GetTransferStats().bytes_in;   // x.TotalBytes()
//   gpu->GetAllocatorStats().bytes_in_use;   // counts on_gpu
#pragma once

#include <functional>
#include <string_view>

#include "minitf/graph/kernel.h"
#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor.h"

namespace minitf {

class Device;

/// Called once when an asynchronous operation finishes, with its outcome.
using StatusCallback = std::function<void(const Status&)>;

/// The copies of one device with a memory of its own. In each copy the
/// destination tensor is already allocated, with the source's dtype and
/// shape, in the destination's memory (CopyTensorBetweenDevices does so);
/// the source and destination tensors must stay alive until `done` is
/// called. A mismatch of dtype or size is reported to `done` as Internal.
///
/// It is also what the device's kernels see of their device
/// (OpKernelContext::op_device_context): a GPU's kernels find its stream in
/// chapter 5's subclass.
///
/// Thread safety: copies may be issued from several threads at once.
class DeviceContext : public OpDeviceContext {
 public:
  /// Host memory to `device`'s memory.
  virtual void CopyCPUTensorToDevice(const Tensor* cpu_tensor, Device* device,
                                     Tensor* device_tensor,
                                     StatusCallback done) const = 0;
  /// `device`'s memory to host memory. `tensor_name` is for messages.
  virtual void CopyDeviceTensorToCPU(const Tensor* device_tensor,
                                     std::string_view tensor_name,
                                     Device* device, Tensor* cpu_tensor,
                                     StatusCallback done) const = 0;
  /// `src`'s memory straight to `dst`'s, both devices of this context's
  /// kind (GPU to GPU without a stop on the host: peer to peer).
  virtual void CopyDeviceTensorToDevice(const Tensor* src_tensor, Device* src,
                                        Device* dst, Tensor* dst_tensor,
                                        StatusCallback done) const = 0;
};

/// Copies `input`, which lives on `src`, to `dst`, and sets `*output` to
/// the copy. The route, as TensorFlow's CopyTensor::ViaDMA takes it, where
/// a side is "host" for a device on host memory, for a tensor that a device
/// with memory of its own made in host memory, and on the receiving side for
/// a dtype the device keeps there (Device::KeepsInHostMemory: a GPU's int32):
///   - both sides host: no copy; `*output` shares the buffer;
///   - host to device: `dst`'s CopyCPUTensorToDevice;
///   - device to host: `src`'s CopyDeviceTensorToCPU;
///   - device to device of one type: `src`'s CopyDeviceTensorToDevice;
///   - device to device of different types: through a tensor in host memory.
/// The output is allocated with dst->AllocateTensor (in host memory for a
/// dtype dst keeps there), so a full device fails with its OOM error. Every
/// copy is counted on both devices (TransferStats). `done` is called exactly
/// once, with the outcome; `*output` is set only on success. REQUIRES: `input`
/// is initialized and stays alive until `done`.
void CopyTensorBetweenDevices(std::string_view tensor_name, Device* src,
                              Device* dst, const Tensor& input, Tensor* output,
                              StatusCallback done);

/// True when `tensor`, which lives on `src`, can be read on `dst` as it is,
/// with no copy: both sides hold it in host memory, as
/// CopyTensorBetweenDevices decides (it then shares the buffer).
bool ReadableWithoutCopy(const Device& src, const Device& dst,
                         const Tensor& tensor);

/// CopyTensorBetweenDevices for callers that wait: returns the copy once it
/// is done, or the error.
StatusOr<Tensor> CopyTensorBetweenDevicesSync(std::string_view tensor_name,
                                              Device* src, Device* dst,
                                              const Tensor& input);

/// The copy the copies of a host-memory device context do: checks that the
/// two tensors agree in dtype and size, then copies the bytes. For device
/// contexts whose memory the CPU can address (virtual GPUs, and chapter 5's
/// emulated GPUs); Internal on a mismatch.
Status CopyHostAddressableBytes(const Tensor& from, Tensor* to);

}  // namespace minitf
