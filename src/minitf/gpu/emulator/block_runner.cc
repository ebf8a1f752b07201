#include "minitf/gpu/emulator/block_runner.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <utility>

namespace minitf::gpu::emulator {
namespace {

constexpr unsigned kWarpSize = 32;

// SplitMix64: a tiny, well-mixed generator; enough to shuffle threads.
std::uint64_t split_mix(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

bool same_site(const std::source_location& a, const std::source_location& b) {
  return a.line() == b.line() &&
         (a.file_name() == b.file_name() ||
          std::strcmp(a.file_name(), b.file_name()) == 0);
}

uint3 coordinates(unsigned tid, dim3 dim) {
  return {tid % dim.x, (tid / dim.x) % dim.y, tid / (dim.x * dim.y)};
}

}  // namespace

BlockRunner& BlockRunner::for_this_thread() {
  static thread_local BlockRunner runner;
  return runner;
}

BlockRunner::BlockRunner() = default;
BlockRunner::~BlockRunner() = default;

void BlockRunner::run(const KernelLaunch& launch, uint3 block_idx) {
  launch_ = &launch;
  const dim3 block = launch.block;
  n_ = block.x * block.y * block.z;
  order_kind_ = launch.order;
  seed_ = launch.seed;
  block_linear_ =
      block_idx.x +
      std::uint64_t{launch.grid.x} *
          (block_idx.y + std::uint64_t{launch.grid.y} * block_idx.z);
  phase_ = 0;
  fibers_ = false;
  if (order_kind_ != ThreadOrder::kForward) make_order(0);
  // Exactly the bytes asked for, so that AddressSanitizer sees an access
  // past the end of `extern __shared__` memory.
  if (!dynamic_shared_ || dynamic_shared_size_ != launch.dynamic_shared_bytes) {
    dynamic_shared_ =
        std::make_unique<std::byte[]>(launch.dynamic_shared_bytes);
    dynamic_shared_size_ = launch.dynamic_shared_bytes;
  }
  ThreadContext& ctx = this_thread;
  ctx.block_idx = block_idx;
  ctx.block_dim = block;
  ctx.grid_dim = launch.grid;
  ctx.runner = this;
  launch.run_block(launch.thunk, *this);
  ctx.runner = nullptr;
}

void BlockRunner::enter_thread(unsigned tid) const {
  this_thread.thread_idx =
      fibers_ ? coordinates_[tid] : coordinates(tid, launch_->block);
}

unsigned BlockRunner::current_tid() const {
  const uint3 t = this_thread.thread_idx;
  const dim3 d = launch_->block;
  return t.x + d.x * (t.y + d.y * t.z);
}

void BlockRunner::make_order(std::uint64_t phase) {
  order_.resize(n_);
  switch (order_kind_) {
    case ThreadOrder::kForward:
      std::iota(order_.begin(), order_.end(), 0u);
      break;
    case ThreadOrder::kReverse:
      for (unsigned i = 0; i < n_; ++i) order_[i] = n_ - 1 - i;
      break;
    case ThreadOrder::kShuffled: {
      // A function of (seed, block, phase) only, so that a run repeats
      // whichever host thread a block lands on.
      std::uint64_t state = seed_ ^ (block_linear_ * 0x2545f4914f6cdd1dull) ^
                            (phase * 0x9e3779b97f4a7c15ull);
      std::iota(order_.begin(), order_.end(), 0u);
      for (unsigned i = n_; i > 1; --i) {
        std::swap(order_[i - 1], order_[split_mix(state) % i]);
      }
      break;
    }
  }
}

void BlockRunner::start_fibers(unsigned tid) {
  fibers_ = true;
  if (order_kind_ == ThreadOrder::kForward) make_order(0);
  state_.assign(n_, State::kNotStarted);
  context_.assign(n_ + 1, nullptr);
  fake_stack_.assign(n_ + 1, nullptr);
  lanes_.assign(n_, Lane{});
  site_.assign(n_, std::source_location{});
  coordinates_.resize(n_);
  for (unsigned t = 0; t < n_; ++t)
    coordinates_[t] = coordinates(t, launch_->block);
  if (stacks_.size() < n_) stacks_.resize(n_);
  // The plain loop ran the threads before this one to their end; those
  // after it have not started.
  unsigned position = 0;
  while (order_[position] != tid) ++position;
  for (unsigned p = 0; p < position; ++p) state_[order_[p]] = State::kDone;
  done_ = position;
  state_[tid] = State::kRunning;
  main_tid_ = running_ = tid;
  cursor_ = position;
  at_barrier_ = 0;
  barrier_sites_differ_ = false;
}

void BlockRunner::barrier(const std::source_location& where) {
  if (!fibers_) {
    if (n_ == 1) return;
    start_fibers(current_tid());
  }
  const unsigned me = running_;
  if (at_barrier_ == 0) {
    barrier_site_ = where;
  } else if (!same_site(where, barrier_site_)) {
    barrier_sites_differ_ = true;
  }
  site_[me] = where;
  state_[me] = State::kAtBarrier;
  ++at_barrier_;
  try_release_barrier();
  wait();
}

void BlockRunner::try_release_barrier() {
  if (at_barrier_ == 0 || at_barrier_ + done_ < n_) return;
  if (done_ > 0 || barrier_sites_differ_) {
    // Name the first thread that is not at the first thread's barrier.
    for (unsigned tid = 0; tid < n_; ++tid) {
      if (state_[tid] == State::kDone ||
          !same_site(site_[tid], barrier_site_)) {
        report_thread("Barrier error detected. Divergent thread(s) in block",
                      barrier_site_, tid);
        break;
      }
    }
  }
  for (unsigned tid = 0; tid < n_; ++tid) {
    if (state_[tid] == State::kAtBarrier) state_[tid] = State::kRunnable;
  }
  at_barrier_ = 0;
  barrier_sites_differ_ = false;
  ++phase_;
  if (order_kind_ == ThreadOrder::kShuffled) make_order(phase_);
  // The next phase starts with the first thread of its order.
  cursor_ = n_ - 1;
}

std::uint64_t BlockRunner::warp_op(WarpOp op, std::uint64_t value,
                                   unsigned src_lane, unsigned mask,
                                   const std::source_location& where) {
  const unsigned tid = fibers_ ? running_ : current_tid();
  const unsigned lane = tid % kWarpSize;
  const unsigned warp = tid / kWarpSize;
  const unsigned lanes_here = std::min(kWarpSize, n_ - warp * kWarpSize);
  const unsigned existing =
      lanes_here == kWarpSize ? ~0u : (1u << lanes_here) - 1;
  if ((mask & (1u << lane)) == 0) {
    // The lane is not one of those it names: it waits for no one, and the
    // lanes of the mask do not wait for it.
    report_here("Barrier error detected. Invalid arguments", where);
    mask = 1u << lane;
  }
  mask &= existing;
  if (mask == (1u << lane)) {
    // A warp of one: nobody to wait for.
    if (op == WarpOp::kBallot) return value != 0 ? mask : 0;
    return value;
  }
  if (!fibers_) start_fibers(tid);
  const unsigned me = running_;
  lanes_[me] = Lane{value, 0, mask, src_lane, op};
  site_[me] = where;
  state_[me] = State::kAtWarpOp;
  try_release_warp(warp, mask);
  wait();
  return lanes_[me].result;
}

bool BlockRunner::try_release_warp(unsigned warp, unsigned mask) {
  const unsigned base = warp * kWarpSize;
  unsigned ballot = 0;
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    if ((mask & (1u << lane)) == 0) continue;
    const unsigned tid = base + lane;
    if (state_[tid] != State::kAtWarpOp || lanes_[tid].mask != mask)
      return false;
    if (lanes_[tid].value != 0) ballot |= 1u << lane;
  }
  // Every lane of the mask has deposited its value: all see them at once,
  // as the lanes of a warp in lock-step would.
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    if ((mask & (1u << lane)) == 0) continue;
    Lane& l = lanes_[base + lane];
    switch (l.op) {
      case WarpOp::kShuffle:
        l.result = (l.src < kWarpSize && (mask & (1u << l.src)) != 0)
                       ? lanes_[base + l.src].value
                       : l.value;
        break;
      case WarpOp::kBallot:
        l.result = ballot;
        break;
      case WarpOp::kSync:
        l.result = 0;
        break;
    }
    state_[base + lane] = State::kRunnable;
  }
  return true;
}

