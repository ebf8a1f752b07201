// Test-only ops for the tests of the parallel executor and the DirectSession,
// registered for CPU and GPU devices:
//   DeviceTestFail  -> y: float    always fails: "this op always fails"
//   DeviceTestMeet  x -> y: float  waits until kMeetParties of its kind have
//                                  started, so it passes only when they run
//                                  at the same time; fails after 10 s
//   DeviceTestBlock x -> y: float  waits until Release(), then outputs 1
//   DeviceTestIntraOpThreads x -> y: int32
//                                  the threads of the intra-op pool its kernel
//                                  runs under, -1 when none is named
// (Meet and Block read a constant, so that the executor counts them as
// work worth a thread, not as cheap sources.)
//
//   tf::testing::MeetCount() = 0;
//   auto a = tf::testing::Meet("a"), b = tf::testing::Meet("b");
#pragma once

#include <atomic>
#include <string>

#include "minitf/graph/graph.h"

namespace minitf::testing {

inline constexpr int kMeetParties = 2;

/// How many DeviceTestMeet kernels have started; reset it between tests.
std::atomic<int>& MeetCount();
/// Lets every DeviceTestBlock kernel, waiting or to come, finish; Reset()
/// makes them wait again.
void Release();
void ResetBlock();

Output Fail(const std::string& name);
Output Meet(const std::string& name);
Output Block(const std::string& name);
Output IntraOpThreads(const std::string& name);

}  // namespace minitf::testing
