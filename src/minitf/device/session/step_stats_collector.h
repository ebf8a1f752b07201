// StepStatsCollector: gathers the per-node records of one traced step.
//
// When a run asks for a trace, every executor of the step times each node
// it runs (NodeExecStats, run_metadata.h) and hands the record here, tagged
// with its device. At the end of the step the session moves the lot into
// RunMetadata::step_stats, one DeviceStepStats per device, which a timeline
// (timeline.h) turns into a picture. Executors of different devices report
// from their own threads at once, hence the lock.
//
//   tf::StepStatsCollector collector;
//   collector.Save(device->name(), std::move(node_stats));   // executors
//   collector.Finalize(&metadata.step_stats);                // the session
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "minitf/graph/run_metadata.h"

namespace minitf {

/// Invariants: records keep, per device, the order they were saved in.
/// Thread safety: Save may be called from any thread; Finalize once, after
/// the last Save.
class StepStatsCollector {
 public:
  void Save(const std::string& device, NodeExecStats stats);
  /// Appends one DeviceStepStats per device that saved anything, devices
  /// in the order they first saved, and empties the collector.
  void Finalize(StepStats* step_stats);

 private:
  std::mutex mu_;
  std::vector<DeviceStepStats> devices_;    // guarded by mu_
  std::map<std::string, size_t> index_of_;  // guarded by mu_
};

/// Microseconds since the epoch, the clock of NodeExecStats. The wall clock
/// is read once, when the process first asks; after that the time advances
/// with the monotonic clock, so it never runs backwards when the system's
/// clock is adjusted, and an op's end is never before its start.
int64_t NowMicros();
/// A small number for the calling thread, the same for its whole life:
/// 1 for the first thread that asks, 2 for the next ...
uint32_t CurrentThreadNumber();

}  // namespace minitf
