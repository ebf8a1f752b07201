// The GpuKernels interface (kernels/backend.h) over the kernels of this folder,
// written once and compiled into each backend: emulated_backend.cc includes
// it with the host compiler (namespace minitf::gpu::emulated), and
// cuda_backend.cu with nvcc (minitf::gpu::cuda). It turns a DType into the
// element type of a kernel template, a cudaError_t into a Status, and the
// opaque GpuStream back into the backend's cudaStream_t. Each backend adds
// MatMul, the one family whose implementation differs: cuBLAS on a GPU, the
// course's GEMMs on the emulator.
//
//   class EmulatedKernels final : public emulated::BackendKernels {
//     Status MatMul(...) const override;  ...  };
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "minitf/gpu/kernels/backend.h"
#include "minitf/gpu/kernels/device/common.cuh"
#include "minitf/gpu/kernels/device/elementwise.cuh"
#include "minitf/gpu/kernels/device/reduction.cuh"
#include "minitf/gpu/kernels/device/softmax.cuh"
#include "minitf/gpu/kernels/device/training.cuh"
#include "minitf/tensor/dtype.h"
#include "minitf/tensor/status.h"

namespace minitf::gpu::MINITF_GPU_BACKEND {

inline cudaStream_t ToStream(GpuStream stream) {
  return static_cast<cudaStream_t>(stream);
}

/// OK for cudaSuccess; else Internal naming what failed and CUDA's error:
/// "GPU kernel Exp: cudaErrorNoDevice: no CUDA-capable device is detected".
inline Status LaunchStatus(const std::string& what, cudaError_t e) {
  if (e == cudaSuccess) return Status::OK();
  return errors::Internal("GPU kernel ", what, ": ", cudaGetErrorName(e), ": ",
                          cudaGetErrorString(e));
}

inline Status RuntimeStatus(const char* call, cudaError_t e) {
  if (e == cudaSuccess) return Status::OK();
  return errors::Internal(call, " failed: ", cudaGetErrorName(e), ": ",
                          cudaGetErrorString(e));
}

/// cudaMemcpyAsync of `bytes` in the direction `kind` on `stream`; no call
/// at all for 0 bytes.
inline Status CopyAsync(void* dst, const void* src, size_t bytes,
                        cudaMemcpyKind kind, GpuStream stream) {
  if (bytes == 0) return Status::OK();
  return RuntimeStatus("cudaMemcpyAsync", cudaMemcpyAsync(dst, src, bytes, kind,
                                                          ToStream(stream)));
}

inline Status NoKernel(const std::string& op, DType dtype) {
  if (!DataTypeIsValid(dtype)) {
    return errors::InvalidArgument("No GPU ", op, " kernel for dtype ",
                                   static_cast<int>(dtype));
  }
  return errors::InvalidArgument("No GPU ", op, " kernel for dtype ", dtype);
}

/// True for float and double.
inline bool IsReal(DType dtype) {
  return dtype == DT_FLOAT || dtype == DT_DOUBLE;
}

/// Everything but MatMul; see the top of this file.
class BackendKernels : public GpuKernels {
 public:
  const char* Name() const override {
#if defined(__CUDACC__)
    return "cuda";
#else
    return "emulated";
#endif
  }

