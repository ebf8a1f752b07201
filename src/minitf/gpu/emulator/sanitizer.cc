#include "minitf/gpu/emulator/sanitizer.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>
#include <utility>

#include "minitf/gpu/emulator/block_runner.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif

namespace minitf::gpu::emulator {
namespace {

Options from_environment() {
  Options options;
  if (const char* order = std::getenv("MINITF_CUDA_EMULATOR_ORDER")) {
    if (std::strcmp(order, "reverse") == 0)
      options.order = ThreadOrder::kReverse;
    if (std::strcmp(order, "shuffled") == 0)
      options.order = ThreadOrder::kShuffled;
  }
  if (const char* threads = std::getenv("MINITF_CUDA_EMULATOR_THREADS")) {
    options.host_threads = std::max(0, std::atoi(threads));
  }
  return options;
}

struct Shared {
  std::mutex mutex;
  Options options = from_environment();
  std::vector<std::string> reports;
};

Shared& shared() {
  static Shared* state = new Shared;  // lives as long as any host thread
  return *state;
}

std::string format(const char* what, const ReportSite& site) {
  std::ostringstream out;
  out << "========= " << what << "\n"
      << "=========     at " << site.kernel << " in " << site.file << ":"
      << site.line << "\n"
      << "=========     by thread (" << site.thread.x << "," << site.thread.y
      << "," << site.thread.z << ") in block (" << site.block.x << ","
      << site.block.y << "," << site.block.z << ")\n"
      << "=========\n";
  return out.str();
}

#if defined(__SANITIZE_ADDRESS__)
// Runs on the host thread whose access AddressSanitizer caught, before it
// ends the program: this_thread is the emulated thread that made it.
void name_emulated_thread() {
  const ThreadContext& ctx = this_thread;
  if (ctx.runner == nullptr) return;
  std::fprintf(stderr,
               "========= in the CUDA emulator: by thread (%u,%u,%u) in block "
               "(%u,%u,%u)\n",
               ctx.thread_idx.x, ctx.thread_idx.y, ctx.thread_idx.z,
               ctx.block_idx.x, ctx.block_idx.y, ctx.block_idx.z);
}
#endif

}  // namespace

void set_options(const Options& options) {
  std::lock_guard lock(shared().mutex);
  shared().options = options;
}

Options options() {
  std::lock_guard lock(shared().mutex);
  return shared().options;
}

void report(const char* what, const ReportSite& site) {
  std::string text = format(what, site);
  std::lock_guard lock(shared().mutex);
  if (shared().options.print_reports) std::fputs(text.c_str(), stderr);
  shared().reports.push_back(std::move(text));
}

std::vector<std::string> take_reports() {
  std::lock_guard lock(shared().mutex);
  return std::exchange(shared().reports, {});
}

void install_address_sanitizer_hook() {
#if defined(__SANITIZE_ADDRESS__)
  static std::once_flag once;
  std::call_once(once,
                 [] { __sanitizer_set_death_callback(&name_emulated_thread); });
#endif
}

}  // namespace minitf::gpu::emulator
