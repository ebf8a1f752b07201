// CPU kernels of the array ops: each reads its index inputs (a shape, a
// permutation, an axis) and calls layer 1's array kernel. Index inputs are
// checked as they are read (index_inputs.h), since a Session may feed them
// any tensor; a bad value is an error Status, never a crash.
#include <vector>

#include "minitf/graph/kernel.h"
#include "minitf/graph/kernels/function_kernels.h"
#include "minitf/graph/kernels/index_inputs.h"
#include "minitf/graph/shape_inference.h"
#include "minitf/tensor/kernels/array_ops.h"
#include "minitf/tensor/kernels/checks.h"

namespace minitf {
namespace {

class ReshapeOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    TF_ASSIGN_OR_RETURN(std::vector<int64_t> shape,
                        VectorInput(ctx, 1, "sizes input"));
    TF_ASSIGN_OR_RETURN(Tensor out, kernels::Reshape(ctx->input(0), shape));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};

class TransposeOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    TF_ASSIGN_OR_RETURN(std::vector<int64_t> perm, VectorInput(ctx, 1, "perm"));
    TF_ASSIGN_OR_RETURN(
        Tensor out,
        kernels::Transpose(ctx->input(0),
                           std::vector<int>(perm.begin(), perm.end())));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};

// ConcatV2: inputs 0..N-1 are the values, the last one the axis.
class ConcatV2Op : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    const int n = ctx->num_inputs() - 1;
    TF_ASSIGN_OR_RETURN(int64_t axis, ScalarInput(ctx, n, "axis"));
    std::vector<Tensor> values;
    for (int i = 0; i < n; ++i) values.push_back(ctx->input(i));
    TF_ASSIGN_OR_RETURN(Tensor out,
                        kernels::Concat(values, static_cast<int>(axis)));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};

class PackOp : public OpKernel {
 public:
  explicit PackOp(const OpKernelConstruction& c)
      : OpKernel(c),
        axis_(static_cast<int>(c.GetAttr<int64_t>("axis").value())) {}
  Status Compute(OpKernelContext* ctx) override {
    std::vector<Tensor> values;
    for (int i = 0; i < ctx->num_inputs(); ++i) values.push_back(ctx->input(i));
    TF_ASSIGN_OR_RETURN(Tensor out, kernels::Stack(values, axis_));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }

 private:
  const int axis_;
};

class SliceOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    TF_ASSIGN_OR_RETURN(std::vector<int64_t> begin,
                        VectorInput(ctx, 1, "begin"));
    TF_ASSIGN_OR_RETURN(std::vector<int64_t> size, VectorInput(ctx, 2, "size"));
    TF_ASSIGN_OR_RETURN(Tensor out, kernels::Slice(ctx->input(0), begin, size));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};

class FillOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    TF_RETURN_IF_ERROR(kernels::CheckFillInputs(ctx->input(0), ctx->input(1)));
    TF_ASSIGN_OR_RETURN(std::vector<int64_t> dims, VectorInput(ctx, 0, "dims"));
    TF_ASSIGN_OR_RETURN(Tensor out, kernels::Fill(dims, ctx->input(1)));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};

// --8<-- [start:one_hot_kernel]
// Layer 1 builds float32 one-hot vectors; another dtype T is a cast of
// them, exact for the small whole numbers one_hot is used with.
class OneHotOp : public OpKernel {
 public:
  explicit OneHotOp(const OpKernelConstruction& c)
      : OpKernel(c),
        axis_(static_cast<int>(c.GetAttr<int64_t>("axis").value())),
        dtype_(c.GetAttr<DType>("T").value()) {}
  Status Compute(OpKernelContext* ctx) override {
    TF_ASSIGN_OR_RETURN(int64_t depth, ScalarInput(ctx, 1, "depth"));
    if (depth < 0) {
      return errors::InvalidArgument("depth must be non-negative, got: ",
                                     depth);
    }
    TF_ASSIGN_OR_RETURN(Tensor on, kernels::Cast(ctx->input(2), DT_FLOAT));
    TF_ASSIGN_OR_RETURN(Tensor off, kernels::Cast(ctx->input(3), DT_FLOAT));
    if (on.dims() != 0 || off.dims() != 0) {
      return errors::InvalidArgument("on_value and off_value must be scalars");
    }
    TF_ASSIGN_OR_RETURN(
        Tensor out, kernels::OneHot(ctx->input(0), depth, on.scalar<float>(),
                                    off.scalar<float>(), axis_));
    TF_ASSIGN_OR_RETURN(out, kernels::Cast(out, dtype_));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }

