// A kernel launch on the emulator. The host compiler cannot parse CUDA's
// `kernel<<<grid, block, shared, stream>>>(args)`, so a launch is spelled
// MINITF_LAUNCH(kernel, grid, block, shared, stream, args...), which cuda.h
// turns into `<<<...>>>` under nvcc and into launch<kernel>(...) here. The
// kernel is a template argument, so the loop that runs a block's threads one
// after another calls it directly and the compiler can inline it: a kernel
// with no barrier costs about what a plain loop over its body does. The
// arguments are converted to the kernel's parameter types and copied, as a
// CUDA launch copies them, and kept until the kernel has run on its stream.
//
//   __global__ void saxpy(int n, float a, const float* x, float* y);
//   MINITF_LAUNCH(saxpy, (n + 255) / 256, 256, 0, 0, n, 2.f, x, y);
//   // a template kernel: its arguments, in MINITF_KERNEL_NAME(...)
//   MINITF_LAUNCH(MINITF_KERNEL_NAME(tiled<float, 16>), grid, block, 0, 0, a,
//   b, c); cudaError_t err = cudaGetLastError();       // the launch's own
//   error
#pragma once

#include <cstddef>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

#include "minitf/gpu/emulator/block_runner.h"
#include "minitf/gpu/emulator/runtime_api.h"

namespace minitf::gpu::emulator {

template <class F>
struct KernelParameters;
template <class... P>
struct KernelParameters<void (*)(P...)> {
  using Tuple = std::tuple<std::decay_t<P>...>;
};
template <class... P>
struct KernelParameters<void (*)(P...) noexcept> {
  using Tuple = std::tuple<std::decay_t<P>...>;
};

/// The kernel and its arguments, with the two entry points the block
/// runner calls.
template <auto Kernel>
struct KernelThunk {
  typename KernelParameters<decltype(Kernel)>::Tuple args;

  static void run_thread(void* self) {
    std::apply(Kernel, static_cast<KernelThunk*>(self)->args);
  }

  // The block's threads in order, each to its end, until one reaches a
  // barrier; from then on the block runner runs the rest as fibers.
  // --8<-- [start:run_block]
  static void run_block(void* self_ptr, BlockRunner& runner) {
    auto& self = *static_cast<KernelThunk*>(self_ptr);
    ThreadContext& ctx = this_thread;
    if (runner.forward_order()) {
      const dim3 dim = ctx.block_dim;
      for (unsigned z = 0; z < dim.z; ++z) {
        ctx.thread_idx.z = z;
        for (unsigned y = 0; y < dim.y; ++y) {
          ctx.thread_idx.y = y;
          for (unsigned x = 0; x < dim.x; ++x) {
            ctx.thread_idx.x = x;
            std::apply(Kernel, self.args);
            if (runner.in_fibers()) [[unlikely]] {
              runner.finish_main_thread();
              return;
            }
          }
        }
      }
      return;
    }
    for (unsigned p = 0, n = runner.thread_count(); p < n; ++p) {
      runner.enter_thread(runner.order_at(p));
      std::apply(Kernel, self.args);
      if (runner.in_fibers()) [[unlikely]] {
        runner.finish_main_thread();
        return;
      }
    }
  }
  // --8<-- [end:run_block]
};

/// Launches `Kernel` on `grid` x `block` threads with `shared_bytes` of
/// `extern __shared__` memory, on `stream`. A bad configuration becomes
/// cudaGetLastError()'s cudaErrorInvalidConfiguration.
template <auto Kernel, class... A>
void launch(const char* name, dim3 grid, dim3 block, std::size_t shared_bytes,
            cudaStream_t stream, bool serial_blocks, A&&... args) {
  using Thunk = KernelThunk<Kernel>;
  auto thunk = std::make_shared<Thunk>(
      Thunk{typename KernelParameters<decltype(Kernel)>::Tuple(
          std::forward<A>(args)...)});
  KernelLaunch spec;
  spec.kernel_name = name;
  spec.thunk = thunk.get();
  spec.run_block = &Thunk::run_block;
  spec.run_thread = &Thunk::run_thread;
  spec.grid = grid;
  spec.block = block;
  spec.dynamic_shared_bytes = shared_bytes;
  spec.serial_blocks = serial_blocks;
  launch_kernel(spec, std::move(thunk), stream);
}

}  // namespace minitf::gpu::emulator
