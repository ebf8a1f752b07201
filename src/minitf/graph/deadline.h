// deadline.h: a timeout a user gave, as a point in time.
//
// RunOptions::timeout_in_ms and ConfigProto::operation_timeout_in_ms are
// int64 milliseconds, and any value may come, from a program or over the
// wire. Adding a very large one to a clock's "now" would overflow the
// clock's nanoseconds (undefined behaviour in C++, and in practice a
// deadline in the past: a run that fails at once). So a timeout longer than
// a hundred years means a hundred years, which no run outlives: in effect,
// no timeout, as the user meant. The sessions and the distributed runtime
// turn every such timeout into a deadline through these.
//
//   auto deadline = DeadlineAfter(std::chrono::steady_clock::now(),
//                                 run_options.timeout_in_ms);
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>

namespace minitf {

/// The longest timeout honoured as given: about a hundred years.
inline constexpr int64_t kMaxTimeoutMs = int64_t{100} * 365 * 24 * 3600 * 1000;

/// `ms` brought into [0, kMaxTimeoutMs].
inline int64_t ClampTimeoutMs(int64_t ms) {
  return std::clamp<int64_t>(ms, 0, kMaxTimeoutMs);
}

/// `now` plus `ms` milliseconds, `ms` clamped first. For a clock whose
/// "now" is less than a century past its epoch (system_clock, steady_clock)
/// the sum never overflows.
template <typename TimePoint>
TimePoint DeadlineAfter(TimePoint now, int64_t ms) {
  return now + std::chrono::milliseconds(ClampTimeoutMs(ms));
}

}  // namespace minitf
