// GpuKernels: the engine's GPU kernels as one interface, whichever backend
// runs them.
//
// The kernels are written once, in CUDA C++ (kernels/device/*.cuh), and built
// twice: by the host compiler against the CPU emulator of CUDA
// (EmulatedGpuKernels, always there) and, where CMake finds nvcc, by nvcc for
// a real GPU (CudaGpuKernels, in the layer library where CMake finds nvcc).
// Engine code must not include either build's headers: cuda.h defines CUDA's
// keywords as macros, and the two builds' cudaStream_t are different types. So
// the engine sees this class instead: raw device pointers, a DType, sizes, and
// the stream as an opaque GpuStream, the backend's cudaStream_t.
//
// Every method only enqueues work on `stream` and returns; the caller
// synchronizes. Pointers are device memory of the backend (on the emulator,
// host memory from its cudaMalloc or any host allocator). Tensor-level
// functions with shape checks are in tensor_ops.h.
//
//   const GpuKernels& k = EmulatedGpuKernels();
//   GpuStream s;  k.CreateStream(&s);
//   k.Unary(s, UnaryOp::kExp, DT_FLOAT, d_x, d_y, n);
//   k.Synchronize(s);
#pragma once

#include <cstddef>
#include <cstdint>

#include "minitf/tensor/dtype.h"
#include "minitf/tensor/status.h"