void BlockRunner::release_stuck_warps() {
  // Nothing can run: lanes wait at a warp primitive for lanes that ended or
  // wait elsewhere. Report it, and let the waiting lanes go with what the
  // lanes that came deposited.
  for (unsigned tid = 0; tid < n_; ++tid) {
    if (state_[tid] != State::kAtWarpOp) continue;
    const unsigned warp = tid / kWarpSize;
    const unsigned base = warp * kWarpSize;
    const unsigned mask = lanes_[tid].mask;
    unsigned present = 0;
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      const unsigned t = base + lane;
      if ((mask & (1u << lane)) != 0 && state_[t] == State::kAtWarpOp &&
          lanes_[t].mask == mask) {
        present |= 1u << lane;
      }
    }
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      if ((mask & (1u << lane)) != 0 && (present & (1u << lane)) == 0) {
        report_thread("Barrier error detected. Divergent thread(s) in warp",
                      site_[tid], base + lane);
        break;
      }
    }
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      if ((present & (1u << lane)) != 0) lanes_[base + lane].mask = present;
    }
    try_release_warp(warp, present);
  }
}

unsigned BlockRunner::pick_next() {
  unsigned position = cursor_;
  for (unsigned step = 0; step < n_; ++step) {
    if (++position == n_) position = 0;
    const State s = state_[order_[position]];
    if (s == State::kRunnable || s == State::kNotStarted) {
      cursor_ = position;
      return order_[position];
    }
  }
  return kNone;
}

