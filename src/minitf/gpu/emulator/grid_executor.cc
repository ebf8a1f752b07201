#include "minitf/gpu/emulator/grid_executor.h"

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace minitf::gpu::emulator {
namespace {

// One grid's blocks, taken from `next` by every host thread working on it.
struct GridWork {
  const KernelLaunch* launch;
  std::uint64_t total;
  std::atomic<std::uint64_t> next{0};

  // --8<-- [start:grid_work]
  void run_blocks() {
    BlockRunner& runner = BlockRunner::for_this_thread();
    const dim3 grid = launch->grid;
    for (std::uint64_t b;
         (b = next.fetch_add(1, std::memory_order_relaxed)) < total;) {
      const auto x = static_cast<unsigned>(b % grid.x);
      const auto y = static_cast<unsigned>(b / grid.x % grid.y);
      const auto z =
          static_cast<unsigned>(b / (std::uint64_t{grid.x} * grid.y));
      runner.run(*launch, uint3{x, y, z});
    }
  }
  // --8<-- [end:grid_work]
};

// Helper threads that wait for a grid, run blocks of it, and report back.
class HelperPool {
 public:
  explicit HelperPool(int helpers) {
    for (int i = 0; i < helpers; ++i)
      threads_.emplace_back([this] { serve(); });
  }
  int size() const { return static_cast<int>(threads_.size()); }

  /// Runs `work` on `helpers` helpers and the calling thread.
  /// REQUIRES: the caller holds busy().
  void run(GridWork& work, int helpers) {
    {
      std::lock_guard lock(mutex_);
      work_ = &work;
      wanted_ = helpers;
      joined_ = 0;
      finished_ = 0;
      ++generation_;
    }
    wake_.notify_all();
    work.run_blocks();
    std::unique_lock lock(mutex_);
    finished_cv_.wait(
        lock, [&] { return finished_ == joined_ && joined_ == wanted_; });
    work_ = nullptr;
  }

  std::mutex& busy() { return busy_; }

 private:
  void serve() {
    std::uint64_t seen = 0;
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return generation_ != seen; });
      seen = generation_;
      if (joined_ >= wanted_) continue;
      ++joined_;
      GridWork* work = work_;
      lock.unlock();
      work->run_blocks();
      lock.lock();
      ++finished_;
      finished_cv_.notify_all();
    }
  }

  std::mutex busy_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable finished_cv_;
  GridWork* work_ = nullptr;
  std::uint64_t generation_ = 0;
  int wanted_ = 0;
  int joined_ = 0;
  int finished_ = 0;
  std::vector<std::thread> threads_;
};

int host_threads() {
  const int wanted = options().host_threads;
  if (wanted > 0) return wanted;
  return std::max(1u, std::thread::hardware_concurrency());
}

HelperPool& pool_of(int helpers) {
  // Pools are kept for the life of the process (their threads block on a
  // condition variable); one per size asked for, which tests change rarely.
  static std::mutex mutex;
  static std::vector<HelperPool*>* pools = new std::vector<HelperPool*>;
  std::lock_guard lock(mutex);
  for (HelperPool* pool : *pools) {
    if (pool->size() == helpers) return *pool;
  }
  pools->push_back(new HelperPool(helpers));
  return *pools->back();
}

}  // namespace

void run_grid(const KernelLaunch& launch) {
  GridWork work{&launch,
                std::uint64_t{launch.grid.x} * launch.grid.y * launch.grid.z};
  if (launch.serial_blocks) {
    // The kernel's __shared__ arrays are process-wide statics: one block at
    // a time in the whole process.
    static std::mutex serial;
    std::lock_guard lock(serial);
    work.run_blocks();
    return;
  }
  const int helpers =
      static_cast<int>(std::min<std::uint64_t>(host_threads(), work.total)) - 1;
  if (helpers <= 0) {
    work.run_blocks();
    return;
  }
  HelperPool& pool = pool_of(host_threads() - 1);
  std::unique_lock busy(pool.busy(), std::try_to_lock);
  if (!busy.owns_lock()) {
    work.run_blocks();
    return;
  }
  pool.run(work, helpers);
}

}  // namespace minitf::gpu::emulator
