// CPU kernels of the random ops.
//
// Each kernel owns a Philox stream made from the node's (seed, seed2) attrs
// when the kernel is created, that is, once per node per session. Every run
// draws the next numbers from it, under a mutex because a session may run a
// node from several threads at once. So a node gives new numbers on every
// run, and a fresh session with the same seeds repeats the whole sequence.
// Seeds (0, 0) mean "unseeded": the kernel picks its own at random.
#include <mutex>
#include <random>
#include <vector>

#include "minitf/graph/kernel.h"
#include "minitf/graph/shape_inference.h"
#include "minitf/tensor/kernels/philox.h"
#include "minitf/tensor/kernels/random_ops.h"

namespace minitf {
namespace {

kernels::PhiloxStream MakeStream(const OpKernelConstruction& c) {
  auto seed = static_cast<uint64_t>(c.GetAttr<int64_t>("seed").value());
  auto seed2 = static_cast<uint64_t>(c.GetAttr<int64_t>("seed2").value());
  if (seed == 0 && seed2 == 0) {
    std::random_device device;
    seed = (uint64_t{device()} << 32) | device();
    seed2 = (uint64_t{device()} << 32) | device();
  }
  return kernels::PhiloxStream(seed, seed2);
}

StatusOr<std::vector<int64_t>> ShapeInput(OpKernelContext* ctx) {
  const Tensor& t = ctx->input(0);
  if (t.dims() != 1) {
    return errors::InvalidArgument(
        "shape must be a vector of {int32,int64}, "
        "got shape ",
        ShapeErrorString(t.shape()));
  }
  return IndexValues(t);
}

// --8<-- [start:random_kernel]
// What every random kernel keeps: the output's dtype, from the attr
// `dtype_attr`, and its own Philox stream, drawn from under mu_.
class RandomKernel : public OpKernel {
 protected:
  RandomKernel(const OpKernelConstruction& c, const char* dtype_attr)
      : OpKernel(c),
        dtype_(c.GetAttr<DType>(dtype_attr).value()),
        stream_(MakeStream(c)) {}

  const DType dtype_;
  std::mutex mu_;
  kernels::PhiloxStream stream_;  // Guarded by mu_.
};

// RandomStandardNormal, TruncatedNormal and RandomUniform: layer 1's
// sampler `Fn` with its two parameters fixed (mean 0 and stddev 1, or the
// range [0, 1)); the graph scales and shifts the result.
template <StatusOr<Tensor> (*Fn)(const std::vector<int64_t>&, DType, double,
                                 double, kernels::PhiloxStream&),
          int kLow, int kHigh>
class RandomOp : public RandomKernel {
 public:
  explicit RandomOp(const OpKernelConstruction& c) : RandomKernel(c, "dtype") {}
  Status Compute(OpKernelContext* ctx) override {
    TF_ASSIGN_OR_RETURN(std::vector<int64_t> shape, ShapeInput(ctx));
    std::lock_guard<std::mutex> lock(mu_);
    TF_ASSIGN_OR_RETURN(Tensor out, Fn(shape, dtype_, kLow, kHigh, stream_));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};
// --8<-- [end:random_kernel]

// RandomUniformInt: the bounds are scalar inputs of the output's dtype.
class RandomUniformIntOp : public RandomKernel {
 public:
  explicit RandomUniformIntOp(const OpKernelConstruction& c)
      : RandomKernel(c, "Tout") {}
  Status Compute(OpKernelContext* ctx) override {
    TF_ASSIGN_OR_RETURN(std::vector<int64_t> shape, ShapeInput(ctx));
    if (ctx->input(1).dims() != 0 || ctx->input(2).dims() != 0) {
      return errors::InvalidArgument("minval and maxval must be scalars");
    }
    TF_ASSIGN_OR_RETURN(std::vector<int64_t> low, IndexValues(ctx->input(1)));
    TF_ASSIGN_OR_RETURN(std::vector<int64_t> high, IndexValues(ctx->input(2)));
    std::lock_guard<std::mutex> lock(mu_);
    TF_ASSIGN_OR_RETURN(
        Tensor out,
        kernels::RandomUniform(shape, dtype_, static_cast<double>(low[0]),
                               static_cast<double>(high[0]), stream_));
    ctx->set_output(0, std::move(out));
    return Status::OK();
  }
};

// Named, since a template argument list's commas would split the macro's.
using RandomStandardNormalOp = RandomOp<kernels::RandomNormal, 0, 1>;
using TruncatedNormalOp = RandomOp<kernels::TruncatedNormal, 0, 1>;
using RandomUniformOp = RandomOp<kernels::RandomUniform, 0, 1>;
MINITF_REGISTER_KERNEL("RandomStandardNormal", DEVICE_CPU,
                       RandomStandardNormalOp);
MINITF_REGISTER_KERNEL("TruncatedNormal", DEVICE_CPU, TruncatedNormalOp);
MINITF_REGISTER_KERNEL("RandomUniform", DEVICE_CPU, RandomUniformOp);
MINITF_REGISTER_KERNEL("RandomUniformInt", DEVICE_CPU, RandomUniformIntOp);

}  // namespace
}  // namespace minitf
