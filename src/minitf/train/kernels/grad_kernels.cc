// CPU kernels of the ops autodiff adds (ops/grad_ops.h).
#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "minitf/graph/kernel.h"
#include "minitf/graph/kernels/function_kernels.h"
#include "minitf/graph/shape_inference.h"
#include "minitf/tensor/kernels/cwise_ops.h"
#include "minitf/tensor/kernels/nn_ops.h"

namespace minitf {
namespace {

std::string Join(const std::vector<int64_t>& v, const char* sep) {
  std::ostringstream out;
  for (size_t i = 0; i < v.size(); ++i) out << (i ? sep : "") << v[i];
  return out.str();
}

class StopGradientOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    ctx->set_output(0, ctx->input(0));
    return Status::OK();
  }
};

// --8<-- [start:bcast_args]
// Aligns the two shapes at their last axis, padding the shorter with 1s.
// An axis where one side is 1 (or missing) and the broadcast is not was
// stretched for that side: its gradient must be summed over that axis.
class BroadcastGradientArgsOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    TF_ASSIGN_OR_RETURN(std::vector<int64_t> s0, IndexValues(ctx->input(0)));
    TF_ASSIGN_OR_RETURN(std::vector<int64_t> s1, IndexValues(ctx->input(1)));
    const size_t rank = std::max(s0.size(), s1.size());
    s0.insert(s0.begin(), rank - s0.size(), 1);
    s1.insert(s1.begin(), rank - s1.size(), 1);
    std::vector<int64_t> r0, r1;
    for (size_t i = 0; i < rank; ++i) {
      if (s0[i] != s1[i] && s0[i] != 1 && s1[i] != 1) {
        return errors::InvalidArgument("Incompatible shapes: [", Join(s0, ","),
                                       "] vs. [", Join(s1, ","), "]");
      }
      const int64_t out = std::max(s0[i], s1[i]);
      if (s0[i] == 1 && out != 1) r0.push_back(static_cast<int64_t>(i));
      if (s1[i] == 1 && out != 1) r1.push_back(static_cast<int64_t>(i));
    }
    TF_ASSIGN_OR_RETURN(Tensor out0, ToIndexTensor(r0, ctx->input(0).dtype()));
    TF_ASSIGN_OR_RETURN(Tensor out1, ToIndexTensor(r1, ctx->input(0).dtype()));
    ctx->set_output(0, std::move(out0));
    ctx->set_output(1, std::move(out1));
    return Status::OK();
  }

 private:
  static StatusOr<Tensor> ToIndexTensor(const std::vector<int64_t>& v,
                                        DType dtype) {
    TF_ASSIGN_OR_RETURN(
        Tensor t,
        Tensor::Allocate(dtype, TensorShape({static_cast<int64_t>(v.size())})));
    for (size_t i = 0; i < v.size(); ++i) {
      if (dtype == DT_INT32) {
        t.data<int32_t>()[i] = static_cast<int32_t>(v[i]);
      } else {
        t.data<int64_t>()[i] = v[i];
      }
    }
    return t;
  }
};
// --8<-- [end:bcast_args]

// Zero padding: each input element is copied to its place in the zeroed
// output.
class PadOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    // paddings [rank,2], read as a flat (before, after) list.
    TF_ASSIGN_OR_RETURN(
        Tensor flat,
        ctx->input(1).Reshaped(TensorShape({ctx->input(1).NumElements()})));
    TF_ASSIGN_OR_RETURN(std::vector<int64_t> p, IndexValues(flat));
    const int rank = in.dims();
    if (static_cast<int>(p.size()) != 2 * rank) {
      return errors::InvalidArgument(
          "The first dimension of paddings must be the rank of inputs[", rank,
          ",2] ", ShapeErrorString(in.shape()));
    }
    std::vector<int64_t> out_dims(rank);
    for (int d = 0; d < rank; ++d) {
      if (p[2 * d] < 0 || p[2 * d + 1] < 0) {
        return errors::InvalidArgument("Paddings must be non-negative");
      }
      out_dims[d] = in.dim_size(d) + p[2 * d] + p[2 * d + 1];
    }
    TF_ASSIGN_OR_RETURN(Tensor out,
                        Tensor::Allocate(in.dtype(), TensorShape(out_dims)));
    switch (in.dtype()) {
      case DT_FLOAT:
        Copy<float>(in, p, &out);
        break;
      case DT_DOUBLE:
        Copy<double>(in, p, &out);
        break;
      case DT_INT32:
        Copy<int32_t>(in, p, &out);
        break;
      case DT_INT64:
        Copy<int64_t>(in, p, &out);
        break;
      default:
        return errors::Unimplemented("Pad of ", DataTypeString(in.dtype()));
    }
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }

 private:
  template <typename T>
  static void Copy(const Tensor& in, const std::vector<int64_t>& p,
                   Tensor* out) {
    const int rank = in.dims();
    T* dst = out->data<T>();
    const T* src = in.data<T>();
    std::fill(dst, dst + out->NumElements(), T(0));
    std::vector<int64_t> out_strides(rank, 1);
    for (int d = rank - 2; d >= 0; --d) {
      out_strides[d] = out_strides[d + 1] * out->dim_size(d + 1);
    }
    for (int64_t i = 0; i < in.NumElements(); ++i) {
      int64_t rest = i, offset = 0;
      for (int d = rank - 1; d >= 0; --d) {
        const int64_t coord = rest % in.dim_size(d);
        rest /= in.dim_size(d);
        offset += (coord + p[2 * d]) * out_strides[d];
      }
      dst[offset] = src[i];
    }
  }
};

