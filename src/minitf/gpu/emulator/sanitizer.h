// What the emulator checks, and how it runs the threads of a block. A GPU
// does not say when a kernel misuses it; NVIDIA's compute-sanitizer does, and
// the emulator reports the same findings in the same words, with the thread
// and block that made them: a barrier that some threads of a block skip
// ("Divergent thread(s) in block"), a warp primitive whose mask leaves out the
// calling lane ("Invalid arguments"). Out-of-bounds accesses are left to
// AddressSanitizer, which sees every emulated load and store; when it stops
// the program, the emulator adds the emulated thread and block it was in.
//
// The order option is the emulator's own: between two barriers CUDA promises
// no order among a block's threads, so running them forward, backward or
// shuffled must give the same result. A kernel that is missing a
// __syncthreads() gives a different one.
//
//   minitf::gpu::emulator::set_options({.order = ThreadOrder::kReverse});
//   MINITF_LAUNCH(kernel, grid, block, 0, 0, args...);
//   cudaDeviceSynchronize();            // cudaErrorLaunchFailure if reported
//   for (auto& r : minitf::gpu::emulator::take_reports()) std::cerr << r;
//   minitf::gpu::emulator::set_options({});     // forward order again
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "minitf/gpu/emulator/cuda_types.h"

namespace minitf::gpu::emulator {

/// The order in which a block's threads run between two barriers.
enum class ThreadOrder {
  kForward,   ///< thread 0, 1, 2, ...: deterministic
  kReverse,   ///< the last thread first: deterministic
  kShuffled,  ///< a new permutation after every barrier, drawn from `seed`
};

struct Options {
  ThreadOrder order = ThreadOrder::kForward;
  /// Seeds kShuffled's permutations; with the same seed, the same orders.
  std::uint64_t seed = 1;
  /// Host threads that run blocks at once; 0 means one per CPU core.
  int host_threads = 0;
  /// Print each report to standard error as compute-sanitizer would.
  bool print_reports = true;
};

/// Replaces the options. REQUIRES: no kernel is running.
/// The environment sets the initial ones: MINITF_CUDA_EMULATOR_ORDER
/// (forward, reverse, shuffled) and MINITF_CUDA_EMULATOR_THREADS.
void set_options(const Options& options);
Options options();

/// Where in a kernel a report points: the emulated thread and block, the
/// kernel's name and the source line of the call that was misused.
struct ReportSite {
  const char* kernel;
  const char* file;
  unsigned line;
  uint3 thread;
  uint3 block;
};

/// Records one finding: `what` is compute-sanitizer's headline ("Barrier
/// error detected. Divergent thread(s) in block"). Thread-safe.
void report(const char* what, const ReportSite& site);

/// The reports since the last call, oldest first, each as printed.
std::vector<std::string> take_reports();

/// Under AddressSanitizer, makes its reports end with the emulated thread
/// and block that made the bad access. Idempotent; nothing without it.
void install_address_sanitizer_hook();

}  // namespace minitf::gpu::emulator
