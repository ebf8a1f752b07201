// What a kernel sees on the emulator: CUDA's keywords, built-in variables and
// device functions, spelled as CUDA spells them and defined for the host
// compiler. __global__ and __device__ mark plain functions. threadIdx,
// blockIdx, blockDim and gridDim read the host thread's ThreadContext, which
// the emulator sets to the CUDA thread it is running. A `__shared__` array is
// a static thread_local: one block is one host thread's at a time, so every
// thread of the block sees the same array and blocks on other host threads
// their own. Under AddressSanitizer it is a plain static instead, which ASan
// surrounds with redzones, and the kernel's blocks then run one at a time.
// __syncthreads() and the warp primitives are barriers of the block and of
// the warp; the atomics are std::atomic_ref operations, real atomics between
// blocks on different host threads.
//
//   __global__ void sum(const int* x, int* total, int n) {
//     int i = blockIdx.x * blockDim.x + threadIdx.x;
//     int v = i < n ? x[i] : 0;
//     for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffff, v, d);
//     if (threadIdx.x % warpSize == 0) atomicAdd(total, v); }
#pragma once

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <source_location>
#include <type_traits>

#include "minitf/gpu/emulator/block_runner.h"

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
#if defined(__SANITIZE_ADDRESS__)
#define __shared__ static
#define MINITF_EMULATOR_SERIAL_BLOCKS true
#else
#define __shared__ static thread_local
#define MINITF_EMULATOR_SERIAL_BLOCKS false
#endif

#define threadIdx (::minitf::gpu::emulator::this_thread.thread_idx)
#define blockIdx (::minitf::gpu::emulator::this_thread.block_idx)
#define blockDim (::minitf::gpu::emulator::this_thread.block_dim)
#define gridDim (::minitf::gpu::emulator::this_thread.grid_dim)
inline constexpr int warpSize = 32;

namespace minitf::gpu::emulator {

/// The block's `extern __shared__` memory, as a T* (MINITF_DYNAMIC_SHARED).
template <class T>
T* dynamic_shared() {
  return static_cast<T*>(this_thread.runner->dynamic_shared());
}

/// A value of at most 8 bytes as the bits a warp exchanges.
template <class T>
std::uint64_t to_bits(T value) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8,
                "warp shuffles move values of at most 8 bytes");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}

template <class T>
T from_bits(std::uint64_t bits) {
  T value;
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}

/// The source lane of a shuffle within segments of `width` lanes.
inline unsigned lane_id() {
  const ThreadContext& t = this_thread;
  return (t.thread_idx.x +
          t.block_dim.x * (t.thread_idx.y + t.block_dim.y * t.thread_idx.z)) %
         32u;
}

template <class T>
T shuffle(unsigned mask, T var, unsigned src,
          const std::source_location& where) {
  return from_bits<T>(this_thread.runner->warp_op(
      WarpOp::kShuffle, to_bits(var), src, mask, where));
}

}  // namespace minitf::gpu::emulator

// --- barriers -----------------------------------------------------------
/// Every thread of the block waits here until all have arrived.
inline void __syncthreads(
    std::source_location where = std::source_location::current()) {
  ::minitf::gpu::emulator::this_thread.runner->barrier(where);
}

/// The lanes of `mask` wait here for each other.
inline void __syncwarp(
    unsigned mask = 0xffffffffu,
    std::source_location where = std::source_location::current()) {
  ::minitf::gpu::emulator::this_thread.runner->warp_op(
      ::minitf::gpu::emulator::WarpOp::kSync, 0, 0, mask, where);
}

inline void __threadfence() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
}
inline void __threadfence_block() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

// --- warp primitives ------------------------------------------------------
// `width` splits the warp into segments (a power of two up to 32); a source
// outside the caller's segment gives the caller its own value, as in CUDA.
template <class T>
T __shfl_sync(unsigned mask, T var, int src_lane, int width = warpSize,
              std::source_location where = std::source_location::current()) {
  const unsigned lane = ::minitf::gpu::emulator::lane_id();
  const unsigned base = lane & ~static_cast<unsigned>(width - 1);
  const unsigned src =
      base + (static_cast<unsigned>(src_lane) % static_cast<unsigned>(width));
  return ::minitf::gpu::emulator::shuffle(mask, var, src, where);
}

