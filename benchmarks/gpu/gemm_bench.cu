// The teaching GEMMs on a GPU: each version's time, GFLOP/s and share of
// cublasSgemm at 4096 x 4096 x 4096 in FP32, and how far its result is from
// cuBLAS's; and cuBLAS's share of the GPU's FP32 peak. cuBLAS runs in its
// default math mode, which for SGEMM is plain FP32; NVIDIA_TF32_OVERRIDE=0 is
// set before CUDA starts, so that no environment can switch TF32 tensor cores
// on: this is the FP32 SIMT race the versions run in.
//
//   build/all/benchmarks/gpu/gemm_bench               # 4096^3
//   build/all/benchmarks/gpu/gemm_bench --size 2048
//   build/all/benchmarks/gpu/gemm_bench --emulated    # the CPU emulator's
//                                                     # build,
//                                                     gemm_bench_emulated
//
// Each figure is the mean of repeated launches between two CUDA events,
// after a warm-up launch; figures are printed, never asserted. The table,
// which names the GPU, goes to $MINITF_RESULTS_DIR/gpu_gemm.md when that is
// set (scripts/gpu_check.sh sets it).
#include <cublas_v2.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "minitf/gpu/kernels/gemm/versions.cuh"
#include "results.h"

namespace {

namespace gemm = minitf::gpu::gemm;

// Mean milliseconds of one call of `run`, over enough calls to fill about
// half a second (at least 2, at most 50), after one warm-up call.
template <class F>
float mean_ms(F run) {
  cudaEvent_t start, end;
  cudaEventCreate(&start);
  cudaEventCreate(&end);
  run();
  cudaEventRecord(start);
  run();
  cudaEventRecord(end);
  cudaEventSynchronize(end);
  float one = 0.f;
  cudaEventElapsedTime(&one, start, end);
  const int reps =
      std::clamp(static_cast<int>(500.f / std::max(one, 1e-3f)), 2, 50);
  cudaEventRecord(start);
  for (int r = 0; r < reps; ++r) run();
  cudaEventRecord(end);
  cudaEventSynchronize(end);
  float total = 0.f;
  cudaEventElapsedTime(&total, start, end);
  cudaEventDestroy(start);
  cudaEventDestroy(end);
  return total / reps;
}

// max |c - want| / max |want|: about 1e-6 for FP32 sums in another order,
// about 1e-3 for TF32's 10-bit mantissas.
double relative_error(const std::vector<float>& c,
                      const std::vector<float>& want) {
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    diff = std::max(diff, std::fabs(double(c[i]) - want[i]));
    scale = std::max(scale, std::fabs(double(want[i])));
  }
  return scale > 0 ? diff / scale : diff;
}

// FP32 lanes of one SM (CUDA cores), by compute capability: 64 on GP100,
// Volta, Turing and GA100; 128 on the rest since Pascal (the A6000's GA102,
// Ada, Hopper, Blackwell).
int fp32_lanes_per_sm(int major, int minor) {
  if (major == 7 || (major == 8 && minor == 0) || (major == 6 && minor == 0))
    return 64;
  return 128;
}