// --8<-- [start:xent]
// Per row: loss = -sum(labels * log_softmax(logits)), and backprop =
// softmax(logits) * sum(labels) - labels, the gradient of the loss with
// respect to the logits. Layer 1's LogSoftmax shifts by the row's maximum,
// so nothing overflows, and computes exp() for the whole batch in one
// vectorised pass; softmax is exp(log_softmax), one more such pass.
template <typename T>
Status Xent(const Tensor& logits, auto label_of, Tensor* loss,
            Tensor* backprop) {
  TF_ASSIGN_OR_RETURN(Tensor log_p, kernels::LogSoftmax(logits));
  backprop->flat<T>() = log_p.flat<T>().exp();
  const int64_t batch = logits.dim_size(0), classes = logits.dim_size(1);
  for (int64_t b = 0; b < batch; ++b) {
    const T* lp = log_p.data<T>() + b * classes;
    T* g = backprop->data<T>() + b * classes;
    T l = 0, label_sum = 0;
    for (int64_t c = 0; c < classes; ++c) {
      const T label = label_of(b, c);
      l -= label * lp[c];
      label_sum += label;
    }
    for (int64_t c = 0; c < classes; ++c) {
      g[c] = g[c] * label_sum - label_of(b, c);
    }
    loss->data<T>()[b] = l;
  }
  return Status::OK();
}
// --8<-- [end:xent]

class XentOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    const Tensor& logits = ctx->input(0);
    const Tensor& labels = ctx->input(1);
    if (logits.dims() != 2 || labels.shape() != logits.shape()) {
      return errors::InvalidArgument(
          "logits and labels must be same size and 2-D: logits_size=",
          ShapeErrorString(logits.shape()),
          " labels_size=", ShapeErrorString(labels.shape()));
    }
    if (logits.dtype() == DT_FLOAT) return Run<float>(ctx);
    return Run<double>(ctx);
  }

 private:
  template <typename T>
  static Status Run(OpKernelContext* ctx) {
    const Tensor& logits = ctx->input(0);
    const int64_t batch = logits.dim_size(0), classes = logits.dim_size(1);
    const T* labels = ctx->input(1).data<T>();
    TF_ASSIGN_OR_RETURN(Tensor loss,
                        Tensor::Allocate(logits.dtype(), TensorShape({batch})));
    TF_ASSIGN_OR_RETURN(Tensor backprop,
                        Tensor::Allocate(logits.dtype(), logits.shape()));
    TF_RETURN_IF_ERROR(Xent<T>(
        logits, [&](int64_t b, int64_t c) { return labels[b * classes + c]; },
        &loss, &backprop));
    ctx->set_output(0, std::move(loss));
    ctx->set_output(1, std::move(backprop));
    return Status::OK();
  }
};

class SparseXentOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    const Tensor& logits = ctx->input(0);
    if (logits.dims() != 2 || ctx->input(1).dims() != 1 ||
        ctx->input(1).dim_size(0) != logits.dim_size(0)) {
      return errors::InvalidArgument(
          "logits must be 2-D and labels 1-D with the same first dimension: "
          "logits_size=",
          ShapeErrorString(logits.shape()),
          " labels_size=", ShapeErrorString(ctx->input(1).shape()));
    }
    TF_ASSIGN_OR_RETURN(std::vector<int64_t> ids, IndexValues(ctx->input(1)));
    for (size_t b = 0; b < ids.size(); ++b) {
      if (ids[b] < 0 || ids[b] >= logits.dim_size(1)) {
        return errors::InvalidArgument(
            "Received a label value of ", ids[b],
            " which is outside the valid range of [0, ", logits.dim_size(1),
            ").  Label values: ", Join(ids, " "));
      }
    }
    if (logits.dtype() == DT_FLOAT) return Run<float>(ctx, ids);
    return Run<double>(ctx, ids);
  }

 private:
  template <typename T>
  static Status Run(OpKernelContext* ctx, const std::vector<int64_t>& ids) {
    const Tensor& logits = ctx->input(0);
    TF_ASSIGN_OR_RETURN(
        Tensor loss,
        Tensor::Allocate(logits.dtype(), TensorShape({logits.dim_size(0)})));
    TF_ASSIGN_OR_RETURN(Tensor backprop,
                        Tensor::Allocate(logits.dtype(), logits.shape()));
    TF_RETURN_IF_ERROR(Xent<T>(
        logits, [&](int64_t b, int64_t c) { return T(ids[b] == c ? 1 : 0); },
        &loss, &backprop));
    ctx->set_output(0, std::move(loss));
    ctx->set_output(1, std::move(backprop));
    return Status::OK();
  }
};

}  // namespace

MINITF_REGISTER_KERNEL("StopGradient", "CPU", StopGradientOp);
MINITF_REGISTER_KERNEL("BroadcastGradientArgs", "CPU", BroadcastGradientArgsOp);
MINITF_REGISTER_KERNEL("Pad", "CPU", PadOp);
MINITF_REGISTER_KERNEL("ReluGrad", "CPU",
                       internal::BinaryOp<kernels::ReluGrad>);
MINITF_REGISTER_KERNEL("SoftmaxCrossEntropyWithLogits", "CPU", XentOp);
MINITF_REGISTER_KERNEL("SparseSoftmaxCrossEntropyWithLogits", "CPU",
                       SparseXentOp);

}  // namespace minitf