 private:
  const int axis_;
  const DType dtype_;
};
// --8<-- [end:one_hot_kernel]

// Shape, Size and Rank read only the input's shape, never its values. Their
// result is an int32 or int64 tensor in `dtype`; it fails only when the
// device's memory is full.
StatusOr<Tensor> IntTensor(const std::vector<int64_t>& values, bool scalar,
                           DType dtype) {
  const TensorShape shape =
      scalar ? TensorShape({})
             : TensorShape({static_cast<int64_t>(values.size())});
  if (dtype == DT_INT64) return Tensor::FromVector(values, shape);
  return Tensor::FromVector(std::vector<int32_t>(values.begin(), values.end()),
                            shape);
}

class ShapeOp : public OpKernel {
 public:
  explicit ShapeOp(const OpKernelConstruction& c)
      : OpKernel(c), out_type_(c.GetAttr<DType>("out_type").value()) {}
  Status Compute(OpKernelContext* ctx) override {
    const TensorShape& s = ctx->input(0).shape();
    std::vector<int64_t> dims(s.dims());
    for (int i = 0; i < s.dims(); ++i) dims[i] = s.dim_size(i);
    TF_ASSIGN_OR_RETURN(Tensor out, IntTensor(dims, false, out_type_));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }

 private:
  const DType out_type_;
};

class SizeOp : public OpKernel {
 public:
  explicit SizeOp(const OpKernelConstruction& c)
      : OpKernel(c), out_type_(c.GetAttr<DType>("out_type").value()) {}
  Status Compute(OpKernelContext* ctx) override {
    const std::vector<int64_t> n = {ctx->input(0).NumElements()};
    TF_ASSIGN_OR_RETURN(Tensor out, IntTensor(n, true, out_type_));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }

 private:
  const DType out_type_;
};

class RankOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    TF_ASSIGN_OR_RETURN(Tensor out,
                        IntTensor({ctx->input(0).dims()}, true, DT_INT32));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};

MINITF_REGISTER_KERNEL("Reshape", DEVICE_CPU, ReshapeOp);
MINITF_REGISTER_KERNEL("Transpose", DEVICE_CPU, TransposeOp);
MINITF_REGISTER_KERNEL("ConcatV2", DEVICE_CPU, ConcatV2Op);
MINITF_REGISTER_KERNEL("Pack", DEVICE_CPU, PackOp);
MINITF_REGISTER_KERNEL("Slice", DEVICE_CPU, SliceOp);
MINITF_REGISTER_KERNEL("Fill", DEVICE_CPU, FillOp);
MINITF_REGISTER_KERNEL("ZerosLike", DEVICE_CPU,
                       internal::UnaryOp<kernels::ZerosLike>);
MINITF_REGISTER_KERNEL("OnesLike", DEVICE_CPU,
                       internal::UnaryOp<kernels::OnesLike>);
MINITF_REGISTER_KERNEL("OneHot", DEVICE_CPU, OneHotOp);
MINITF_REGISTER_KERNEL("Shape", DEVICE_CPU, ShapeOp);
MINITF_REGISTER_KERNEL("Size", DEVICE_CPU, SizeOp);
MINITF_REGISTER_KERNEL("Rank", DEVICE_CPU, RankOp);

}  // namespace
}  // namespace minitf
