// Intra-op parallelism: the threads that one kernel splits its work between.
//
// In chapters 1 to 3 those are the calling thread and the threads of one
// pool for the whole process, as many in all as kernels::SetNumThreads
// says. TensorFlow's CPU device instead owns a pool of threads for the work
// inside one op, sized by ConfigProto.intra_op_parallelism_threads, and its
// kernels cut their work into shards that run on that pool. This header is
// the hook through which chapter 4 does the same without layer 1 knowing
// that devices exist: a thread may name a pool (ScopedIntraOpPool), and the
// kernels that split their work (the GEMM driver of matmul.cc, chapter 3's
// optimizer updates) ask IntraOpThreads() how many threads there are and
// ThreadsFor() how many their work is worth, and run that many shards with
// ParallelFor: on the named pool, or on the process's pool when there is
// none.
//
//   {
//     tf::kernels::ScopedIntraOpPool on(device_pool);  // chapter 4's executor
//     kernel->Compute(ctx);                      // its shards run on the pool
//   }
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>

// Eigen's thread pool, from Eigen's unsupported modules (libeigen3-dev).
#include <unsupported/Eigen/CXX11/ThreadPool>

namespace minitf::kernels {

/// Threads of the process's intra-op pool, which a thread that names no pool
/// splits its kernels' work between (Eigen's setting, also given to OpenMP
/// for Eigen's own products): the calling thread and n - 1 of the pool's; by
/// default, one per core.
void SetNumThreads(int n);
int GetNumThreads();

/// The pool the calling thread named for its kernels' shards, or nullptr
/// when it named none (they use the process's pool then).
Eigen::ThreadPoolInterface* CurrentIntraOpPool();

/// Makes `pool` the calling thread's intra-op pool for the scope's lifetime,
/// then restores the one before; scopes nest. A null `pool` means the
/// process's.
/// Only the constructing thread sees it: a scope is thread-local state.
class ScopedIntraOpPool {
 public:
  explicit ScopedIntraOpPool(Eigen::ThreadPoolInterface* pool);
  ~ScopedIntraOpPool();
  ScopedIntraOpPool(const ScopedIntraOpPool&) = delete;
  ScopedIntraOpPool& operator=(const ScopedIntraOpPool&) = delete;

 private:
  Eigen::ThreadPoolInterface* const pool_;
  Eigen::ThreadPoolInterface* const previous_;
};

/// How many threads a kernel on the calling thread may split its work
/// between: its pool's size, or GetNumThreads() without one.
int IntraOpThreads();

// --8<-- [start:threads_for]
/// How many threads `work` is worth: one for each `min_work_per_thread` of
/// it, since a thread given less costs about what it saves, and at least 1;
/// at most `threads` and at most `units`, the pieces the work can be cut
/// into. Each kernel that splits its work counts it in its own unit: GEMM in
/// multiply-adds, FusedMatMul's bias and the optimizers' updates in values.
inline int ThreadsFor(double work, double min_work_per_thread, int64_t units,
                      int threads) {
  const double worth =
      std::clamp<double>(work / min_work_per_thread, 1, std::max(threads, 1));
  return static_cast<int>(std::min<double>(worth, std::max<int64_t>(units, 1)));
}
// --8<-- [end:threads_for]

/// Runs fn(0), ..., fn(n - 1), at the same time as far as threads allow,
/// and returns when every call has. The calling thread and up to n - 1 of
/// the pool's threads (the named pool, else the process's, which has
/// GetNumThreads() - 1) take the calls one at a time until none is left, so
/// which thread runs which call is not fixed: a pool thread that is slow to
/// start may run none, and the caller then runs them all. n <= 1, one
/// thread, or a caller that is itself one of the pool's threads (which must
/// not wait for its own pool) runs them one after another on the calling
/// thread. A pool thread that has run its shards stays awake for up to 100
/// µs, watching for the next split, before its pool lets it sleep.
void ParallelFor(int n, const std::function<void(int)>& fn);

}  // namespace minitf::kernels
