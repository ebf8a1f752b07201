// Checks shared by the tests of every chapter's exercises.
//
// A test compares what the learner's code computed with what it should be.
// When two long vectors differ, GoogleTest's EXPECT_EQ prints both in full
// (or their first 32 elements, which may be equal); SameValues and
// NearValues print instead where they first differ, both values there, and
// how many elements differ in all. ReturnsWithin runs a call that might
// never return (a loop that does not end, a wait for something that never
// comes) and fails the test, naming the call, when it has not returned in
// time.
//
//   EXPECT_TRUE(SameValues(y.to_host(), want));
//   EXPECT_TRUE(NearValues(got, want, 1e-6));
//   int runs = ReturnsWithin(10, "RunTokenLoop", "on a closed queue",
//                            [&] { return RunTokenLoop(&sess, op, &coord); });
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace minitf::exercises {

namespace internal {

// Whether a and b count as equal: within `tol`, or both NaN.
template <class T>
bool Same(const T& a, const T& b, double tol) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    if (tol == 0) return a == b;
    return std::fabs(static_cast<double>(a) - static_cast<double>(b)) <= tol;
  } else {
    (void)tol;
    return a == b;
  }
}

template <class T>
::testing::AssertionResult Compare(const std::vector<T>& got,
                                   const std::vector<T>& want, double tol,
                                   std::size_t row_length) {
  if (got.size() != want.size()) {
    return ::testing::AssertionFailure()
           << "got " << got.size() << " elements, want " << want.size();
  }
  std::size_t first = got.size();
  std::size_t differ = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!Same(got[i], want[i], tol)) {
      if (differ == 0) first = i;
      ++differ;
    }
  }
  if (differ == 0) return ::testing::AssertionSuccess();
  ::testing::AssertionResult failure = ::testing::AssertionFailure();
  failure << differ << " of " << got.size() << " elements differ";
  if (tol > 0) failure << " by more than " << tol;
  failure << "; the first is element " << first;
  if (row_length > 0) {
    failure << " (row " << first / row_length << ", column "
            << first % row_length << ")";
  }
  failure << ": got " << ::testing::PrintToString(got[first]) << ", want "
          << ::testing::PrintToString(want[first]);
  return failure;
}

}  // namespace internal

/// Passes when `got` has the size and the values of `want`, element for
/// element (two NaNs count as equal). Fails with the first differing index,
/// both values there, and the number of differing elements. With a
/// `row_length`, the vectors hold a matrix's rows one after the other, and
/// the index is also given as row and column.
template <class T>
::testing::AssertionResult SameValues(const std::vector<T>& got,
                                      const std::vector<T>& want,
                                      std::size_t row_length = 0) {
  return internal::Compare(got, want, 0, row_length);
}

/// SameValues, with each element allowed to differ by at most `tol`.
template <class T>
::testing::AssertionResult NearValues(const std::vector<T>& got,
                                      const std::vector<T>& want, double tol,
                                      std::size_t row_length = 0) {
  return internal::Compare(got, want, tol, row_length);
}

/// What `result` holds, once it is ready, provided that is within `seconds`.
/// If it is not, the test fails with "your <name> never returned within
/// <seconds> s <why>" and the program ends at once: a call that never returns
/// cannot be stopped from outside, and the test cannot go on without it.
template <class R>
R GetWithin(std::future<R>& result, int seconds, const std::string& name,
            const std::string& why) {
  if (result.wait_for(std::chrono::seconds(seconds)) !=
      std::future_status::ready) {
    ADD_FAILURE() << "your " << name << " never returned within " << seconds
                  << " s " << why;
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(1);
  }
  return result.get();
}

/// Calls `call` and returns what it returns (or throws what it throws),
/// provided it returns within `seconds`; otherwise fails and ends the
/// program as GetWithin does. `call` runs on a thread of its own, so it must
/// not rely on running on the test's thread.
template <class F>
auto ReturnsWithin(int seconds, const std::string& name, const std::string& why,
                   F call) -> decltype(call()) {
  std::future<decltype(call())> result =
      std::async(std::launch::async, std::move(call));
  return GetWithin(result, seconds, name, why);
}

}  // namespace minitf::exercises
