// Kernels that misuse CUDA's execution model on purpose, written once like
// test_kernels.cuh: the emulator's sanitizer tests run them and check what
// it reports, as compute-sanitizer would on a GPU. None is correct CUDA.
//
//   #include "misuse_kernels.cuh"
//   MINITF_LAUNCH(divergent_barrier, 2, 64, 0, 0, d_out, 16);
//   cudaDeviceSynchronize();            // cudaErrorLaunchFailure
//   // take_reports(): "Barrier error detected. Divergent thread(s) in block"
//   //                 "by thread (16,0,0) in block (0,0,0)"
#pragma once

#include "minitf/gpu/emulator/cuda.h"

/// Only threads below `limit` reach the barrier: "Divergent thread(s) in
/// block". (A sanitizer test; never correct CUDA.)
// --8<-- [start:divergent_barrier]
__global__ void divergent_barrier(int* out, int limit) {
  if (static_cast<int>(threadIdx.x) < limit) {
    // Deliberately reached by part of the block, for the sanitizer's test.
    __syncthreads();
  }
  out[threadIdx.x] = 1;
}
// --8<-- [end:divergent_barrier]

/// Threads at or above `limit` return before the barrier the rest wait at.
__global__ void return_before_barrier(int* out, int limit) {
  if (static_cast<int>(threadIdx.x) >= limit) return;
  // Deliberately skipped by the threads that returned, for the test.
  __syncthreads();
  out[threadIdx.x] = 1;
}

/// Every lane shuffles with a mask that leaves out lane 0.
__global__ void shuffle_without_own_lane(int* out) {
  out[threadIdx.x] =
      __shfl_down_sync(0xfffffffeu, static_cast<int>(threadIdx.x), 1);
}

/// Thread i writes out[i] for i <= n: thread n writes one past the end.
__global__ void write_one_past_the_end(int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) out[i] = i;
}

/// A block of 32 writes s[threadIdx.x + 1] of a 32-element shared array.
__global__ void shared_write_one_past_the_end(int* out) {
  __shared__ int s[32];
  s[threadIdx.x + 1] = static_cast<int>(threadIdx.x);
  // Thread t then reads what thread t - 1 wrote.
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

/// Writes s[threadIdx.x] of `extern __shared__` floats: past their end when
/// the launch gave fewer than blockDim.x of them.
__global__ void dynamic_shared_write(float* out) {
  MINITF_DYNAMIC_SHARED(float, s);
  s[threadIdx.x] = 1.f;
  // Thread 0 then reads what every thread wrote.
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