  StatusOr<int> DeviceCount() const override {
    int count = 0;
    TF_RETURN_IF_ERROR(
        RuntimeStatus("cudaGetDeviceCount", cudaGetDeviceCount(&count)));
    return count;
  }
  Status Malloc(void** ptr, size_t bytes) const override {
    *ptr = nullptr;
    if (bytes == 0) return Status::OK();
    // cudaMalloc(void**, size_t): the template overload is inline in both
    // runtimes (cuda.h says why that matters).
    const cudaError_t e = cudaMalloc(ptr, bytes);
    if (e == cudaErrorMemoryAllocation) {
      cudaGetLastError();  // not sticky: clear it for the next launch
      return errors::ResourceExhausted("cudaMalloc of ", bytes,
                                       " bytes: out of device memory");
    }
    return RuntimeStatus("cudaMalloc", e);
  }
  Status Free(void* ptr) const override {
    return RuntimeStatus("cudaFree", cudaFree(ptr));
  }
  Status CreateStream(GpuStream* stream) const override {
    cudaStream_t s = nullptr;
    TF_RETURN_IF_ERROR(RuntimeStatus("cudaStreamCreate", cudaStreamCreate(&s)));
    *stream = s;
    return Status::OK();
  }
  Status DestroyStream(GpuStream stream) const override {
    return RuntimeStatus("cudaStreamDestroy",
                         cudaStreamDestroy(ToStream(stream)));
  }
  Status Synchronize(GpuStream stream) const override {
    return RuntimeStatus("cudaStreamSynchronize",
                         cudaStreamSynchronize(ToStream(stream)));
  }
  Status CopyHostToDevice(void* dst, const void* src, size_t bytes,
                          GpuStream stream) const override {
    return CopyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream);
  }
  Status CopyDeviceToHost(void* dst, const void* src, size_t bytes,
                          GpuStream stream) const override {
    return CopyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream);
  }

  Status Unary(GpuStream stream, UnaryOp op, DType dtype, const void* x,
               void* y, int64_t n) const override {
    if (!Contains(TypesOf(op), dtype)) return NoKernel(OpName(op), dtype);
    return SwitchDType(dtype, [&]<typename T>() {
      return LaunchStatus(
          OpName(op), LaunchUnary<T>(op, static_cast<const T*>(x),
                                     static_cast<T*>(y), n, ToStream(stream)));
    });
  }

  Status Binary(GpuStream stream, BinaryOp op, DType dtype, const void* x,
                const void* y, void* z,
                const BroadcastLoops& loops) const override {
    if (!Contains(TypesOf(op), dtype)) return NoKernel(OpName(op), dtype);
    return SwitchDType(dtype, [&]<typename T>() {
      return LaunchStatus(OpName(op),
                          LaunchBinary<T>(op, static_cast<const T*>(x),
                                          static_cast<const T*>(y), z, loops,
                                          ToStream(stream)));
    });
  }

  Status BiasAdd(GpuStream stream, DType dtype, const void* value,
                 const void* bias, void* out, int64_t rows,
                 int64_t channels) const override {
    if (!Contains(DTypeSet::kNumbers, dtype)) return NoKernel("BiasAdd", dtype);
    return SwitchDType(dtype, [&]<typename T>() {
      if constexpr (std::is_same_v<T, bool>) {
        return NoKernel("BiasAdd", dtype);
      } else {
        return LaunchStatus(
            "BiasAdd",
            LaunchBiasAdd<T>(static_cast<const T*>(value),
                             static_cast<const T*>(bias), static_cast<T*>(out),
                             channels, rows * channels, ToStream(stream)));
      }
    });
  }

  Status Cast(GpuStream stream, DType from, DType to, const void* x, void* y,
              int64_t n) const override {
    if (!DataTypeIsValid(from)) return NoKernel("Cast", from);
    if (!DataTypeIsValid(to)) return NoKernel("Cast", to);
    return SwitchDType(from, [&]<typename From>() {
      return SwitchDType(to, [&]<typename To>() {
        return LaunchStatus(
            "Cast",
            LaunchCast<From, To>(static_cast<const From*>(x),
                                 static_cast<To*>(y), n, ToStream(stream)));
      });
    });
  }

  Status Fill(GpuStream stream, DType dtype, const void* host_value, void* out,
              int64_t n) const override {
    if (!DataTypeIsValid(dtype)) return NoKernel("Fill", dtype);
    return SwitchDType(dtype, [&]<typename T>() {
      // The value travels as a kernel argument, copied at the launch.
      return LaunchStatus(
          "Fill", LaunchFill<T>(*static_cast<const T*>(host_value),
                                static_cast<T*>(out), n, ToStream(stream)));
    });
  }

  Status StridedCopy(GpuStream stream, DType dtype, const void* x, void* out,
                     const BroadcastLoops& loops) const override {
    if (!DataTypeIsValid(dtype)) return NoKernel("StridedCopy", dtype);
    return SwitchDType(dtype, [&]<typename T>() {
      return LaunchStatus(
          "StridedCopy",
          LaunchStridedCopy<T>(static_cast<const T*>(x), static_cast<T*>(out),
                               loops, ToStream(stream)));
    });
  }

  Status CopyRows(GpuStream stream, DType dtype, const void* x,
                  int64_t x_stride, void* out, int64_t out_stride, int64_t rows,
                  int64_t cols) const override {
    if (!DataTypeIsValid(dtype)) return NoKernel("CopyRows", dtype);
    return SwitchDType(dtype, [&]<typename T>() {
      return LaunchStatus(
          "CopyRows", LaunchCopyRows<T>(static_cast<const T*>(x), x_stride,
                                        static_cast<T*>(out), out_stride, rows,
                                        cols, ToStream(stream)));
    });
  }

  Status Reduce(GpuStream stream, ReduceOp op, DType dtype, const void* x,
                void* out, int64_t outer, int64_t middle, int64_t inner,
                int64_t divisor, void* scratch) const override {
    if (!Contains(DTypeSet::kNumbers, dtype))
      return NoKernel(OpName(op), dtype);
    return SwitchDType(dtype, [&]<typename T>() {
      if constexpr (std::is_same_v<T, bool>) {
        return NoKernel(OpName(op), dtype);
      } else {
        return LaunchStatus(
            OpName(op),
            LaunchReduce<T>(op, static_cast<const T*>(x), static_cast<T*>(out),
                            outer, middle, inner, divisor,
                            static_cast<T*>(scratch), ToStream(stream)));
      }
    });
  }

  size_t ReduceScratchBytes(DType dtype, int64_t outer, int64_t middle,
                            int64_t inner) const override {
    if (!DataTypeIsValid(dtype)) return 0;
    return ReduceScratch(DataTypeSize(dtype), outer, middle, inner);
  }

  Status ArgReduce(GpuStream stream, bool max, DType dtype, const void* x,
                   DType out_type, void* out, int64_t outer, int64_t n,
                   int64_t inner) const override {
    const char* op = max ? "ArgMax" : "ArgMin";
    if (!Contains(DTypeSet::kNumbers, dtype)) return NoKernel(op, dtype);
    if (out_type != DT_INT32 && out_type != DT_INT64) {
      return errors::InvalidArgument(op, " output_type must be int32 or int64",
                                     ", got ", out_type);
    }
    return SwitchDType(dtype, [&]<typename T>() {
      if constexpr (std::is_same_v<T, bool>) {
        return NoKernel(op, dtype);
      } else {
        const T* in = static_cast<const T*>(x);
        const cudaError_t e =
            out_type == DT_INT32
                ? LaunchArgReduce(max, in, static_cast<int32_t*>(out), outer, n,
                                  inner, ToStream(stream))
                : LaunchArgReduce(max, in, static_cast<int64_t*>(out), outer, n,
                                  inner, ToStream(stream));
        return LaunchStatus(op, e);
      }
    });
  }

  Status Softmax(GpuStream stream, bool log, DType dtype, const void* logits,
                 void* out, int64_t rows, int64_t classes) const override {
    const char* op = log ? "LogSoftmax" : "Softmax";
    if (!IsReal(dtype)) return NoKernel(op, dtype);
    return RealSwitch(dtype, [&]<typename T>() {
      return LaunchStatus(op,
                          LaunchSoftmax<T>(log, static_cast<const T*>(logits),
                                           static_cast<T*>(out), rows, classes,
                                           ToStream(stream)));
    });
  }

  Status SoftmaxCrossEntropy(GpuStream stream, DType dtype, const void* logits,
                             const void* labels, void* loss, void* backprop,
                             int64_t rows, int64_t classes) const override {
    const char* op = "SoftmaxCrossEntropyWithLogits";
    if (!IsReal(dtype)) return NoKernel(op, dtype);
    return RealSwitch(dtype, [&]<typename T>() {
      return LaunchStatus(
          op, LaunchXent<T>(static_cast<const T*>(logits),
                            static_cast<const T*>(labels),
                            static_cast<T*>(loss), static_cast<T*>(backprop),
                            rows, classes, ToStream(stream)));
    });
  }

  Status SparseSoftmaxCrossEntropy(GpuStream stream, DType dtype,
                                   DType label_type, const void* logits,
                                   const void* labels, void* loss,
                                   void* backprop, int64_t rows,
                                   int64_t classes) const override {
    const char* op = "SparseSoftmaxCrossEntropyWithLogits";
    if (!IsReal(dtype)) return NoKernel(op, dtype);
    if (label_type != DT_INT32 && label_type != DT_INT64) {
      return NoKernel(std::string(op) + " labels", label_type);
    }
    return RealSwitch(dtype, [&]<typename T>() {
      const T* x = static_cast<const T*>(logits);
      T* l = static_cast<T*>(loss);
      T* g = static_cast<T*>(backprop);
      const cudaError_t e =
          label_type == DT_INT32
              ? LaunchSparseXent(x, static_cast<const int32_t*>(labels), l, g,
                                 rows, classes, ToStream(stream))
              : LaunchSparseXent(x, static_cast<const int64_t*>(labels), l, g,
                                 rows, classes, ToStream(stream));
      return LaunchStatus(op, e);
    });
  }

  Status ApplyGradientDescent(GpuStream stream, DType dtype, void* var,
                              const void* alpha, const void* delta,
                              int64_t n) const override {
    const char* op = "ApplyGradientDescent";
    if (!IsReal(dtype)) return NoKernel(op, dtype);
    return RealSwitch(dtype, [&]<typename T>() {
      return LaunchStatus(
          op, LaunchApplyGradientDescent<T>(
                  static_cast<T*>(var), static_cast<const T*>(alpha),
                  static_cast<const T*>(delta), n, ToStream(stream)));
    });
  }

  Status ApplyMomentum(GpuStream stream, DType dtype, void* var, void* accum,
                       const void* lr, const void* grad, const void* momentum,
                       bool use_nesterov, int64_t n) const override {
    const char* op = "ApplyMomentum";
    if (!IsReal(dtype)) return NoKernel(op, dtype);
    return RealSwitch(dtype, [&]<typename T>() {
      return LaunchStatus(
          op, LaunchApplyMomentum<T>(
                  static_cast<T*>(var), static_cast<T*>(accum),
                  static_cast<const T*>(lr), static_cast<const T*>(grad),
                  static_cast<const T*>(momentum), use_nesterov, n,
                  ToStream(stream)));
    });
  }

  Status ApplyAdam(GpuStream stream, DType dtype, void* var, void* m, void* v,
                   const void* beta1_power, const void* beta2_power,
                   const void* lr, const void* beta1, const void* beta2,
                   const void* epsilon, const void* grad, bool use_nesterov,
                   int64_t n) const override {
    const char* op = "ApplyAdam";
    if (!IsReal(dtype)) return NoKernel(op, dtype);
    return RealSwitch(dtype, [&]<typename T>() {
      auto in = [](const void* p) { return static_cast<const T*>(p); };
      return LaunchStatus(
          op, LaunchApplyAdam<T>(static_cast<T*>(var), static_cast<T*>(m),
                                 static_cast<T*>(v), in(beta1_power),
                                 in(beta2_power), in(lr), in(beta1), in(beta2),
                                 in(epsilon), in(grad), use_nesterov, n,
                                 ToStream(stream)));
    });
  }

  Status ApplyRMSProp(GpuStream stream, DType dtype, void* var, void* ms,
                      void* mom, const void* lr, const void* rho,
                      const void* momentum, const void* epsilon,
                      const void* grad, int64_t n) const override {
    const char* op = "ApplyRMSProp";
    if (!IsReal(dtype)) return NoKernel(op, dtype);
    return RealSwitch(dtype, [&]<typename T>() {
      auto in = [](const void* p) { return static_cast<const T*>(p); };
      return LaunchStatus(
          op, LaunchApplyRMSProp<T>(static_cast<T*>(var), static_cast<T*>(ms),
                                    static_cast<T*>(mom), in(lr), in(rho),
                                    in(momentum), in(epsilon), in(grad), n,
                                    ToStream(stream)));
    });
  }

 protected:
  /// fn.template operator()<T>() for T float or double.
  /// REQUIRES: IsReal(dtype).
  template <class Fn>
  static Status RealSwitch(DType dtype, Fn&& fn) {
    if (dtype == DT_FLOAT) return fn.template operator()<float>();
    return fn.template operator()<double>();
  }
};

}  // namespace minitf::gpu::MINITF_GPU_BACKEND
