// The timing helpers every chapter's benchmark uses: best-of-N wall time and
// a barrier that keeps the optimiser from deleting unused results.
//
//   double s = minitf::bench::BestSeconds(7, [&] { auto c = f(); ... });
//   minitf::bench::DoNotOptimize(c);
#pragma once

#include <time.h>

#include <algorithm>
#include <chrono>
#include <functional>

namespace minitf::bench {

/// The best of `reps` timings of fn(), in seconds: the least disturbed run.
inline double BestSeconds(int reps, const std::function<void()>& fn) {
  using Clock = std::chrono::steady_clock;
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    const auto start = Clock::now();
    fn();
    best = std::min(
        best, std::chrono::duration<double>(Clock::now() - start).count());
  }
  return best;
}

/// The best of `reps` runs of fn(), in seconds of the calling thread's CPU
/// time: on a busy machine wall time counts the waits for a core too, CPU
/// time only the work (chapter 5's emulator benchmarks, one thread each).
inline double BestThreadCpuSeconds(int reps, const std::function<void()>& fn) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    timespec start, end;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
    fn();
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end);
    best = std::min(best, double(end.tv_sec - start.tv_sec) +
                              1e-9 * double(end.tv_nsec - start.tv_nsec));
  }
  return best;
}

/// Keeps the optimiser from deleting work whose result is unused.
template <typename T>
void DoNotOptimize(const T& value) {
  asm volatile("" : : "r,m"(value) : "memory");
}

}  // namespace minitf::bench
