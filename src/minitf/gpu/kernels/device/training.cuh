// The optimizers' updates on the GPU: ApplyGradientDescent, ApplyMomentum,
// ApplyAdam and ApplyRMSProp, in place on the variable and its slots, with
// layer 3's arithmetic (train/kernels/training_kernels.cc), element for
// element.
//
// Threads to elements: one thread per element of the variable, in the
// grid-stride loop of common.cuh; thread i reads grad[i] and updates
// var[i] and its slots' element i. The hyperparameters (lr, momentum, the
// betas ...) are 0-d tensors, which on a GPU live in device memory like any
// other tensor: the kernel gets their addresses and every thread reads the
// value there. Copying them to the host first would make the host wait for
// the stream, which is exactly what an asynchronous GPU step must avoid.
//
//   // var, grad:[n]; lr:[] on the device
//   LaunchApplyGradientDescent<float>(var, lr, grad, n, stream);
#pragma once

#include <cstdint>

#include "minitf/gpu/kernels/device/common.cuh"

namespace minitf::gpu::MINITF_GPU_BACKEND {

// --8<-- [start:gradient_descent]
/// var -= delta * alpha.
template <class T>
__global__ void ApplyGradientDescentKernel(T* var, const T* alpha,
                                           const T* delta, int64_t n) {
  const T a = *alpha;
  for (int64_t i : GridStride(n)) var[i] -= delta[i] * a;
}
// --8<-- [end:gradient_descent]

/// accum = accum * momentum + grad; var -= accum * lr, or with Nesterov's
/// look-ahead var -= grad * lr + accum * momentum * lr.
template <class T>
__global__ void ApplyMomentumKernel(T* var, T* accum, const T* lr,
                                    const T* grad, const T* momentum,
                                    bool use_nesterov, int64_t n) {
  const T l = *lr;
  const T mu = *momentum;
  for (int64_t i : GridStride(n)) {
    const T a = accum[i] * mu + grad[i];
    accum[i] = a;
    var[i] -= use_nesterov ? grad[i] * l + a * mu * l : a * l;
  }
}

// --8<-- [start:adam]
/// Adam, with the bias correction of m and v folded into the step size.
template <class T>
__global__ void ApplyAdamKernel(T* var, T* m, T* v, const T* beta1_power,
                                const T* beta2_power, const T* lr,
                                const T* beta1, const T* beta2,
                                const T* epsilon, const T* grad,
                                bool use_nesterov, int64_t n) {
  const T b1 = *beta1;
  const T b2 = *beta2;
  const T eps = *epsilon;
  const T alpha = *lr * Sqrt(T(1) - *beta2_power) / (T(1) - *beta1_power);
  for (int64_t i : GridStride(n)) {
    const T g = grad[i];
    const T mi = m[i] + (g - m[i]) * (T(1) - b1);
    const T vi = v[i] + (g * g - v[i]) * (T(1) - b2);
    m[i] = mi;
    v[i] = vi;
    const T step =
        use_nesterov ? (g * (T(1) - b1) + mi * b1) * alpha : mi * alpha;
    var[i] -= step / (Sqrt(vi) + eps);
  }
}
// --8<-- [end:adam]

/// RMSProp, TensorFlow's: epsilon inside the square root.
template <class T>
__global__ void ApplyRMSPropKernel(T* var, T* ms, T* mom, const T* lr,
                                   const T* rho, const T* momentum,
                                   const T* epsilon, const T* grad, int64_t n) {
  const T l = *lr;
  const T r = *rho;
  const T mu = *momentum;
  const T eps = *epsilon;
  for (int64_t i : GridStride(n)) {
    const T g = grad[i];
    const T msi = ms[i] + (g * g - ms[i]) * (T(1) - r);
    ms[i] = msi;
    const T momi = mom[i] * mu + (g * l) / Sqrt(msi + eps);
    mom[i] = momi;
    var[i] -= momi;
  }
}

template <class T>
cudaError_t LaunchApplyGradientDescent(T* var, const T* alpha, const T* delta,
                                       int64_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  MINITF_LAUNCH(MINITF_KERNEL_NAME(ApplyGradientDescentKernel<T>), BlocksFor(n),
                kBlock, 0, stream, var, alpha, delta, n);
  return LaunchError();
}

template <class T>
cudaError_t LaunchApplyMomentum(T* var, T* accum, const T* lr, const T* grad,
                                const T* momentum, bool use_nesterov, int64_t n,
                                cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  MINITF_LAUNCH(MINITF_KERNEL_NAME(ApplyMomentumKernel<T>), BlocksFor(n),
                kBlock, 0, stream, var, accum, lr, grad, momentum, use_nesterov,
                n);
  return LaunchError();
}

template <class T>
cudaError_t LaunchApplyAdam(T* var, T* m, T* v, const T* beta1_power,
                            const T* beta2_power, const T* lr, const T* beta1,
                            const T* beta2, const T* epsilon, const T* grad,
                            bool use_nesterov, int64_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  MINITF_LAUNCH(MINITF_KERNEL_NAME(ApplyAdamKernel<T>), BlocksFor(n), kBlock, 0,
                stream, var, m, v, beta1_power, beta2_power, lr, beta1, beta2,
                epsilon, grad, use_nesterov, n);
  return LaunchError();
}

template <class T>
cudaError_t LaunchApplyRMSProp(T* var, T* ms, T* mom, const T* lr, const T* rho,
                               const T* momentum, const T* epsilon,
                               const T* grad, int64_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  MINITF_LAUNCH(MINITF_KERNEL_NAME(ApplyRMSPropKernel<T>), BlocksFor(n), kBlock,
                0, stream, var, ms, mom, lr, rho, momentum, epsilon, grad, n);
  return LaunchError();
}

}  // namespace minitf::gpu::MINITF_GPU_BACKEND
