// CPU kernels of the ops autodiff adds (ops/grad_ops.h).
#include <algorithm>
#include <cmath>
#include <sstream>
#include <type_traits>
#include <vector>

#include "minitf/graph/kernel.h"
#include "minitf/graph/kernels/function_kernels.h"
#include "minitf/graph/shape_inference.h"
#include "minitf/tensor/kernels/broadcast.h"
#include "minitf/tensor/kernels/checks.h"
#include "minitf/tensor/kernels/cwise_ops.h"
#include "minitf/tensor/kernels/nn_ops.h"

namespace minitf {
namespace {

std::string Join(const std::vector<int64_t>& v, const char* sep) {
  std::ostringstream out;
  for (size_t i = 0; i < v.size(); ++i) out << (i ? sep : "") << v[i];
  return out.str();
}

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
    SwitchDType(in.dtype(), [&]<typename T>() { Copy<T>(in, p, &out); });
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

// The strides of a row-major shape: how far one step along each axis moves.
std::vector<int64_t> Strides(const TensorShape& shape) {
  std::vector<int64_t> strides(shape.dims(), 1);
  for (int d = shape.dims() - 2; d >= 0; --d) {
    strides[d] = strides[d + 1] * shape.dim_size(d + 1);
  }
  return strides;
}

// Copies into each element of `out` the element of `in` that `source` maps
// its coordinates to: the one loop behind Tile and BroadcastTo.
Status Gather(const Tensor& in, Tensor* out, auto source) {
  const int rank = out->dims();
  const std::vector<int64_t> in_strides = Strides(in.shape());
  std::vector<int64_t> coord(rank);
  return SwitchDType(in.dtype(), [&]<typename T>() {
    const T* src = in.data<T>();
    T* dst = out->data<T>();
    for (int64_t i = 0; i < out->NumElements(); ++i) {
      int64_t rest = i;
      for (int d = rank - 1; d >= 0; --d) {
        coord[d] = rest % out->dim_size(d);
        rest /= out->dim_size(d);
      }
      dst[i] = src[source(coord, in_strides)];
    }
    return Status::OK();
  });
}

// `in` stretched to the shape `to`, aligned at the last axis: an axis of 1
// repeats. REQUIRES: `to` is a broadcast of in's shape.
StatusOr<Tensor> Broadcast(const Tensor& in, const TensorShape& to) {
  TF_ASSIGN_OR_RETURN(Tensor out, Tensor::Allocate(in.dtype(), to));
  const int skip = to.dims() - in.dims();
  TF_RETURN_IF_ERROR(
      Gather(in, &out, [&](const std::vector<int64_t>& c, const auto& strides) {
        int64_t offset = 0;
        for (int d = 0; d < in.dims(); ++d) {
          if (in.dim_size(d) != 1) offset += c[d + skip] * strides[d];
        }
        return offset;
      }));
  return out;
}

// Tile: output coordinate c reads input coordinate c mod in.dim.
class TileOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    TF_ASSIGN_OR_RETURN(std::vector<int64_t> m, IndexValues(ctx->input(1)));
    TF_ASSIGN_OR_RETURN(TensorShape shape, kernels::CheckTile(in.shape(), m));
    TF_ASSIGN_OR_RETURN(Tensor out, Tensor::Allocate(in.dtype(), shape));
    TF_RETURN_IF_ERROR(Gather(
        in, &out, [&](const std::vector<int64_t>& c, const auto& strides) {
          int64_t offset = 0;
          for (size_t d = 0; d < c.size(); ++d) {
            offset += (c[d] % in.dim_size(d)) * strides[d];
          }
          return offset;
        }));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};

// BroadcastTo: the input aligned at the last axis; an axis of 1 repeats.
class BroadcastToOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    TF_ASSIGN_OR_RETURN(std::vector<int64_t> dims, IndexValues(ctx->input(1)));
    TF_RETURN_IF_ERROR(kernels::CheckBroadcastTo(in.shape(), dims));
    TF_ASSIGN_OR_RETURN(Tensor out, Broadcast(in, TensorShape(dims)));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};

// ExpandDims: the same elements under a shape with one more 1.
class ExpandDimsOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    const Tensor& in = ctx->input(0);
    TF_ASSIGN_OR_RETURN(std::vector<int64_t> d, IndexValues(ctx->input(1)));
    const int rank = in.dims() + 1;
    if (d.size() != 1 || d[0] < -rank || d[0] >= rank) {
      return errors::InvalidArgument("Tried to expand dim index ",
                                     d.empty() ? 0 : d[0], " for tensor with ",
                                     in.dims(), " dimensions.");
    }
    std::vector<int64_t> dims;
    for (int i = 0; i < in.dims(); ++i) dims.push_back(in.dim_size(i));
    dims.insert(dims.begin() + (d[0] < 0 ? d[0] + rank : d[0]), 1);
    TF_ASSIGN_OR_RETURN(Tensor out, in.Reshaped(TensorShape(dims)));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};

class ReciprocalOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    TF_ASSIGN_OR_RETURN(Tensor y, Tensor::Allocate(x.dtype(), x.shape()));
    if (x.dtype() == DT_FLOAT) {
      y.flat<float>() = x.flat<float>().inverse();
    } else {
      y.flat<double>() = x.flat<double>().inverse();
    }
    ctx->set_output(0, std::move(y));
    return Status::OK();
  }
};

// FloorMod with NumPy broadcasting: layer 1's shape rule, then both inputs
// stretched as BroadcastTo stretches them.
class FloorModOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    const Tensor& y = ctx->input(1);
    TF_ASSIGN_OR_RETURN(const TensorShape shape,
                        kernels::BroadcastShapes(x.shape(), y.shape()));
    TF_ASSIGN_OR_RETURN(Tensor bx, Broadcast(x, shape));
    TF_ASSIGN_OR_RETURN(Tensor by, Broadcast(y, shape));
    TF_ASSIGN_OR_RETURN(Tensor z, Tensor::Allocate(x.dtype(), shape));
    Status status = SwitchDType(x.dtype(), [&]<typename T>() {
      const T* a = bx.data<T>();
      const T* b = by.data<T>();
      T* out = z.data<T>();
      for (int64_t i = 0; i < z.NumElements(); ++i) {
        // bool is integral too, but has no sign to compare: the op's dtypes
        // leave it out, and its branch says so rather than compare.
        if constexpr (std::is_same_v<T, bool>) {
          return errors::InvalidArgument("FloorMod does not support bool");
        } else if constexpr (std::is_integral_v<T>) {
          if (b[i] == 0)
            return errors::InvalidArgument("Integer division by zero");
          T r = a[i] % b[i];
          if (r != 0 && ((r < 0) != (b[i] < 0))) r += b[i];
          out[i] = r;
        } else {
          T r = std::fmod(a[i], b[i]);
          if (r != 0 && ((r < 0) != (b[i] < 0))) r += b[i];
          out[i] = r;
        }
      }
      return Status::OK();
    });
    TF_RETURN_IF_ERROR(status);
    ctx->set_output(0, std::move(z));
    return Status::OK();
  }
};

// GatherV2 (batch_dims 0): for each index, the slice of params at it along
// `axis`, copied as outer x inner blocks.
class GatherV2Op : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    const Tensor& params = ctx->input(0);
    TF_ASSIGN_OR_RETURN(
        std::vector<int64_t> indices,
        IndexValues(
            ctx->input(1).dims() > 1
                ? ctx->input(1)
                      .Reshaped(TensorShape({ctx->input(1).NumElements()}))
                      .value()
                : ctx->input(1)));
    TF_ASSIGN_OR_RETURN(std::vector<int64_t> a, IndexValues(ctx->input(2)));
    const int64_t axis = a[0] < 0 ? a[0] + params.dims() : a[0];
    if (axis < 0 || axis >= params.dims()) {
      return errors::InvalidArgument("Expected axis in the range [",
                                     -params.dims(), ", ", params.dims(),
                                     "), but got ", a[0]);
    }
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < axis; ++d) outer *= params.dim_size(d);
    for (int d = axis + 1; d < params.dims(); ++d) inner *= params.dim_size(d);
    const int64_t limit = params.dim_size(axis);
    std::vector<int64_t> dims;
    for (int d = 0; d < axis; ++d) dims.push_back(params.dim_size(d));
    for (int d = 0; d < ctx->input(1).dims(); ++d) {
      dims.push_back(ctx->input(1).dim_size(d));
    }
    for (int d = axis + 1; d < params.dims(); ++d) {
      dims.push_back(params.dim_size(d));
    }
    for (int64_t index : indices) {
      if (index < 0 || index >= limit) {
        return errors::InvalidArgument("indices = ", index, " is not in [0, ",
                                       limit, ")");
      }
    }
    TF_ASSIGN_OR_RETURN(Tensor out,
                        Tensor::Allocate(params.dtype(), TensorShape(dims)));
    SwitchDType(params.dtype(), [&]<typename T>() {
      const T* src = params.data<T>();
      T* dst = out.data<T>();
      for (int64_t o = 0; o < outer; ++o) {
        for (size_t i = 0; i < indices.size(); ++i) {
          std::copy_n(src + (o * limit + indices[i]) * inner, inner, dst);
          dst += inner;
        }
      }
    });
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};

class RangeOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    const DType dtype = ctx->input(0).dtype();
    return SwitchDType(dtype, [&]<typename T>() -> Status {
      const T start = ctx->input(0).scalar<T>();
      const T limit = ctx->input(1).scalar<T>();
      const T delta = ctx->input(2).scalar<T>();
      if (delta == 0) return errors::InvalidArgument("Requires delta != 0");
      if (delta > 0 ? start > limit : start < limit) {
        return errors::InvalidArgument(
            "Requires start <= limit when delta > 0: ", start, "/", limit);
      }
      const int64_t n = static_cast<int64_t>(std::ceil(std::abs(
          static_cast<double>(limit - start) / static_cast<double>(delta))));
      TF_ASSIGN_OR_RETURN(Tensor out,
                          Tensor::Allocate(dtype, TensorShape({n})));
      for (int64_t i = 0; i < n; ++i) {
        out.data<T>()[i] = static_cast<T>(start + static_cast<T>(i) * delta);
      }
      ctx->set_output(0, std::move(out));
      return Status::OK();
    });
  }
};

// DynamicStitch: merged[indices[i][j]] = data[i][j] (a slice of
// data[i] per index), in input order, so a later index wins.
class DynamicStitchOp : public OpKernel {
 public:
  using OpKernel::OpKernel;
  Status Compute(OpKernelContext* ctx) override {
    const int n = ctx->num_inputs() / 2;
    std::vector<std::vector<int64_t>> indices(n);
    int64_t first = 0;
    for (int i = 0; i < n; ++i) {
      const Tensor& t = ctx->input(i);
      TF_ASSIGN_OR_RETURN(Tensor flat,
                          t.Reshaped(TensorShape({t.NumElements()})));
      TF_ASSIGN_OR_RETURN(indices[i], IndexValues(flat));
      for (int64_t index : indices[i]) {
        if (index < 0) {
          return errors::InvalidArgument("DynamicStitch: index ", index,
                                         " is negative");
        }
        first = std::max(first, index + 1);
      }
    }
    const Tensor& data0 = ctx->input(n);
    const int index_rank = ctx->input(0).dims();
    std::vector<int64_t> dims = {first};
    int64_t slice = 1;
    for (int d = index_rank; d < data0.dims(); ++d) {
      dims.push_back(data0.dim_size(d));
      slice *= data0.dim_size(d);
    }
    for (int i = 0; i < n; ++i) {
      if (ctx->input(n + i).NumElements() !=
          static_cast<int64_t>(indices[i].size()) * slice) {
        return errors::InvalidArgument(
            "DynamicStitch: data[", i, "] has shape ",
            ShapeErrorString(ctx->input(n + i).shape()),
            ", which does not match indices[", i, "]");
      }
    }
    TF_ASSIGN_OR_RETURN(Tensor out,
                        Tensor::Allocate(data0.dtype(), TensorShape(dims)));
    SwitchDType(data0.dtype(), [&]<typename T>() {
      T* dst = out.data<T>();
      std::fill(dst, dst + out.NumElements(), T{});
      for (int i = 0; i < n; ++i) {
        const T* src = ctx->input(n + i).data<T>();
        for (size_t j = 0; j < indices[i].size(); ++j) {
          std::copy_n(src + j * slice, slice, dst + indices[i][j] * slice);
        }
      }
    });
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};

}  // namespace

MINITF_REGISTER_KERNEL("Tile", "CPU", TileOp);
MINITF_REGISTER_KERNEL("BroadcastTo", "CPU", BroadcastToOp);
MINITF_REGISTER_KERNEL("ExpandDims", "CPU", ExpandDimsOp);
MINITF_REGISTER_KERNEL("Reciprocal", "CPU", ReciprocalOp);
MINITF_REGISTER_KERNEL("FloorMod", "CPU", FloorModOp);
MINITF_REGISTER_KERNEL("GatherV2", "CPU", GatherV2Op);
MINITF_REGISTER_KERNEL("Range", "CPU", RangeOp);
MINITF_REGISTER_KERNEL("DynamicStitch", "CPU", DynamicStitchOp);
MINITF_REGISTER_KERNEL("StopGradient", "CPU", internal::IdentityOp);
MINITF_REGISTER_KERNEL("BroadcastGradientArgs", "CPU", BroadcastGradientArgsOp);
MINITF_REGISTER_KERNEL("Pad", "CPU", PadOp);
MINITF_REGISTER_KERNEL("ReluGrad", "CPU",
                       internal::BinaryOp<kernels::ReluGrad>);
MINITF_REGISTER_KERNEL("SoftmaxCrossEntropyWithLogits", "CPU", XentOp);
MINITF_REGISTER_KERNEL("SparseSoftmaxCrossEntropyWithLogits", "CPU",
                       SparseXentOp);

}  // namespace minitf