// `--emulated` runs the emulator's build of this program, beside it.
int run_emulated(const char* self, int argc, char** argv) {
  std::string path = self;
  const std::size_t slash = path.rfind('/');
  path =
      (slash == std::string::npos ? std::string() : path.substr(0, slash + 1)) +
      "gemm_bench_emulated";
  std::vector<char*> args = {path.data()};
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--emulated") != 0) args.push_back(argv[i]);
  args.push_back(nullptr);
  execv(path.c_str(), args.data());
  std::fprintf(stderr, "gemm_bench: cannot run %s: %s\n", path.c_str(),
               std::strerror(errno));
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  int size = 4096;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--emulated") == 0)
      return run_emulated(argv[0], argc, argv);
    if (std::strcmp(argv[i], "--size") == 0 && i + 1 < argc)
      size = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "--quick") == 0)
      size = 1024;
  }
  // Before the first CUDA call: cuBLAS reads it when it starts.
  setenv("NVIDIA_TF32_OVERRIDE", "0", 1);
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    std::printf(
        "gemm_bench: no GPU (%s: %s); nothing measured.\n"
        "  On the CPU emulator instead: gemm_bench --emulated\n",
        cudaGetErrorName(e), cudaGetErrorString(e));
    return 0;
  }
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);

  const int m = size, n = size, k = size;
  std::vector<float> a(std::size_t(m) * k), b(std::size_t(k) * n);
  std::uint32_t state = 1;
  auto next = [&state] {
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(state >> 8) / 8388608.f - 1.f;
  };
  for (float& x : a) x = next();
  for (float& x : b) x = next();
  float *d_a, *d_b, *d_c;
  cudaMalloc(&d_a, a.size() * sizeof(float));
  cudaMalloc(&d_b, b.size() * sizeof(float));
  cudaMalloc(&d_c, std::size_t(m) * n * sizeof(float));
  cudaMemcpy(d_a, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice);
  std::vector<float> c(std::size_t(m) * n), want(c.size());

  cublasHandle_t handle;
  cublasCreate(&handle);
  // FP32 SGEMM: TF32 tensor cores only with CUBLAS_TF32_TENSOR_OP_MATH.
  cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH);
  const float alpha = 1.f, beta = 0.f;
  // Row-major c = a b is column-major c^T = b^T a^T (gemm_on_gpu_test.cu).
  auto cublas = [&] {
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, d_b, n, d_a,
                k, &beta, d_c, n);
  };
  const double flop = 2.0 * m * n * k;
  const float cublas_ms = mean_ms(cublas);
  cudaMemcpy(want.data(), d_c, want.size() * sizeof(float),
             cudaMemcpyDeviceToHost);
  const double cublas_gflops = flop / (cublas_ms * 1e-3) / 1e9;

  namespace bench = minitf::bench;
  const std::string side = std::to_string(size);
  bench::Results results("gpu_gemm", argc, argv);
  results.Table(
      "The teaching GEMMs on " + std::string(prop.name) + ", SGEMM " + side +
          " x " + side + " x " + side + ", FP32 (no tensor cores)",
      {"version", "ms", "GFLOP/s", "% of cublasSgemm", "max|d| / max|c|"});
  results.Row({"`cublasSgemm`", bench::Fixed(cublas_ms, 3),
               bench::Fixed(cublas_gflops, 1), "100.0", "-"});
  // The FP32 peak: one fused multiply-add (2 flops) per lane per cycle, at
  // the clock the driver reports (the boost clock).
  int clock_khz = 0;
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
  const int lanes = fp32_lanes_per_sm(prop.major, prop.minor);
  const double peak_gflops =
      2.0 * prop.multiProcessorCount * lanes * clock_khz * 1e3 / 1e9;
  int failures = 0;
  for (const gemm::GemmVersion& v : gemm::kGemmVersions) {
    cudaMemset(d_c, 0, c.size() * sizeof(float));
    const float ms = mean_ms(
        [&] { v.launch(m, n, k, alpha, d_a, d_b, beta, d_c, nullptr); });
    const cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
      results.Row({std::string("`") + v.name + "`",
                   std::string("failed: ") + cudaGetErrorString(err), "-", "-",
                   "-"});
      ++failures;
      continue;
    }
    cudaMemcpy(c.data(), d_c, c.size() * sizeof(float), cudaMemcpyDeviceToHost);
    const double gflops = flop / (ms * 1e-3) / 1e9;
    const double error = relative_error(c, want);
    // FP32 in another order stays near 1e-6; a wrong kernel does not.
    const bool ok = error < 1e-4;
    failures += !ok;
    char error_text[32];
    std::snprintf(error_text, sizeof error_text, "%.2e%s", error,
                  ok ? "" : " WRONG");
    results.Row({std::string("`") + v.name + "`", bench::Fixed(ms, 3),
                 bench::Fixed(gflops, 1),
                 bench::Fixed(100.0 * gflops / cublas_gflops, 1), error_text});
  }
  results.Note("FP32 peak " + bench::Fixed(peak_gflops, 1) + " GFLOP/s (" +
               std::to_string(prop.multiProcessorCount) + " SMs x " +
               std::to_string(lanes) + " lanes x 2 flops x " +
               bench::Fixed(clock_khz * 1e-6, 3) + " GHz); cublasSgemm at " +
               bench::Fixed(100.0 * cublas_gflops / peak_gflops, 1) +
               "% of it. Each time is the mean of repeated launches between "
               "two CUDA events, after a warm-up launch.");
  cublasDestroy(handle);
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_c);
  const int written = results.Finish();
  return failures == 0 ? written : 1;
}
