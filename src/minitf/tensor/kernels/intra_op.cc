#include "minitf/tensor/kernels/intra_op.h"

#include <immintrin.h>
#include <omp.h>

#include <Eigen/Core>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>

#include "minitf/tensor/status.h"

namespace minitf::kernels {

namespace {

thread_local Eigen::ThreadPoolInterface* current_pool = nullptr;

// The pool of the threads that name none: GetNumThreads() - 1 threads, the
// caller of ParallelFor being the last; none for one thread. Made on first
// use and made again when SetNumThreads has changed the count; a caller
// holds the pool it got for as long as it uses it.
std::shared_ptr<Eigen::ThreadPoolInterface> ProcessPool() {
  static std::mutex mu;
  static std::shared_ptr<Eigen::ThreadPoolInterface> pool;
  const int helpers = GetNumThreads() - 1;
  std::lock_guard<std::mutex> lock(mu);
  if (helpers < 1) return nullptr;
  if (pool == nullptr || pool->NumThreads() != helpers) {
    pool = std::make_shared<Eigen::ThreadPool>(helpers);
  }
  return pool;
}

// --8<-- [start:linger]
// How long a pool thread stays awake after its shards, watching for the next
// split. Eigen's pool puts an idle thread to sleep after a few thousand looks
// at its queue, and waking it takes the operating system some microseconds,
// which the caller of the next split spends waiting for its shard. A training
// step splits a few times, tens of microseconds apart: a thread that stays
// awake through the gap starts its next shard at once, while one that spun for
// much longer would spin through whole steps for nothing. OpenMP's threads do
// the same after a parallel region (GCC's libgomp polls 300,000 times by
// default before it sleeps).
constexpr std::chrono::microseconds kLinger(100);

// The splits begun so far, so that a lingering thread sees the next one.
std::atomic<uint64_t> splits_begun{0};

// Polls until a split after the `seen`-th has begun, on any pool, or kLinger
// has passed. The thread then returns to its pool's loop, where the new
// split's task, if it was for this pool, is waiting in the queue. Between
// looks it yields its core: on a machine with more threads than cores the
// operating system may have put it on the core of the very thread whose
// next split it waits for, and a thread that spun there would delay it.
void Linger(uint64_t seen) {
  const auto until = std::chrono::steady_clock::now() + kLinger;
  while (splits_begun.load(std::memory_order_relaxed) == seen &&
         std::chrono::steady_clock::now() < until) {
    std::this_thread::yield();
  }
}
// --8<-- [end:linger]

}  // namespace

void SetNumThreads(int n) {
  // The kernels that split their work read Eigen's setting; Eigen's own
  // products, which the integer ones still reach, parallelise with OpenMP.
  // Both settings must agree.
  omp_set_num_threads(n < 1 ? 1 : n);
  Eigen::setNbThreads(n < 1 ? 1 : n);
}

int GetNumThreads() { return Eigen::nbThreads(); }

Eigen::ThreadPoolInterface* CurrentIntraOpPool() { return current_pool; }

ScopedIntraOpPool::ScopedIntraOpPool(Eigen::ThreadPoolInterface* pool)
    : pool_(pool), previous_(current_pool) {
  current_pool = pool;
}

ScopedIntraOpPool::~ScopedIntraOpPool() {
  // Scopes end in the reverse order of their start, on their own thread.
  MINITF_CHECK(current_pool == pool_);
  current_pool = previous_;
}

int IntraOpThreads() {
  return current_pool != nullptr ? current_pool->NumThreads() : GetNumThreads();
}

// --8<-- [start:parallel_for]
void ParallelFor(int n, const std::function<void(int)>& fn) {
  std::shared_ptr<Eigen::ThreadPoolInterface> process_pool;
  Eigen::ThreadPoolInterface* pool = current_pool;
  if (pool == nullptr && n > 1) {
    process_pool = ProcessPool();
    pool = process_pool.get();
  }
  if (n <= 1 || pool == nullptr || pool->CurrentThreadId() >= 0) {
    for (int i = 0; i < n; ++i) fn(i);
    return;
  }
  // The shards are taken from a counter, by this thread and by up to n - 1
  // of the pool's: a helper that starts late, its core busy with other
  // work, finds every shard taken and leaves at once. So this thread never
  // waits for a thread that has not started; it waits only for the shards
  // another thread has begun. (A fixed share per thread, as an OpenMP loop
  // gives, makes every split product wait for the slowest thread to be
  // scheduled: on a machine with more runnable threads than cores, a
  // training step on 2 threads can then take several times as long as on
  // 1.) The state outlives this call, for the helpers that start after it;
  // they touch `fn` only for a shard they took, which this call waits for.
  struct Shards {
    explicit Shards(int count, const std::function<void(int)>* f)
        : n(count), fn(f), left(count) {}
    const int n;
    const std::function<void(int)>* const fn;
    std::atomic<int> next{0};
    std::atomic<int> left;
    Eigen::Notification all_done;
    // Runs shards until none is left to take.
    void Take() {
      for (int i; (i = next.fetch_add(1)) < n;) {
        (*fn)(i);
        if (left.fetch_sub(1, std::memory_order_acq_rel) == 1) {
          all_done.Notify();
        }
      }
    }
  };
  auto shards = std::make_shared<Shards>(n, &fn);
  const uint64_t seen = splits_begun.fetch_add(1) + 1;
  const int helpers = std::min(n - 1, pool->NumThreads());
  for (int h = 0; h < helpers; ++h) {
    pool->Schedule([shards, seen] {
      shards->Take();
      Linger(seen);  // awake for the next split, briefly
    });
  }
  shards->Take();
  // A shard begun on another core most often ends within microseconds of
  // this thread's last one: a short spin first (about 4,000 pauses, tens of
  // microseconds), since a sleep and a wake-up cost more; then sleep.
  for (int spin = 0; spin < 4096 && shards->left.load() > 0; ++spin) {
    _mm_pause();
  }
  shards->all_done.Wait();
}
// --8<-- [end:parallel_for]

}  // namespace minitf::kernels
