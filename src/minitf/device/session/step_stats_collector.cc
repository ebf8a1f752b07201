#include "minitf/device/session/step_stats_collector.h"

#include <atomic>
#include <chrono>
#include <utility>

namespace minitf {

void StepStatsCollector::Save(const std::string& device, NodeExecStats stats) {
  std::lock_guard<std::mutex> lock(mu_);
  auto [it, added] = index_of_.emplace(device, devices_.size());
  if (added) devices_.push_back(DeviceStepStats{device, {}});
  devices_[it->second].node_stats.push_back(std::move(stats));
}

void StepStatsCollector::Finalize(StepStats* step_stats) {
  std::lock_guard<std::mutex> lock(mu_);
  for (DeviceStepStats& d : devices_) {
    step_stats->dev_stats.push_back(std::move(d));
  }
  devices_.clear();
  index_of_.clear();
}

int64_t NowMicros() {
  using std::chrono::duration_cast;
  using std::chrono::microseconds;
  using std::chrono::steady_clock;
  using std::chrono::system_clock;
  // The wall clock can step back (NTP, a virtual machine's clock catching
  // up); durations measured with it could come out negative.
  static const int64_t epoch_at_start =
      duration_cast<microseconds>(system_clock::now().time_since_epoch())
          .count();
  static const steady_clock::time_point start = steady_clock::now();
  return epoch_at_start +
         duration_cast<microseconds>(steady_clock::now() - start).count();
}

uint32_t CurrentThreadNumber() {
  static std::atomic<uint32_t> next{1};
  thread_local const uint32_t number = next.fetch_add(1);
  return number;
}

}  // namespace minitf
