// The engine's GPU ops on tensors: chapter 1's kernels (cwise_ops.h,
// reduction_ops.h, nn_ops.h, matmul.h, array_ops.h), layer 2's BiasAdd,
// layer 3's cross-entropy losses and optimizer updates, for tensors whose
// data lie in a GPU's memory.
//
// Each function checks its inputs as the CPU kernel does, with chapter 1's
// checks (tensor/kernels/checks.h) where the op is chapter 1's, and returns the
// same errors, in the same words, for bad shapes and dtypes; then allocates
// its outputs and enqueues the GPU kernels (kernels/backend.h) on ctx.stream.
// It returns as soon as the work is queued: the caller synchronizes before
// it reads a result on the host. Outputs and temporaries come from the
// calling thread's default allocator (allocator.h), which the executor sets
// to the GPU device's around a kernel; their bytes are never touched on the
// host. A temporary is freed as soon as its kernels are queued, which is
// safe because the device's allocator hands memory only to work on the same
// stream, which runs in order (TensorFlow's rule for its GPU allocator);
// plain cudaFree waits for the device.
//
//   GpuStreamContext ctx{&EmulatedGpuKernels(), stream};
//   StatusOr<Tensor> z = gpu::Binary(ctx, BinaryOp::kAdd, x, y);  // [2,3]+[3]
//   StatusOr<Tensor> s = gpu::Reduce(ctx, ReduceOp::kSum, x, {{1}}, false);
//   ctx.kernels->Synchronize(ctx.stream);
//
// Where the GPU differs from the CPU kernels, by necessity (their errors
// need a look at the data, which is on the device):
//   - integer division by zero gives 0 instead of InvalidArgument;
//   - SparseSoftmaxCrossEntropyWithLogits gives NaN loss and backprop for a
//     row whose label is outside [0, classes), as TensorFlow's GPU kernel
//     does, instead of InvalidArgument;
//   - MatMul takes float and double only, as TensorFlow registers it for the
//     GPU; the other dtypes are InvalidArgument.
#pragma once

#include <vector>

#include "minitf/gpu/kernels/backend.h"
#include "minitf/tensor/kernels/reduction_ops.h"
#include "minitf/tensor/status.h"
#include "minitf/tensor/tensor.h"

