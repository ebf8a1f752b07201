// Exercise 04_softmax: one solution. Try the exercise first!
#include "softmax.h"

#include <cmath>

namespace minitf::exercises {
namespace {

struct Max {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};
struct Add {
  __device__ float operator()(float a, float b) const { return a + b; }
};

/// The block's `op`-reduction of every thread's `value`, returned to every
/// thread. `scratch` holds kSoftmaxBlock floats of shared memory.
template <class Op>
__device__ float block_reduce(float value, float* scratch, Op op) {
  const int t = threadIdx.x;
  scratch[t] = value;
  // The tree reads values that other threads have just written.
  __syncthreads();
  for (int half = kSoftmaxBlock / 2; half > 0; half /= 2) {
    if (t < half) scratch[t] = op(scratch[t], scratch[t + half]);
    // The next level reads this level's results.
    __syncthreads();
  }
  const float result = scratch[0];
  // The caller's next reduction overwrites scratch[0]: every thread must
  // have read it first.
  __syncthreads();
  return result;
}

}  // namespace

__global__ void softmax_kernel(int cols, const float* logits, float* out) {
  __shared__ float scratch[kSoftmaxBlock];
  const float* x = logits + blockIdx.x * cols;
  float* y = out + blockIdx.x * cols;
  float m = -INFINITY;
  for (int j = threadIdx.x; j < cols; j += kSoftmaxBlock) m = fmaxf(m, x[j]);
  m = block_reduce(m, scratch, Max());
  float s = 0.f;
  for (int j = threadIdx.x; j < cols; j += kSoftmaxBlock) s += expf(x[j] - m);
  s = block_reduce(s, scratch, Add());
  for (int j = threadIdx.x; j < cols; j += kSoftmaxBlock)
    y[j] = expf(x[j] - m) / s;
}

cudaError_t softmax(int rows, int cols, const float* logits, float* out,
                    cudaStream_t stream) {
  if (rows < 0 || cols < 0) return cudaErrorInvalidValue;
  // A grid of no blocks is no valid launch.
  if (rows == 0 || cols == 0) return cudaSuccess;
  MINITF_LAUNCH(softmax_kernel, rows, kSoftmaxBlock, 0, stream, cols, logits,
                out);
  return cudaGetLastError();
}

}  // namespace minitf::exercises