namespace minitf::gpu {

/// The backend's cudaStream_t; nullptr is the default stream.
using GpuStream = void*;

/// y = f(x), elementwise. kLogicalNot takes bool; kSqrt, kReciprocal, kExp,
/// kLog, kSigmoid and kTanh take float and double; the rest every number.
enum class UnaryOp {
  kNeg,
  kAbs,
  kSign,
  kSquare,
  kSqrt,
  kReciprocal,
  kExp,
  kLog,
  kRelu,
  kSigmoid,
  kTanh,
  kLogicalNot,
};

/// z = f(x, y), elementwise with broadcasting. Comparisons give bool; the
/// logical ops take bool; Equal and NotEqual also take bool; the rest take
/// numbers. kDiv: true division for floats, floor division for integers.
/// kReluGrad: x the incoming gradients, y the features.
enum class BinaryOp {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kMaximum,
  kMinimum,
  kReluGrad,
  kEqual,
  kNotEqual,
  kLess,
  kLessEqual,
  kGreater,
  kGreaterEqual,
  kLogicalAnd,
  kLogicalOr,
};

/// A reduction's combining rule. kMean sums; the last pass divides.
enum class ReduceOp { kSum, kMean, kProd, kMax, kMin };

/// TensorFlow's name of each op, for messages: "Neg", "Add", "Sum" ...
inline const char* OpName(UnaryOp op) {
  constexpr const char* kNames[] = {"Neg",  "Abs",        "Sign", "Square",
                                    "Sqrt", "Reciprocal", "Exp",  "Log",
                                    "Relu", "Sigmoid",    "Tanh", "LogicalNot"};
  return kNames[static_cast<int>(op)];
}
inline const char* OpName(BinaryOp op) {
  constexpr const char* kNames[] = {
      "Add",       "Sub",      "Mul",          "Div",        "Maximum",
      "Minimum",   "ReluGrad", "Equal",        "NotEqual",   "Less",
      "LessEqual", "Greater",  "GreaterEqual", "LogicalAnd", "LogicalOr"};
  return kNames[static_cast<int>(op)];
}
inline const char* OpName(ReduceOp op) {
  constexpr const char* kNames[] = {"Sum", "Mean", "Prod", "Max", "Min"};
  return kNames[static_cast<int>(op)];
}

/// The dtypes each elementwise op has a GPU kernel for: chapter 1's sets
/// (cwise_ops.h), which are also those TensorFlow registers for the GPU
/// among minitf's dtypes.
enum class DTypeSet { kReals, kNumbers, kNumbersAndBool, kBools };
inline DTypeSet TypesOf(UnaryOp op) {
  switch (op) {
    case UnaryOp::kSqrt:
    case UnaryOp::kReciprocal:
    case UnaryOp::kExp:
    case UnaryOp::kLog:
    case UnaryOp::kSigmoid:
    case UnaryOp::kTanh:
      return DTypeSet::kReals;
    case UnaryOp::kLogicalNot:
      return DTypeSet::kBools;
    default:
      return DTypeSet::kNumbers;
  }
}
inline DTypeSet TypesOf(BinaryOp op) {
  switch (op) {
    case BinaryOp::kEqual:
    case BinaryOp::kNotEqual:
      return DTypeSet::kNumbersAndBool;
    case BinaryOp::kLogicalAnd:
    case BinaryOp::kLogicalOr:
      return DTypeSet::kBools;
    default:
      return DTypeSet::kNumbers;
  }
}
/// Whether `dtype` is in `set`.
inline bool Contains(DTypeSet set, DType dtype) {
  const bool real = dtype == DT_FLOAT || dtype == DT_DOUBLE;
  const bool number = real || dtype == DT_INT32 || dtype == DT_INT64;
  switch (set) {
    case DTypeSet::kReals:
      return real;
    case DTypeSet::kNumbers:
      return number;
    case DTypeSet::kNumbersAndBool:
      return number || dtype == DT_BOOL;
    case DTypeSet::kBools:
      return dtype == DT_BOOL;
  }
  return false;
}
/// "float, double": the set as chapter 1's messages list it.
inline const char* Names(DTypeSet set) {
  switch (set) {
    case DTypeSet::kReals:
      return "float, double";
    case DTypeSet::kNumbers:
      return "float, double, int32, int64";
    case DTypeSet::kNumbersAndBool:
      return "float, double, int32, int64, bool";
    case DTypeSet::kBools:
      return "bool";
  }
  return "";
}
/// Whether op's result is bool whatever its inputs (the comparisons).
inline bool ReturnsBool(BinaryOp op) { return op >= BinaryOp::kEqual; }

/// The loops of a broadcast binary op, as chapter 1's BroadcastPlan makes
/// them (merged dimensions, outermost first; stride 0 repeats an input), in
/// a fixed-size struct that a kernel takes by value.
struct BroadcastLoops {
  static constexpr int kMaxDims = 8;
  int rank = 1;
  int64_t dims[kMaxDims] = {};
  int64_t x_strides[kMaxDims] = {};
  int64_t y_strides[kMaxDims] = {};
};

/// The engine's GPU kernels, one method per kernel family.
///
/// Errors: a dtype the family has no kernel for is InvalidArgument naming
/// the op and the dtype; a launch the backend refuses (no device, a bad
/// configuration) is Internal with CUDA's error name and text. Shapes are
/// the caller's to check (tensor_ops.h does).
///
/// Thread safety: every method may be called from any thread.
class GpuKernels {
 public:
  virtual ~GpuKernels() = default;

  /// "emulated" or "cuda": the namespace the kernels were compiled into.
  virtual const char* Name() const = 0;

  // --- devices, memory and streams -----------------------------------------
  /// The number of devices the backend sees; an error where there is no
  /// driver or device, with CUDA's reason.
  virtual StatusOr<int> DeviceCount() const = 0;
  /// `bytes` of device memory; *ptr is nullptr when bytes is 0.
  virtual Status Malloc(void** ptr, size_t bytes) const = 0;
  /// Waits for the device, as cudaFree does. REQUIRES: ptr from Malloc.
  virtual Status Free(void* ptr) const = 0;
  virtual Status CreateStream(GpuStream* stream) const = 0;
  /// Waits for the stream's work, then destroys it.
  virtual Status DestroyStream(GpuStream stream) const = 0;
  /// Waits until the stream's work is done; reports a kernel's failure.
  virtual Status Synchronize(GpuStream stream) const = 0;
  /// Copies queued on `stream`. The host memory must stay valid until the
  /// stream has run them.
  virtual Status CopyHostToDevice(void* dst, const void* src, size_t bytes,
                                  GpuStream stream) const = 0;
  virtual Status CopyDeviceToHost(void* dst, const void* src, size_t bytes,
                                  GpuStream stream) const = 0;