namespace minitf::gpu {

/// Where a GPU op runs: the backend's kernels and the stream to queue on.
/// REQUIRES: kernels is not null.
struct GpuStreamContext {
  const GpuKernels* kernels;
  GpuStream stream;
};

// Every input tensor's data is a device pointer (Tensor::device_data) of
// ctx.kernels' backend.

/// kernels::Neg ... kernels::LogicalNot, and Reciprocal (float, double).
StatusOr<Tensor> Unary(const GpuStreamContext& ctx, UnaryOp op,
                       const Tensor& x);
/// kernels::Add ... kernels::LogicalOr, broadcasting as chapter 1 does over
/// at most BroadcastLoops::kMaxDims merged dimensions (Unimplemented
/// beyond). Integer division by zero gives 0.
StatusOr<Tensor> Binary(const GpuStreamContext& ctx, BinaryOp op,
                        const Tensor& x, const Tensor& y);
/// value:[..., channels] bias:[channels] -> value + bias; layer 2's checks.
StatusOr<Tensor> BiasAdd(const GpuStreamContext& ctx, const Tensor& value,
                         const Tensor& bias);
/// kernels::Cast; casting to x's own dtype returns x, shared.
StatusOr<Tensor> Cast(const GpuStreamContext& ctx, const Tensor& x, DType to);
/// A tensor of `shape` with every element `value`, a scalar in host memory.
StatusOr<Tensor> Fill(const GpuStreamContext& ctx, const TensorShape& shape,
                      const Tensor& value);

/// tf.tile: x repeated multiples[d] times along each axis d; the CPU
/// kernel's checks and messages. At most 8 axes that are tiled or longer
/// than 1, counting each twice that is both.
StatusOr<Tensor> Tile(const GpuStreamContext& ctx, const Tensor& x,
                      const std::vector<int64_t>& multiples);
/// tf.broadcast_to: x aligned with `shape` at the last axis, its axes of 1
/// repeated; the CPU kernel's checks and messages.
StatusOr<Tensor> BroadcastTo(const GpuStreamContext& ctx, const Tensor& x,
                             const std::vector<int64_t>& shape);

/// Chapter 1's array kernels (array_ops.h), their checks and plans shared
/// with the CPU's: Transpose (at most BroadcastLoops::kMaxDims axes after
/// merging neighbours, Unimplemented beyond), Concat (ConcatV2), Stack
/// (Pack) and Slice.
StatusOr<Tensor> Transpose(const GpuStreamContext& ctx, const Tensor& x,
                           const std::vector<int>& perm);
StatusOr<Tensor> Concat(const GpuStreamContext& ctx,
                        const std::vector<Tensor>& values, int axis);
StatusOr<Tensor> Stack(const GpuStreamContext& ctx,
                       const std::vector<Tensor>& values, int axis);
StatusOr<Tensor> Slice(const GpuStreamContext& ctx, const Tensor& x,
                       const std::vector<int64_t>& begin,
                       const std::vector<int64_t>& size);

/// kernels::ReduceSum ... ReduceMin: numbers, any axes (std::nullopt: all).
StatusOr<Tensor> Reduce(const GpuStreamContext& ctx, ReduceOp op,
                        const Tensor& x, const kernels::Axes& axes,
                        bool keep_dims);
/// kernels::ArgMax and ArgMin, with TensorFlow's output_type (int32 or
/// int64).
StatusOr<Tensor> ArgMax(const GpuStreamContext& ctx, const Tensor& x, int axis,
                        DType output_type);
StatusOr<Tensor> ArgMin(const GpuStreamContext& ctx, const Tensor& x, int axis,
                        DType output_type);

/// kernels::Softmax and LogSoftmax over the last axis.
StatusOr<Tensor> Softmax(const GpuStreamContext& ctx, const Tensor& logits);
StatusOr<Tensor> LogSoftmax(const GpuStreamContext& ctx, const Tensor& logits);

/// logits, labels:[batch, classes] -> *loss:[batch], *backprop:[batch,
/// classes]; layer 3's checks.
Status SoftmaxCrossEntropyWithLogits(const GpuStreamContext& ctx,
                                     const Tensor& logits, const Tensor& labels,
                                     Tensor* loss, Tensor* backprop);
/// labels:[batch] int32 or int64. A label outside [0, classes) gives that
/// row NaN loss and backprop (TensorFlow's GPU kernel), not an error.
Status SparseSoftmaxCrossEntropyWithLogits(const GpuStreamContext& ctx,
                                           const Tensor& logits,
                                           const Tensor& labels, Tensor* loss,
                                           Tensor* backprop);

/// kernels::MatMul for float and double.
StatusOr<Tensor> MatMul(const GpuStreamContext& ctx, const Tensor& a,
                        const Tensor& b, bool transpose_a, bool transpose_b);

/// Layer 3's optimizer updates, in place on *var and its slots, whose
/// buffers the caller has made writable. Hyperparameters are 0-d tensors in
/// device memory. Errors as layer 3's kernels: "var and grad do not have
/// the same shape[2] [3]", "lr is not a scalar: [2]", "ApplyAdam does not
/// support int32".
Status ApplyGradientDescent(const GpuStreamContext& ctx, Tensor* var,
                            const Tensor& alpha, const Tensor& delta);
Status ApplyMomentum(const GpuStreamContext& ctx, Tensor* var, Tensor* accum,
                     const Tensor& lr, const Tensor& grad,
                     const Tensor& momentum, bool use_nesterov);
Status ApplyAdam(const GpuStreamContext& ctx, Tensor* var, Tensor* m, Tensor* v,
                 const Tensor& beta1_power, const Tensor& beta2_power,
                 const Tensor& lr, const Tensor& beta1, const Tensor& beta2,
                 const Tensor& epsilon, const Tensor& grad, bool use_nesterov);
Status ApplyRMSProp(const GpuStreamContext& ctx, Tensor* var, Tensor* ms,
                    Tensor* mom, const Tensor& lr, const Tensor& rho,
                    const Tensor& momentum, const Tensor& epsilon,
                    const Tensor& grad);

}  // namespace minitf::gpu
