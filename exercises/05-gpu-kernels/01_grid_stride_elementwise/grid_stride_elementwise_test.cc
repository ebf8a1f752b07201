// Tests of exercise 01_grid_stride_elementwise. The starter's kernel gives
// each thread one element, so the grids with fewer threads than elements
// fail on it, as do its launcher's n = 0 and n < 0; a grid-stride loop and a
// launcher that keeps to its contract pass them all.
#include "grid_stride_elementwise.h"

#include <gtest/gtest.h>

#include <vector>

#include "../kernel_testing.h"

namespace minitf::exercises {
namespace {

// Past the n elements, both arrays go on for kPadding more, which nothing
// may change: y holds kUntouched there.
constexpr int kPadding = 16;
constexpr float kUntouched = -12345.f;

struct Arrays {
  std::vector<float> x, y, want;
};

// x and y of n elements (small integers: every sum is exact in float) and
// y = a x + y as a CPU loop computes it, all padded.
Arrays MakeArrays(int n, float a) {
  Arrays r;
  for (int i = 0; i < n + kPadding; ++i) {
    r.x.push_back(static_cast<float>(i % 7 - 3));
    r.y.push_back(i < n ? static_cast<float>(i % 5) : kUntouched);
    r.want.push_back(i < n ? a * r.x[i] + r.y[i] : kUntouched);
  }
  return r;
}

// Launches axpy_kernel on `grid` x `block` threads for n elements and
// compares y with the CPU's.
void ExpectKernel(int n, int grid, int block) {
  SCOPED_TRACE(testing::Message() << "n = " << n << ", " << grid
                                  << " blocks of " << block << " threads");
  const Arrays arrays = MakeArrays(n, 2.f);
  DeviceVector<float> x(arrays.x), y(arrays.y);
  MINITF_LAUNCH(axpy_kernel, grid, block, 0, 0, n, 2.f, x.get(), y.get());
  ASSERT_TRUE(KernelsRan());
  EXPECT_TRUE(SameValues(y.to_host(), arrays.want))
      << "y has " << n << " elements; from element " << n
      << " on lie values past its end, which must stay as they are";
}

using GridStrideElementwiseTest = KernelExerciseTest;

TEST_F(GridStrideElementwiseTest, ASizeThatIsNotAMultipleOfTheBlock) {
  ExpectKernel(1000, 4, 256);
  ExpectKernel(5, 8, 64);
}

TEST_F(GridStrideElementwiseTest, MoreElementsThanThreadsInTheGrid) {
  ExpectKernel(10000, 3, 128);
  ExpectKernel(7, 2, 1);
  ExpectKernel(100003, 1, 32);
}

TEST_F(GridStrideElementwiseTest, NoElementsWriteNothing) {
  ExpectKernel(0, 2, 32);
}

TEST_F(GridStrideElementwiseTest, TheLauncherCoversAnySize) {
  for (int n : {1, 255, 256, 257, kAxpyBlock * kAxpyMaxBlocks + 1, 1 << 20}) {
    SCOPED_TRACE(testing::Message() << "axpy(n = " << n << ")");
    const Arrays arrays = MakeArrays(n, -3.f);
    DeviceVector<float> x(arrays.x), y(arrays.y);
    ASSERT_TRUE(KernelsRan(axpy(n, -3.f, x.get(), y.get())));
    ASSERT_TRUE(SameValues(y.to_host(), arrays.want));
  }
}

TEST_F(GridStrideElementwiseTest, TheLauncherLaunchesNothingForNoElements) {
  const Arrays arrays = MakeArrays(0, 2.f);
  DeviceVector<float> x(arrays.x), y(arrays.y);
  EXPECT_TRUE(KernelsRan(axpy(0, 2.f, x.get(), y.get())))
      << "a grid of no blocks is no valid launch";
  EXPECT_TRUE(SameValues(y.to_host(), arrays.want));
}

TEST_F(GridStrideElementwiseTest, TheLauncherRejectsANegativeSize) {
  const Arrays arrays = MakeArrays(0, 2.f);
  DeviceVector<float> x(arrays.x), y(arrays.y);
  EXPECT_EQ(axpy(-5, 2.f, x.get(), y.get()), cudaErrorInvalidValue);
  // The launcher's own check, not a failed launch: no error is pending.
  EXPECT_TRUE(KernelsRan());
  EXPECT_TRUE(SameValues(y.to_host(), arrays.want));
}

}  // namespace
}  // namespace minitf::exercises
