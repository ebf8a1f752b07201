// The stacks of the emulator's fibers, and the context switch between them.
// Each CUDA thread that reaches a barrier runs on a fiber: a stack of its own
// and a saved register set (Boost.Context's fcontext, 14 ns for a switch there
// and back, where swapcontext takes 597 ns because it saves the signal mask
// with a system call). A stack is mmap'd once, with a guard page below it so
// that an overflow faults instead of overwriting a neighbour, and reused by
// every block the host thread runs. Under AddressSanitizer each switch is
// announced to it (__sanitizer_start/finish_switch_fiber), or it would take
// the fiber's stack for a wild write.
//
//   FiberStack stack(FiberStack::kDefaultBytes);
//   fcontext_t ctx = boost::context::detail::make_fcontext(
//       stack.top(), stack.size(), &entry);
//   SwitchToFiber to(stack.bottom(), stack.size(), &fake_stack);
//   transfer_t back = boost::context::detail::jump_fcontext(ctx, data);
#pragma once

#include <boost/context/detail/fcontext.hpp>
#include <cstddef>

namespace minitf::gpu::emulator {

using boost::context::detail::fcontext_t;
using boost::context::detail::transfer_t;

/// One fiber stack: `size()` usable bytes above a guard page.
/// Invariants: bottom() < top(), top() - bottom() == size(); not copyable.
class FiberStack {
 public:
  /// 64 KiB: a kernel's thread keeps little on its stack; AddressSanitizer's
  /// redzones need four times as much.
#if defined(__SANITIZE_ADDRESS__)
  static constexpr std::size_t kDefaultBytes = 256 * 1024;
#else
  static constexpr std::size_t kDefaultBytes = 64 * 1024;
#endif

  /// Maps the stack and its guard page; aborts if the system has no memory
  /// left for it (a bug of ours or an exhausted machine, not bad input).
  explicit FiberStack(std::size_t bytes);
  ~FiberStack();
  FiberStack(const FiberStack&) = delete;
  FiberStack& operator=(const FiberStack&) = delete;

  void* bottom() const { return bottom_; }
  void* top() const { return static_cast<char*>(bottom_) + size_; }
  std::size_t size() const { return size_; }

 private:
  void* mapping_;
  std::size_t mapping_bytes_;
  void* bottom_;
  std::size_t size_;
};

/// Tells AddressSanitizer that this thread switches to the stack
/// [bottom, bottom + size). `fake_stack` keeps the leaving context's
/// use-after-return frames; nullptr says the leaving context ends for good.
/// Without AddressSanitizer it does nothing, inline.
/// announce_arrival() tells it the switch has landed, and returns through
/// `from_bottom`/`from_size` the stack that was left (may be nullptr).
#if defined(__SANITIZE_ADDRESS__)
void announce_switch(void** fake_stack, const void* bottom, std::size_t size);
void announce_arrival(void* fake_stack, const void** from_bottom,
                      std::size_t* from_size);
#else
inline void announce_switch(void**, const void*, std::size_t) {}
inline void announce_arrival(void*, const void**, std::size_t*) {}
#endif

}  // namespace minitf::gpu::emulator