  // --- elementwise (kernels/device/elementwise.cuh) --------------------------
  /// x:[n] -> y:[n], y of x's dtype (bool for kLogicalNot).
  virtual Status Unary(GpuStream stream, UnaryOp op, DType dtype, const void* x,
                       void* y, int64_t n) const = 0;
  /// z:[prod(loops.dims)] = f(x, y) along `loops`; x and y of `dtype`, z of
  /// `dtype`, or bool for comparisons. Integer division by zero gives 0
  /// (a kernel cannot stop the program to report it; see tensor_ops.h).
  virtual Status Binary(GpuStream stream, BinaryOp op, DType dtype,
                        const void* x, const void* y, void* z,
                        const BroadcastLoops& loops) const = 0;
  /// value:[rows, channels] bias:[channels] -> out = value + bias per row.
  virtual Status BiasAdd(GpuStream stream, DType dtype, const void* value,
                         const void* bias, void* out, int64_t rows,
                         int64_t channels) const = 0;
  /// x:[n] of `from` -> y:[n] of `to`, with chapter 1's rules (floats to
  /// integers truncate and saturate, NaN becomes 0).
  virtual Status Cast(GpuStream stream, DType from, DType to, const void* x,
                      void* y, int64_t n) const = 0;
  /// out:[n] = *host_value, a host scalar of `dtype` (read before return).
  virtual Status Fill(GpuStream stream, DType dtype, const void* host_value,
                      void* out, int64_t n) const = 0;
  /// out[i] = x[xi], xi found from i's coordinates along `loops` with its
  /// x_strides (y_strides unused): a gather by strides, which is Tile (a
  /// stride of 0 repeats) and, with permuted strides, a transpose.
  virtual Status StridedCopy(GpuStream stream, DType dtype, const void* x,
                             void* out, const BroadcastLoops& loops) const = 0;

  /// out[r * out_stride + c] = x[r * x_stride + c] for r < rows and c <
  /// cols: rows copied between tensors whose rows differ in length, as
  /// ConcatV2 and Pack write each input into its columns of the output.
  virtual Status CopyRows(GpuStream stream, DType dtype, const void* x,
                          int64_t x_stride, void* out, int64_t out_stride,
                          int64_t rows, int64_t cols) const = 0;

  // --- reductions (kernels/device/reduction.cuh) -----------------------------
  /// x:[outer, middle, inner] -> out:[outer, inner], combined over the middle
  /// axis; then divided by `divisor` (kMean's last pass; 1 otherwise).
  /// `scratch` holds ReduceScratchBytes(...) bytes (may be null when that is
  /// 0). REQUIRES: middle >= 1, outer * inner >= 1.
  virtual Status Reduce(GpuStream stream, ReduceOp op, DType dtype,
                        const void* x, void* out, int64_t outer, int64_t middle,
                        int64_t inner, int64_t divisor,
                        void* scratch) const = 0;
  /// The scratch Reduce needs: partial results when a few long rows are
  /// split over many blocks.
  virtual size_t ReduceScratchBytes(DType dtype, int64_t outer, int64_t middle,
                                    int64_t inner) const = 0;
  /// x:[outer, n, inner] -> out:[outer, inner] of `out_type` (int32 or
  /// int64): the index of the largest (`max`) or smallest value along the
  /// middle axis; the first on ties and the first NaN. REQUIRES: n >= 1.
  virtual Status ArgReduce(GpuStream stream, bool max, DType dtype,
                           const void* x, DType out_type, void* out,
                           int64_t outer, int64_t n, int64_t inner) const = 0;

