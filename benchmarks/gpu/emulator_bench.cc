// What the CPU emulator of CUDA costs, as ratios against plain CPU loops that
// do the same work, all on one host thread:
//   1. an elementwise kernel with no barrier (y = a x + y): the emulator runs
//      a block's threads as a plain loop, so it should stay within a few
//      times a scalar loop;
//   2. the 256 x 256 x 256 shared-memory tiled matmul (16 x 16 tiles, two
//      barriers per tile): every barrier switches all 256 threads of a block
//      between fibers, against a plain triple loop;
//   3. one barrier, per thread: the price of a fiber switch.
// Each figure is the best of several runs, in CPU time of the one thread
// that does the work (wall time counts the time other programs held the
// core, on a shared machine); figures are printed, never asserted. The table
// goes to $MINITF_RESULTS_DIR/emulator_bench.md when that is set
// (scripts/record_results.sh).
//
//   build/all/benchmarks/gpu/emulator_bench           # full
//   build/all/benchmarks/gpu/emulator_bench --quick   # CI: fewer repetitions
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "minitf/gpu/emulator/sanitizer.h"
#include "results.h"
#include "test_kernels.cuh"
#include "timing.h"  // BestThreadCpuSeconds, DoNotOptimize

namespace {

namespace bench = minitf::bench;
namespace emu = minitf::gpu::emulator;

__global__ void saxpy(int n, float a, const float* x, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void barriers(int rounds, int* out) {
  int v = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    v += r;
    // Only the switch is measured: every thread waits for the others.
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// The scalar loop the emulator's elementwise kernel is measured against:
// not vectorised, as the kernel's body, one element per call, is not.
__attribute__((optimize("no-tree-vectorize"))) void saxpy_loop(int n, float a,
                                                               const float* x,
                                                               float* y) {
  for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}

void matmul_loop(int n, const float* a, const float* b, float* c) {
  std::memset(c, 0, sizeof(float) * n * n);
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j) c[i * n + j] += a[i * n + k] * b[k * n + j];
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const int reps = quick ? 2 : 7;
  // One host thread runs the blocks: the default stream's work runs on this
  // one, so its CPU time is all the work.
  emu::set_options({.host_threads = 1});

  // 1. Elementwise, no barrier.
  const int n = 1 << 22;
  std::vector<float> x(n, 1.5f), y(n, 0.5f);
  float *d_x, *d_y;
  cudaMalloc(&d_x, n * sizeof(float));
  cudaMalloc(&d_y, n * sizeof(float));
  cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_y, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  const double kernel_s = bench::BestThreadCpuSeconds(reps, [&] {
    MINITF_LAUNCH(saxpy, (n + 255) / 256, 256, 0, 0, n, 2.f, d_x, d_y);
    cudaDeviceSynchronize();
  });
  const double loop_s = bench::BestThreadCpuSeconds(reps, [&] {
    saxpy_loop(n, 2.f, x.data(), y.data());
    bench::DoNotOptimize(y[n / 2]);
  });
  minitf::bench::Results results("emulator_bench", argc, argv);
  results.Table(
      "The CPU emulator of CUDA against plain CPU loops doing the same work "
      "(one host thread, CPU time)",
      {"work", "emulated kernel, ms", "plain CPU loop, ms", "emulated / loop"});
  results.Row({"y = a x + y, " + std::to_string(n) +
                   " floats (no barrier: a plain loop over the threads)",
               bench::Fixed(kernel_s * 1e3, 2), bench::Fixed(loop_s * 1e3, 2),
               bench::Fixed(kernel_s / loop_s, 2)});

  // 2. Tiled matmul.
  const int m = 256;
  std::vector<float> a(m * m), b(m * m), c(m * m), want(m * m);
  for (int i = 0; i < m * m; ++i) {
    a[i] = static_cast<float>(i % 7) - 3.f;
    b[i] = static_cast<float>(i % 5) - 2.f;
  }
  float *d_a, *d_b, *d_c;
  cudaMalloc(&d_a, m * m * sizeof(float));
  cudaMalloc(&d_b, m * m * sizeof(float));
  cudaMalloc(&d_c, m * m * sizeof(float));
  cudaMemcpy(d_a, a.data(), m * m * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, b.data(), m * m * sizeof(float), cudaMemcpyHostToDevice);
  const double tiled_s = bench::BestThreadCpuSeconds(reps, [&] {
    MINITF_LAUNCH(MINITF_KERNEL_NAME(tiled_matmul<16>), dim3(m / 16, m / 16),
                  dim3(16, 16), 0, 0, d_a, d_b, d_c, m);
    cudaDeviceSynchronize();
  });
  const double triple_s = bench::BestThreadCpuSeconds(reps, [&] {
    matmul_loop(m, a.data(), b.data(), want.data());
    bench::DoNotOptimize(want[0]);
  });
  cudaMemcpy(c.data(), d_c, m * m * sizeof(float), cudaMemcpyDeviceToHost);
  const std::string side = std::to_string(m);
  results.Row({"tiled matmul " + side + " x " + side + " x " + side +
                   ", 16 x 16 tiles (two barriers a tile: fibers)" +
                   (c == want ? "" : " WRONG RESULT"),
               bench::Fixed(tiled_s * 1e3, 2), bench::Fixed(triple_s * 1e3, 2),
               bench::Fixed(tiled_s / triple_s, 2)});

  // 3. Barriers alone.
  const int rounds = 100, blocks = 64, threads = 256;
  int* d_out;
  cudaMalloc(&d_out, blocks * threads * sizeof(int));
  const double barrier_s = bench::BestThreadCpuSeconds(reps, [&] {
    MINITF_LAUNCH(barriers, blocks, threads, 0, 0, rounds, d_out);
    cudaDeviceSynchronize();
  });
  results.Note(
      "A barrier costs " +
      bench::Fixed(barrier_s * 1e9 / (double(rounds) * blocks * threads), 1) +
      " ns per thread (one fiber switch), timed over " +
      std::to_string(rounds) + " barriers of " + std::to_string(blocks) +
      " blocks of " + std::to_string(threads) +
      " threads. Each time is the best of " + std::to_string(reps) + " runs.");

  for (float* p : {d_x, d_y, d_a, d_b, d_c}) cudaFree(p);
  cudaFree(d_out);
  const int written = results.Finish();
  return cudaGetLastError() == cudaSuccess && c == want ? written : 1;
}
