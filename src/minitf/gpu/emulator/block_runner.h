// How the emulator runs one block of a grid on one host thread. A block's
// threads share the host thread: the kernel runs for one CUDA thread, then the
// next, as a plain loop with no context switch at all, as long as no thread
// reaches a barrier. The first thread that calls __syncthreads() (or a warp
// primitive, which waits for its warp) turns the block into fibers: the
// threads still to come start on stacks of their own, and at each barrier a
// thread yields to the next one, so that every thread reaches the barrier
// before any passes it. When the last arrives, the next phase starts with the
// first thread in the chosen order (forward, reverse, shuffled). One block is
// one host thread's at a time, which is what makes `__shared__` a
// thread_local.
//
//   BlockRunner& runner = BlockRunner::for_this_thread();
//   runner.run(launch, /*block_idx=*/{3, 0, 0});    // the whole block
//   // inside the kernel, via __syncthreads() and __shfl_down_sync():
//   runner.barrier(site);
//   std::uint64_t v = runner.warp_op(WarpOp::kShuffle, bits, src, mask, site);
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <source_location>
#include <vector>

#include "minitf/gpu/emulator/cuda_types.h"
#include "minitf/gpu/emulator/fiber_stack.h"
#include "minitf/gpu/emulator/sanitizer.h"

namespace minitf::gpu::emulator {

class BlockRunner;

/// One kernel launch as the runtime sees it: the kernel with its arguments
/// behind two type-erased entry points, and the launch configuration.
struct KernelLaunch {
  const char* kernel_name = "";
  /// The kernel and a copy of its arguments (launch.h's KernelThunk).
  void* thunk = nullptr;
  /// Runs the whole block: the plain loop over threads (launch.h).
  void (*run_block)(void* thunk, BlockRunner& runner) = nullptr;
  /// Runs the kernel body for the current thread: a fiber's entry.
  void (*run_thread)(void* thunk) = nullptr;
  dim3 grid;
  dim3 block;
  std::size_t dynamic_shared_bytes = 0;
  /// Blocks must run one at a time: the kernel's `__shared__` arrays are
  /// plain statics (under AddressSanitizer, for its redzones).
  bool serial_blocks = false;
  /// The order of threads between barriers, and kShuffled's seed.
  ThreadOrder order = ThreadOrder::kForward;
  std::uint64_t seed = 1;
  /// Set when a block made a report: the launch then fails.
  std::atomic<bool>* failed = nullptr;
};

/// What one emulated CUDA thread sees as its built-in variables; each host
/// thread holds the one of the CUDA thread it is running now.
struct ThreadContext {
  uint3 thread_idx{};
  uint3 block_idx{};
  dim3 block_dim{};
  dim3 grid_dim{};
  BlockRunner* runner = nullptr;
};
inline thread_local ThreadContext this_thread;

/// The warp-level operations: they exchange a value among a warp's lanes.
enum class WarpOp : std::uint8_t { kSync, kShuffle, kBallot };

/// Runs blocks one after another on the host thread that owns it.
/// Thread safety: one per host thread (for_this_thread()); not shared.
/// Invariants during a block: every thread is in exactly one state; at most
/// one is running; a fiber that finished is never resumed.
class BlockRunner {
 public:
  static BlockRunner& for_this_thread();

  BlockRunner();
  ~BlockRunner();
  BlockRunner(const BlockRunner&) = delete;
  BlockRunner& operator=(const BlockRunner&) = delete;

  /// Runs every thread of block `block_idx` of `launch` to completion.
  void run(const KernelLaunch& launch, uint3 block_idx);

  // --- for the plain loop in launch.h -----------------------------------
  /// True once a thread reached a barrier: the rest of the block runs as
  /// fibers, and the loop must hand over to finish_main_thread().
  bool in_fibers() const { return fibers_; }
  /// True when threads run in index order (the fast loop applies).
  bool forward_order() const { return order_kind_ == ThreadOrder::kForward; }
  /// The thread (linear index) that runs `position`-th before the first
  /// barrier.
  unsigned order_at(unsigned position) const { return order_[position]; }
  unsigned thread_count() const { return n_; }
  /// Sets this_thread's coordinates to those of linear thread `tid`.
  void enter_thread(unsigned tid) const;
  /// The thread on the host thread's own stack has returned after the
  /// block turned into fibers: runs the others to the end.
  void finish_main_thread();

