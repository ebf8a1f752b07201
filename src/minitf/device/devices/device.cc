#include "minitf/device/devices/device.h"

#include <string_view>
#include <utility>

#include "minitf/device/memory/tracking_allocator.h"

namespace minitf {
namespace {

DeviceSpec ParseDeviceName(const std::string& name) {
  StatusOr<DeviceSpec> parsed = DeviceSpec::Parse(name);
  // Device names are made by this layer's factories, never by users.
  MINITF_CHECK(parsed.ok() && parsed.value().device_type.has_value() &&
               parsed.value().device_index.has_value());
  return std::move(parsed).value();
}

}  // namespace

Device::Device(DeviceAttributes attributes, Allocator* base,
               std::string allocator_name, int64_t bytes_limit)
    : Device(
          std::move(attributes), base,
          new TrackingAllocator(std::move(allocator_name), base, bytes_limit)) {
}

Device::Device(DeviceAttributes attributes, Allocator* base,
               DeviceAllocator* allocator)
    : attributes_(std::move(attributes)),
      parsed_name_(ParseDeviceName(attributes_.name)),
      base_(base),
      allocator_(allocator) {}

Device::~Device() { allocator_->DestroyWhenIdle(); }

StatusOr<std::unique_ptr<OpKernel>> Device::AdoptCpuKernel(
    const Node& node, std::unique_ptr<OpKernel> kernel) {
  if (allocator_->HostAccessible()) return kernel;
  return errors::Unimplemented(
      "No ", device_type(), " kernel for '", node.type_string(), "' (node ",
      node.name(), ") on ", name(),
      ": minitf runs this op there with the CPU's kernel, which needs memory "
      "the CPU can read, as virtual and emulated GPUs have");
}

// --8<-- [start:allocate_tensor]
StatusOr<Tensor> Device::AllocateTensor(DType dtype, const TensorShape& shape) {
  StatusOr<Tensor> tensor = Tensor::Allocate(dtype, shape, allocator_);
  if (tensor.ok()) return tensor;
  return NameDeviceInOom(tensor.status());
}

Status Device::NameDeviceInOom(const Status& status) const {
  // Layer 1 knows the allocator, not the device: its message ends in
  // " on <allocator>". This is the device of that allocator, so it names
  // itself there, in the words of TensorFlow's allocate_tensor.
  const std::string tail = " on " + allocator_->Name();
  const std::string& message = status.message();
  if (status.code() != error::RESOURCE_EXHAUSTED ||
      !message.starts_with("OOM when allocating tensor") ||
      !message.ends_with(tail)) {
    return status;
  }
  return errors::ResourceExhausted(
      std::string_view(message).substr(0, message.size() - tail.size()), " on ",
      name(), " by allocator ", allocator_->Name());
}
// --8<-- [end:allocate_tensor]

TransferStats Device::GetTransferStats() const {
  TransferStats stats;
  stats.copies_in = copies_in_.load();
  stats.bytes_in = bytes_in_.load();
  stats.copies_out = copies_out_.load();
  stats.bytes_out = bytes_out_.load();
  return stats;
}

void Device::RecordTransfer(bool into, int64_t bytes) {
  (into ? copies_in_ : copies_out_).fetch_add(1);
  (into ? bytes_in_ : bytes_out_).fetch_add(bytes);
}

DeviceAttributes Device::BuildDeviceAttributes(
    std::string name, std::string device_type, int64_t memory_limit,
    DeviceLocality locality, std::string physical_device_desc) {
  DeviceAttributes a;
  a.name = std::move(name);
  a.device_type = std::move(device_type);
  a.memory_limit = memory_limit;
  a.locality = std::move(locality);
  a.incarnation = NewIncarnation();
  a.physical_device_desc = std::move(physical_device_desc);
  return a;
}

}  // namespace minitf