  // --- softmax (kernels/device/softmax.cuh) ----------------------------------
  /// logits:[rows, classes] -> out:[rows, classes], softmax or log-softmax
  /// of each row, shifted by the row's maximum.
  virtual Status Softmax(GpuStream stream, bool log, DType dtype,
                         const void* logits, void* out, int64_t rows,
                         int64_t classes) const = 0;
  /// logits, labels:[rows, classes] -> loss:[rows], backprop:[rows, classes].
  virtual Status SoftmaxCrossEntropy(GpuStream stream, DType dtype,
                                     const void* logits, const void* labels,
                                     void* loss, void* backprop, int64_t rows,
                                     int64_t classes) const = 0;
  /// labels:[rows] of `label_type` (int32 or int64) class indices. A label
  /// outside [0, classes) makes that row's loss and backprop NaN.
  virtual Status SparseSoftmaxCrossEntropy(GpuStream stream, DType dtype,
                                           DType label_type, const void* logits,
                                           const void* labels, void* loss,
                                           void* backprop, int64_t rows,
                                           int64_t classes) const = 0;

  // --- matmul ---------------------------------------------------------------
  /// c:[m,n] = op(a) op(b), op transposing when asked: a is [m,k] ([k,m]
  /// when transpose_a), b is [k,n] ([n,k]). float and double. `scratch`
  /// holds MatMulScratchBytes(...) bytes. REQUIRES: m, n >= 1.
  virtual Status MatMul(GpuStream stream, DType dtype, const void* a,
                        const void* b, void* c, int64_t m, int64_t n, int64_t k,
                        bool transpose_a, bool transpose_b,
                        void* scratch) const = 0;
  virtual size_t MatMulScratchBytes(DType dtype, int64_t m, int64_t n,
                                    int64_t k, bool transpose_a,
                                    bool transpose_b) const = 0;

  // --- optimizer updates (kernels/device/training.cuh) -----------------------
  // In place on var and its slots, all of n elements; the hyperparameters
  // are device pointers to one value each (0-d tensors on the GPU).
  /// var -= alpha * delta.
  virtual Status ApplyGradientDescent(GpuStream stream, DType dtype, void* var,
                                      const void* alpha, const void* delta,
                                      int64_t n) const = 0;
  /// accum = accum * momentum + grad; var -= lr * accum, or with Nesterov
  /// var -= lr * grad + lr * momentum * accum.
  virtual Status ApplyMomentum(GpuStream stream, DType dtype, void* var,
                               void* accum, const void* lr, const void* grad,
                               const void* momentum, bool use_nesterov,
                               int64_t n) const = 0;
  /// Adam, as layer 3's ApplyAdam kernel (training_ops.h).
  virtual Status ApplyAdam(GpuStream stream, DType dtype, void* var, void* m,
                           void* v, const void* beta1_power,
                           const void* beta2_power, const void* lr,
                           const void* beta1, const void* beta2,
                           const void* epsilon, const void* grad,
                           bool use_nesterov, int64_t n) const = 0;
  /// RMSProp, as layer 3's ApplyRMSProp kernel: ms += (grad² - ms)(1 - rho);
  /// mom = mom * momentum + lr * grad / sqrt(ms + epsilon); var -= mom.
  virtual Status ApplyRMSProp(GpuStream stream, DType dtype, void* var,
                              void* ms, void* mom, const void* lr,
                              const void* rho, const void* momentum,
                              const void* epsilon, const void* grad,
                              int64_t n) const = 0;
};

/// The kernels compiled by the host compiler, run by the CPU emulator of
/// CUDA (minitf_cuda_emulator). MatMul is the course's teaching GEMM.
const GpuKernels& EmulatedGpuKernels();

/// The kernels compiled by nvcc, MatMul by cuBLAS: part of minitf_gpu only
/// where CMake found nvcc. Never null; without a driver or device its
/// methods return CUDA's error.
const GpuKernels* CudaGpuKernels();

}  // namespace minitf::gpu
