// Test helpers shared by the tests of chapter 5's kernel exercises.
//
// A kernel's test copies its inputs to the emulated device, launches the
// kernel, copies the result back and compares it with a CPU loop. The
// emulator runs a block's threads between two barriers in the order a test
// asks for; CUDA promises no order, so a correct kernel gives the same result
// in all three, and a kernel that is missing a __syncthreads() gives a wrong
// one in at least one of them. The fixture runs blocks on four host threads,
// so that they really run at once, and fails a test whose kernel the
// emulator reported (a barrier that only part of a block reached, say).
// CUDA's errors print by name (cudaErrorInvalidValue), and device results
// are compared with SameValues (exercise_checks.h), which names the first
// element that differs.
//
//   DeviceVector<float> d_x(x), d_y(y);
//   for (ThreadOrder order : kEveryOrder) {
//     UseOrder(order);
//     MINITF_LAUNCH(axpy_kernel, 4, 128, 0, 0, n, 2.f, d_x.get(), d_y.get());
//     ASSERT_TRUE(KernelsRan());
//     ASSERT_TRUE(KernelsRan(axpy(n, 2.f, d_x.get(), d_y.get())));
//     EXPECT_TRUE(SameValues(d_y.to_host(), want));
//   }
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "exercise_checks.h"
#include "minitf/gpu/emulator/cuda.h"
#include "minitf/gpu/emulator/sanitizer.h"

/// How GoogleTest prints a cudaError_t: by CUDA's name for it
/// (cudaErrorInvalidConfiguration), not its number. A function in the enum's
/// own namespace, the global one, so that GoogleTest finds it.
inline void PrintTo(cudaError_t error, std::ostream* os) {
  *os << cudaGetErrorName(error);
}

namespace minitf::exercises {

using gpu::emulator::ThreadOrder;

/// The orders in which the emulator can run a block's threads.
inline constexpr ThreadOrder kEveryOrder[] = {
    ThreadOrder::kForward, ThreadOrder::kReverse, ThreadOrder::kShuffled};

inline const char* OrderName(ThreadOrder order) {
  switch (order) {
    case ThreadOrder::kForward:
      return "threads in forward order";
    case ThreadOrder::kReverse:
      return "threads in reverse order";
    case ThreadOrder::kShuffled:
      return "threads in shuffled order";
  }
  return "";
}

/// Runs the blocks of the kernels launched from now on with their threads
/// in `order`, on four host threads.
inline void UseOrder(ThreadOrder order) {
  gpu::emulator::set_options(
      {.order = order, .host_threads = 4, .print_reports = false});
}

/// A device copy of a host vector, freed at the end of the scope.
template <class T>
class DeviceVector {
 public:
  explicit DeviceVector(const std::vector<T>& host) : size_(host.size()) {
    EXPECT_EQ(cudaMalloc(&data_, bytes()), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(data_, host.data(), bytes(), cudaMemcpyHostToDevice),
              cudaSuccess);
  }
  ~DeviceVector() { cudaFree(data_); }
  DeviceVector(const DeviceVector&) = delete;
  DeviceVector& operator=(const DeviceVector&) = delete;

  T* get() const { return data_; }
  std::vector<T> to_host() const {
    std::vector<T> host(size_);
    EXPECT_EQ(cudaMemcpy(host.data(), data_, bytes(), cudaMemcpyDeviceToHost),
              cudaSuccess);
    return host;
  }

 private:
  std::size_t bytes() const { return size_ * sizeof(T); }
  T* data_ = nullptr;
  std::size_t size_;
};

/// Waits for the kernels launched since the last call. Succeeds if they
/// all ran; fails with CUDA's error and the emulator's reports if one could
/// not be launched (a configuration the device cannot run) or failed (a
/// barrier that only part of its block reached, say). `launched` is what a
/// launcher returned, for a test that called one: its error counts too.
inline ::testing::AssertionResult KernelsRan(
    cudaError_t launched = cudaSuccess) {
  const cudaError_t run = cudaDeviceSynchronize();
  const cudaError_t launch = cudaGetLastError();
  std::string reports;
  for (const std::string& r : gpu::emulator::take_reports()) reports += r;
  cudaError_t error = launched;
  if (error == cudaSuccess) error = run;
  if (error == cudaSuccess) error = launch;
  if (error == cudaSuccess && reports.empty())
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << cudaGetErrorName(error) << " ("
                                       << cudaGetErrorString(error) << ")\n"
                                       << reports;
}

/// Blocks on four host threads, threads in forward order (UseOrder changes
/// it). Every test ends with no error pending and no report.
class KernelExerciseTest : public ::testing::Test {
 protected:
  void SetUp() override { UseOrder(ThreadOrder::kForward); }
  void TearDown() override {
    EXPECT_TRUE(KernelsRan());
    gpu::emulator::set_options({});
  }
};

}  // namespace minitf::exercises
