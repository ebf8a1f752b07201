#include "minitf/graph/kernels/index_inputs.h"

#include "minitf/graph/shape_inference.h"
#include "minitf/tensor/allocator.h"
#include "minitf/tensor/dtype.h"

namespace minitf {
namespace {

// An index input is read on the host. A device whose memory the host cannot
// read (a GPU's) keeps its int32 tensors on the host, so an int32 index is
// there; any other dtype is in the device's memory.
Status CheckOnHost(const Tensor& t, const char* what) {
  if (t.allocator() == nullptr || t.allocator()->HostAccessible()) {
    return Status::OK();
  }
  return errors::Unimplemented(
      what, " is an ", DataTypeString(t.dtype()),
      " tensor in the memory of a GPU that the host cannot read; minitf keeps "
      "a GPU's int32 tensors in host memory, as TensorFlow does, and reads "
      "index inputs there: give it as int32");
}

// The value of scalar `t`, read on the host.
StatusOr<int64_t> ScalarValue(const Tensor& t, const char* what) {
  TF_RETURN_IF_ERROR(CheckOnHost(t, what));
  TF_ASSIGN_OR_RETURN(std::vector<int64_t> v, IndexValues(t));
  return v[0];
}

}  // namespace

StatusOr<std::vector<int64_t>> VectorInput(OpKernelContext* ctx, int i,
                                           const char* what) {
  const Tensor& t = ctx->input(i);
  if (t.dims() != 1) {
    return errors::InvalidArgument(what, " must be a 1-D tensor, not ",
                                   ShapeErrorString(t.shape()));
  }
  TF_RETURN_IF_ERROR(CheckOnHost(t, what));
  return IndexValues(t);
}

StatusOr<int64_t> ScalarInput(OpKernelContext* ctx, int i, const char* what) {
  const Tensor& t = ctx->input(i);
  if (t.dims() != 0) {
    return errors::InvalidArgument(what, " must be a scalar, not ",
                                   ShapeErrorString(t.shape()));
  }
  return ScalarValue(t, what);
}

StatusOr<int64_t> DimensionInput(OpKernelContext* ctx, int i) {
  const Tensor& t = ctx->input(i);
  if (t.dims() != 0) {
    return errors::InvalidArgument(
        "dim must be a scalar, but received tensor of shape: ",
        ShapeErrorString(t.shape()));
  }
  return ScalarValue(t, "dim");
}

}  // namespace minitf
