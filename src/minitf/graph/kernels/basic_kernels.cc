// CPU kernels of the ops that make and pass tensors: Const, Placeholder,
// Identity, NoOp.
#include <cstring>

#include "minitf/graph/kernel.h"
#include "minitf/graph/kernels/function_kernels.h"
#include "minitf/graph/shape_inference.h"

namespace minitf {
namespace {

// The node's value is in host memory. A kernel made for a device with a
// memory of its own (chapter 4 makes it under that memory's default
// allocator, allocator.h) keeps a copy there instead, made once, as
// TensorFlow's ConstantOp makes its tensor on its device: the value is then
// counted in the device's memory for as long as the kernel lives. When that
// memory is full, `status` says so and the value stays where it was.
Tensor InDefaultMemory(Tensor value, Status* status) {
  Allocator* memory = DefaultAllocator();
  if (memory == cpu_allocator() || memory == value.allocator()) return value;
  StatusOr<Tensor> copy =
      Tensor::Allocate(value.dtype(), value.shape(), memory);
  if (!copy.ok()) {
    *status = copy.status();
    return value;
  }
  std::memcpy(copy.value().raw_data(), value.raw_data(), value.TotalBytes());
  return std::move(copy).value();
}

// --8<-- [start:const_kernel]
// Returns the value stored in the node. Tensors share their buffer, so this
// costs a reference count, not a copy; kernels never write their inputs.
class ConstOp : public OpKernel {
 public:
  explicit ConstOp(const OpKernelConstruction& c)
      : OpKernel(c),
        value_(InDefaultMemory(c.GetAttr<Tensor>("value").value(), &status_)) {}
  Status Compute(OpKernelContext* ctx) override {
    TF_RETURN_IF_ERROR(status_);  // a constructor cannot report it
    ctx->set_output(0, value_);
    return Status::OK();
  }

 private:
  Status status_;  // before value_, which its constructor may fail to copy
  const Tensor value_;
};
// --8<-- [end:const_kernel]

// A placeholder runs only when the session was not given its value.
class PlaceholderOp : public OpKernel {
 public:
  explicit PlaceholderOp(const OpKernelConstruction& c)
      : OpKernel(c),
        dtype_(c.GetAttr<DType>("dtype").value()),
        shape_(c.GetAttr<TensorShape>("shape").value()) {}
  Status Compute(OpKernelContext*) override {
    return errors::InvalidArgument(
        "You must feed a value for placeholder tensor '", name(),
        "' with dtype ", DataTypeString(dtype_),
        shape_.unknown_rank() ? std::string()
                              : " and shape " + ShapeErrorString(shape_));
  }

 private:
  DType dtype_;
  TensorShape shape_;
};

class NoOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext*) override { return Status::OK(); }
};

MINITF_REGISTER_KERNEL("Const", DEVICE_CPU, ConstOp);
MINITF_REGISTER_KERNEL("Placeholder", DEVICE_CPU, PlaceholderOp);
MINITF_REGISTER_KERNEL("Identity", DEVICE_CPU, internal::IdentityOp);
MINITF_REGISTER_KERNEL("NoOp", DEVICE_CPU, NoOp);

}  // namespace
}  // namespace minitf