template <class T>
T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = warpSize,
                 std::source_location where = std::source_location::current()) {
  const unsigned lane = ::minitf::gpu::emulator::lane_id();
  const unsigned in_segment = lane % static_cast<unsigned>(width);
  const unsigned src = in_segment >= delta ? lane - delta : lane;
  return ::minitf::gpu::emulator::shuffle(mask, var, src, where);
}

template <class T>
T __shfl_down_sync(
    unsigned mask, T var, unsigned delta, int width = warpSize,
    std::source_location where = std::source_location::current()) {
  const unsigned lane = ::minitf::gpu::emulator::lane_id();
  const unsigned in_segment = lane % static_cast<unsigned>(width);
  const unsigned src =
      in_segment + delta < static_cast<unsigned>(width) ? lane + delta : lane;
  return ::minitf::gpu::emulator::shuffle(mask, var, src, where);
}

template <class T>
T __shfl_xor_sync(
    unsigned mask, T var, int lane_mask, int width = warpSize,
    std::source_location where = std::source_location::current()) {
  const unsigned lane = ::minitf::gpu::emulator::lane_id();
  const unsigned src = lane ^ static_cast<unsigned>(lane_mask);
  const unsigned w = static_cast<unsigned>(width);
  return ::minitf::gpu::emulator::shuffle(
      mask, var, (src / w == lane / w) ? src : lane, where);
}

/// Bit i set: lane i of `mask` passed a nonzero `predicate`.
inline unsigned __ballot_sync(
    unsigned mask, int predicate,
    std::source_location where = std::source_location::current()) {
  return static_cast<unsigned>(
      ::minitf::gpu::emulator::this_thread.runner->warp_op(
          ::minitf::gpu::emulator::WarpOp::kBallot, predicate != 0, 0, mask,
          where));
}

inline int __any_sync(
    unsigned mask, int predicate,
    std::source_location where = std::source_location::current()) {
  return __ballot_sync(mask, predicate, where) != 0;
}

inline int __all_sync(
    unsigned mask, int predicate,
    std::source_location where = std::source_location::current()) {
  // All said yes when no lane said no.
  return __ballot_sync(mask, !predicate, where) == 0;
}

// --- atomics ----------------------------------------------------------------
// Each returns the old value, as CUDA's do. The value's type follows the
// address's (type_identity_t), so atomicAdd(&unsigned_count, 1) compiles as
// CUDA's overloads let it.
template <class T>
T atomicAdd(T* address, std::type_identity_t<T> value) {
  return std::atomic_ref<T>(*address).fetch_add(value);
}
template <class T>
T atomicSub(T* address, std::type_identity_t<T> value) {
  return std::atomic_ref<T>(*address).fetch_sub(value);
}
template <class T>
T atomicExch(T* address, std::type_identity_t<T> value) {
  return std::atomic_ref<T>(*address).exchange(value);
}
template <class T>
T atomicCAS(T* address, std::type_identity_t<T> compare,
            std::type_identity_t<T> value) {
  std::atomic_ref<T>(*address).compare_exchange_strong(compare, value);
  return compare;
}
template <class T>
T atomicMax(T* address, std::type_identity_t<T> value) {
  std::atomic_ref<T> ref(*address);
  T old = ref.load();
  while (old < value && !ref.compare_exchange_weak(old, value)) {
  }
  return old;
}
template <class T>
T atomicMin(T* address, std::type_identity_t<T> value) {
  std::atomic_ref<T> ref(*address);
  T old = ref.load();
  while (value < old && !ref.compare_exchange_weak(old, value)) {
  }
  return old;
}
template <class T>
T atomicAnd(T* address, std::type_identity_t<T> value) {
  return std::atomic_ref<T>(*address).fetch_and(value);
}
template <class T>
T atomicOr(T* address, std::type_identity_t<T> value) {
  return std::atomic_ref<T>(*address).fetch_or(value);
}
template <class T>
T atomicXor(T* address, std::type_identity_t<T> value) {
  return std::atomic_ref<T>(*address).fetch_xor(value);
}

// --- fast math
// ----------------------------------------------------------------
inline float rsqrtf(float x) { return 1.f / std::sqrt(x); }
inline float __expf(float x) { return std::exp(x); }
inline float __logf(float x) { return std::log(x); }
inline float __fdividef(float x, float y) { return x / y; }
