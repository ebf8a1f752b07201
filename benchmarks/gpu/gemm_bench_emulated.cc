// The teaching GEMMs on the CPU emulator of CUDA: each version at a small
// size, checked against the CPU reference, with what the emulation cost in
// CPU time. Emulator times are not GPU speeds: they count the fiber switches
// of __syncthreads() and the emulator's bookkeeping on one CPU core, so they
// say nothing about how the versions rank on a GPU (gemm_bench there).
//
//   build/all/benchmarks/gpu/gemm_bench_emulated            # 128^3
//   build/all/benchmarks/gpu/gemm_bench_emulated --quick    # CI: 64^3
//   build/all/benchmarks/gpu/gemm_bench --emulated          # the same
//
// A result outside the tests' tolerance (tests/gpu/kernels/gemm_testing.h) is
// reported, and the program then exits with 1. The table goes to
// $MINITF_RESULTS_DIR/emulator_gemm.md when that is set
// (scripts/record_results.sh).
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "minitf/gpu/emulator/sanitizer.h"
#include "minitf/gpu/kernels/gemm/reference.h"
#include "minitf/gpu/kernels/gemm/versions.cuh"
#include "results.h"
#include "timing.h"  // BestThreadCpuSeconds

namespace {

namespace emu = minitf::gpu::emulator;
namespace gemm = minitf::gpu::gemm;

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--quick") == 0) quick = true;
  const int size = quick ? 64 : 128;
  const int reps = quick ? 1 : 3;
  // One host thread runs every block, so its CPU time is all the work.
  emu::set_options({.host_threads = 1});

  const int m = size, n = size, k = size;
  std::vector<float> a(m * k), b(k * n), want(m * n), c(m * n);
  std::uint32_t state = 1;
  auto next = [&state] {
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(state >> 8) / 8388608.f - 1.f;
  };
  for (float& x : a) x = next();
  for (float& x : b) x = next();
  const double reference_s = minitf::bench::BestThreadCpuSeconds(reps, [&] {
    gemm::gemm_reference(m, n, k, 1.f, a.data(), b.data(), 0.f, want.data());
  });
  // The tests' tolerance: (k + 2) * FLT_EPSILON * sum_p |a_ip b_pj|.
  std::vector<double> tolerance(m * n, 0.0);
  for (int i = 0; i < m; ++i)
    for (int p = 0; p < k; ++p)
      for (int j = 0; j < n; ++j)
        tolerance[i * n + j] += std::fabs(double(a[i * k + p]) * b[p * n + j]);
  for (double& t : tolerance) t *= (k + 2) * double(FLT_EPSILON);

  float *d_a, *d_b, *d_c;
  cudaMalloc(&d_a, a.size() * sizeof(float));
  cudaMalloc(&d_b, b.size() * sizeof(float));
  cudaMalloc(&d_c, c.size() * sizeof(float));
  cudaMemcpy(d_a, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice);

  namespace bench = minitf::bench;
  const std::string side = std::to_string(size);
  bench::Results results("emulator_gemm", argc, argv);
  results.Table("The teaching GEMMs on the CPU emulator of CUDA, SGEMM " +
                    side + " x " + side + " x " + side +
                    ", one host thread (CPU time: NOT a GPU's speed)",
                {"version", "emulator, ms", "x the CPU reference", "result"});
  results.Row({"CPU reference (plain loop)", bench::Fixed(reference_s * 1e3, 2),
               "1.0", "-"});
  int failures = 0;
  for (const gemm::GemmVersion& v : gemm::kGemmVersions) {
    const double s = minitf::bench::BestThreadCpuSeconds(reps, [&] {
      v.launch(m, n, k, 1.f, d_a, d_b, 0.f, d_c, nullptr);
      cudaDeviceSynchronize();
    });
    cudaMemcpy(c.data(), d_c, c.size() * sizeof(float), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < m * n; ++i)
      bad += !(std::fabs(double(c[i]) - want[i]) <= tolerance[i]);
    failures += bad > 0;
    results.Row({std::string("`") + v.name + "`", bench::Fixed(s * 1e3, 2),
                 bench::Fixed(s / reference_s, 1),
                 bad == 0 ? "matches the CPU reference"
                          : "DIFFERS from the CPU reference"});
  }
  results.Note(
      "Each time is the best of " + std::to_string(reps) +
      " runs. The emulator's time counts fiber switches at __syncthreads() "
      "and its bookkeeping: it ranks the versions nothing like a GPU does "
      "(`gemm_bench` on a GPU, through `scripts/gpu_check.sh`).");
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_c);
  const int written = results.Finish();
  return failures == 0 && cudaGetLastError() == cudaSuccess ? written : 1;
}