void BlockRunner::wait() {
  const unsigned me = running_;
  for (;;) {
    unsigned next = pick_next();
    if (next == kNone) {
      release_stuck_warps();
      next = pick_next();
      if (next == kNone) {
        std::fprintf(
            stderr,
            "cuda emulator: block deadlocked (a bug of the emulator)\n");
        std::abort();
      }
    }
    if (next == me) {
      state_[me] = State::kRunning;
      return;
    }
    switch_to(next);
    if (state_[me] == State::kRunning) return;
  }
}

void BlockRunner::make_running(unsigned next, const void** bottom,
                               std::size_t* size) {
  *bottom = main_stack_bottom_;
  *size = main_stack_size_;
  if (next != n_ && next != main_tid_) {
    if (state_[next] == State::kNotStarted) {
      if (!stacks_[next])
        stacks_[next] = std::make_unique<FiberStack>(FiberStack::kDefaultBytes);
      context_[next] = boost::context::detail::make_fcontext(
          stacks_[next]->top(), stacks_[next]->size(),
          &BlockRunner::fiber_entry);
    }
    *bottom = stacks_[next]->bottom();
    *size = stacks_[next]->size();
  }
  if (next != n_) {
    state_[next] = State::kRunning;
    enter_thread(next);
  }
  from_ = running_;
  running_ = next;
}

void BlockRunner::switch_to(unsigned next) {
  const unsigned me = running_;
  const void* bottom = nullptr;
  std::size_t size = 0;
  make_running(next, &bottom, &size);
  announce_switch(&fake_stack_[me], bottom, size);
  arrive(boost::context::detail::jump_fcontext(context_[next], this));
}

void BlockRunner::arrive(transfer_t from) {
  const void* bottom = nullptr;
  std::size_t size = 0;
  announce_arrival(fake_stack_[running_], &bottom, &size);
  if ((from_ == main_tid_ || from_ == n_) && bottom != nullptr) {
    main_stack_bottom_ = bottom;
    main_stack_size_ = size;
  }
  context_[from_] = from.fctx;
}

void BlockRunner::fiber_entry(transfer_t from) {
  auto* self = static_cast<BlockRunner*>(from.data);
  self->arrive(from);
  self->launch_->run_thread(self->launch_->thunk);
  boost::context::detail::jump_fcontext(self->finish_fiber(), self);
  std::abort();  // a finished fiber is never resumed
}

fcontext_t BlockRunner::finish_fiber() {
  const unsigned me = running_;
  state_[me] = State::kDone;
  ++done_;
  try_release_barrier();
  unsigned next = pick_next();
  if (next == kNone && done_ < n_) {
    release_stuck_warps();
    next = pick_next();
  }
  if (next == kNone) next = n_;  // all done: back to the host thread's stack
  const void* bottom = nullptr;
  std::size_t size = 0;
  make_running(next, &bottom, &size);
  // nullptr: this fiber is over, AddressSanitizer may drop its frames.
  announce_switch(nullptr, bottom, size);
  return context_[next];
}

void BlockRunner::finish_main_thread() {
  state_[main_tid_] = State::kDone;
  ++done_;
  try_release_barrier();
  running_ = n_;
  while (done_ < n_) {
    unsigned next = pick_next();
    if (next == kNone) {
      release_stuck_warps();
      continue;
    }
    switch_to(next);
  }
}

void BlockRunner::report_here(const char* what,
                              const std::source_location& where) {
  report_thread(what, where, fibers_ ? running_ : current_tid());
}

void BlockRunner::report_thread(const char* what,
                                const std::source_location& where,
                                unsigned tid) {
  report(what,
         ReportSite{launch_->kernel_name, where.file_name(), where.line(),
                    coordinates(tid, launch_->block), this_thread.block_idx});
  if (launch_->failed != nullptr) launch_->failed->store(true);
}

}  // namespace minitf::gpu::emulator
