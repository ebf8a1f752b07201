// The timing helpers every chapter's benchmark uses: best-of-N wall time, the
// median and range of a figure over several runs, and a barrier that keeps
// the optimiser from deleting unused results.
//
//   double s = minitf::bench::BestSeconds(7, [&] { auto c = f(); ... });
//   minitf::bench::DoNotOptimize(c);
//   std::string cell = minitf::bench::MedianRange({1.2, 1.0, 1.1}, 2);
//   // "1.10 (1.00–1.20)"
//   minitf::bench::RunOptions opt;  // --quick, --runs N
//   if (!minitf::bench::ParseRunOptions(argc, argv, "my_bench", &opt)) return
//   2;
#pragma once

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

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

/// The median of `values` (the mean of the middle two for an even count).
/// REQUIRES: values is not empty.
inline double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

/// A table cell for one figure measured in several runs: the median with
/// `digits` digits after the point, then the range over the runs in
/// brackets ("1.10 (1.00–1.20)"); the value alone when there is one run.
/// REQUIRES: values is not empty.
inline std::string MedianRange(const std::vector<double>& values, int digits) {
  auto fixed = [digits](double v) {
    char text[64];
    std::snprintf(text, sizeof(text), "%.*f", digits, v);
    return std::string(text);
  };
  std::string cell = fixed(Median(values));
  if (values.size() > 1) {
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    cell += " (" + fixed(*lo) + "–" + fixed(*hi) + ")";
  }
  return cell;
}

/// The options of a benchmark that runs in full or quickly: --quick (fewer
/// sizes and repetitions, one run unless --runs says otherwise) and --runs
/// N (how many runs each figure is the median of).
struct RunOptions {
  bool quick = false;
  int runs = 5;
};

/// Reads `argv` into `opt`. On a word it does not know or a --runs below 1,
/// prints the usage of `program` to stderr and returns false.
inline bool ParseRunOptions(int argc, char** argv, const char* program,
                            RunOptions* opt) {
  bool runs_given = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      opt->quick = true;
    } else if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
      opt->runs = std::atoi(argv[++i]);
      runs_given = true;
    } else {
      std::fprintf(stderr, "usage: %s [--quick] [--runs N]\n", program);
      return false;
    }
  }
  if (opt->quick && !runs_given) opt->runs = 1;
  if (opt->runs < 1) {
    std::fprintf(stderr, "%s: --runs needs a number above 0\n", program);
    return false;
  }
  return true;
}

/// The note under a benchmark's tables that says what each figure is.
inline std::string RunsNote(int runs) {
  return runs == 1 ? std::string(
                         "Each figure: one run, the best of several "
                         "repetitions.")
                   : "Each figure: the median over " + std::to_string(runs) +
                         " runs, each the best of several repetitions; in "
                         "brackets, the lowest and highest run.";
}

/// Keeps the optimiser from deleting work whose result is unused.
template <typename T>
void DoNotOptimize(const T& value) {
  asm volatile("" : : "r,m"(value) : "memory");
}

}  // namespace minitf::bench