  // --- for the device functions ---------------------------------------
  /// __syncthreads(): returns once every thread of the block arrived.
  void barrier(const std::source_location& where);
  /// A warp primitive for the current lane: deposits `value`, waits for
  /// every lane of `mask`, and returns the lane's result (the value of lane
  /// `src_lane` for kShuffle, the ballot of nonzero values for kBallot).
  std::uint64_t warp_op(WarpOp op, std::uint64_t value, unsigned src_lane,
                        unsigned mask, const std::source_location& where);
  /// The block's `extern __shared__` memory (dynamic_shared_bytes of it).
  void* dynamic_shared() const { return dynamic_shared_.get(); }
  /// Records a report for the current thread and fails the launch.
  void report_here(const char* what, const std::source_location& where);

 private:
  enum class State : std::uint8_t {
    kNotStarted,
    kRunnable,
    kRunning,
    kAtBarrier,
    kAtWarpOp,
    kDone
  };
  struct Lane {
    std::uint64_t value = 0;
    std::uint64_t result = 0;
    unsigned mask = 0;
    unsigned src = 0;
    WarpOp op = WarpOp::kSync;
  };

  unsigned current_tid() const;
  void start_fibers(unsigned tid);
  void make_order(std::uint64_t phase);
  /// Marks the current thread waiting and runs others until it may go on.
  void wait();
  void try_release_barrier();
  bool try_release_warp(unsigned warp, unsigned mask);
  void release_stuck_warps();
  void report_thread(const char* what, const std::source_location& where,
                     unsigned tid);
  /// The next thread to run after the current one, or kNone.
  unsigned pick_next();
  /// Makes `next` the running thread (n_: the host thread's own stack),
  /// making its fiber on first use; *bottom and *size: the stack it runs
  /// on, for AddressSanitizer. The caller then jumps to context_[next].
  void make_running(unsigned next, const void** bottom, std::size_t* size);
  void switch_to(unsigned next);
  void arrive(transfer_t from);
  /// Marks the running fiber done and makes the next thread running;
  /// returns the context to jump to, which fiber_entry does. The jump is
  /// not made here: a function that never returns makes AddressSanitizer
  /// clear the shadow of the whole stack before each call to it, at the
  /// end of every fiber, which took most of the sanitized tests' time.
  /// This one returns, and its frame's shadow is clean when it does.
  fcontext_t finish_fiber();
  static void fiber_entry(transfer_t from);

  static constexpr unsigned kNone = ~0u;

  const KernelLaunch* launch_ = nullptr;
  unsigned n_ = 0;
  ThreadOrder order_kind_ = ThreadOrder::kForward;
  std::uint64_t seed_ = 0;
  std::uint64_t block_linear_ = 0;
  std::uint64_t phase_ = 0;
  std::vector<unsigned> order_;
  bool fibers_ = false;

  // Fiber mode. Context slot n_ is the host thread's own stack once the
  // thread that ran on it is done (the drain in finish_main_thread()).
  std::vector<State> state_;
  std::vector<fcontext_t> context_;
  std::vector<void*> fake_stack_;
  std::vector<std::unique_ptr<FiberStack>> stacks_;
  std::vector<Lane> lanes_;
  std::vector<std::source_location> site_;
  std::vector<uint3> coordinates_;
  unsigned main_tid_ = 0;
  unsigned running_ = 0;
  unsigned from_ = 0;
  unsigned cursor_ = 0;
  unsigned at_barrier_ = 0;
  unsigned done_ = 0;
  std::source_location barrier_site_;
  bool barrier_sites_differ_ = false;
  const void* main_stack_bottom_ = nullptr;
  std::size_t main_stack_size_ = 0;

  std::unique_ptr<std::byte[]> dynamic_shared_;
  std::size_t dynamic_shared_size_ = 0;
};

}  // namespace minitf::gpu::emulator
