#include "minitf/tensor/kernels/intra_op.h"

#include <omp.h>

#include "minitf/tensor/kernels/matmul.h"
#include "minitf/tensor/status.h"

namespace minitf::kernels {

namespace {

thread_local Eigen::ThreadPoolInterface* current_pool = nullptr;

}  // namespace

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
  Eigen::ThreadPoolInterface* pool = current_pool;
  if (n <= 1 || (pool != nullptr && pool->CurrentThreadId() >= 0)) {
    for (int i = 0; i < n; ++i) fn(i);
    return;
  }
  if (pool == nullptr) {
#pragma omp parallel for num_threads(n) schedule(static)
    for (int i = 0; i < n; ++i) fn(i);
    return;
  }
  // The pool's threads take shards 1 to n-1; this thread takes shard 0 and
  // then waits for the others.
  Eigen::Barrier done(static_cast<unsigned>(n - 1));
  for (int i = 1; i < n; ++i) {
    pool->Schedule([&fn, &done, i] {
      fn(i);
      done.Notify();
    });
  }
  fn(0);
  done.Wait();
}
// --8<-- [end:parallel_for]

}  // namespace minitf::kernels
