// How close layer 1 comes to the machine's own limits.
//
// Every figure stands next to a peer measured in the same process, so that a
// ratio means something on any machine:
//   - matmul against a plain Eigen `noalias()` product of the same size, with
//     1 and 2 threads: the Tensor layer's views add nothing to Eigen's GEMM;
//   - elementwise kernels and reductions against a simple copy loop, in GB/s
//     of memory traffic: a kernel that does one add per element is bound by
//     the memory, not by the arithmetic;
//   - the same add with the allocator's cache off, so that every output is
//     fresh memory from the operating system;
//   - the cost of making a small Tensor and of one tiny eager op.
// Each figure is the median over several runs (each the best of a few
// repetitions), with the range over the runs beside ratios. The tables go
// through minitf::bench::Results: printed, and written to
// $MINITF_RESULTS_DIR/tensor_bench.md when that is set
// (scripts/record_results.sh).
//
// Usage: tensor_bench [--quick] [--runs N]
//   --quick: fewer sizes and repetitions, one run (a smoke test)
//   --runs N: how many runs each figure is the median of (default 5)
#include <Eigen/Core>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "minitf/tensor/api.h"
#include "results.h"
#include "timing.h"

namespace tf = minitf;

namespace {

using tf::bench::BestSeconds;
using tf::bench::DoNotOptimize;
using tf::bench::Fixed;
using tf::bench::Median;
using tf::bench::MedianRange;

using Options = tf::bench::RunOptions;

tf::Tensor Filled(const std::vector<int64_t>& shape, float value) {
  tf::Tensor t(tf::float32, tf::TensorShape(shape));
  t.flat<float>().setConstant(value);
  return t;
}

void BenchMatMul(const Options& opt, tf::bench::Results& results) {
  results.Table(
      "Matrix product, float32: minitf's kernels::MatMul against Eigen's "
      "product on the same data",
      {"size", "threads", "minitf GFLOP/s", "Eigen GFLOP/s", "minitf / Eigen"});
  const std::vector<int64_t> sizes =
      opt.quick ? std::vector<int64_t>{256, 512}
                : std::vector<int64_t>{256, 512, 1024, 2048};
  using Matrix =
      Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  for (int threads : {1, 2}) {
    tf::kernels::SetNumThreads(threads);
    for (int64_t n : sizes) {
      tf::Tensor a = Filled({n, n}, 0.5f), b = Filled({n, n}, 0.25f);
      Matrix ea = Matrix::Constant(n, n, 0.5f),
             eb = Matrix::Constant(n, n, 0.25f), ec(n, n);
      const int reps = n >= 2048 ? 3 : (opt.quick ? 3 : 7);
      const double flops = 2.0 * n * n * n;
      std::vector<double> minitf_gflops, eigen_gflops, ratio;
      for (int run = 0; run < opt.runs; ++run) {
        // Interleaved, so that a change of clock speed hits both alike.
        const double t_eigen = BestSeconds(reps, [&] {
          ec.noalias() = ea * eb;
          DoNotOptimize(ec(0, 0));
        });
        const double t_minitf = BestSeconds(reps, [&] {
          auto c = tf::kernels::MatMul(a, b);
          DoNotOptimize(c->data<float>()[0]);
        });
        minitf_gflops.push_back(flops / t_minitf / 1e9);
        eigen_gflops.push_back(flops / t_eigen / 1e9);
        ratio.push_back(t_eigen / t_minitf);
      }
      results.Row({std::to_string(n) + "²", std::to_string(threads),
                   Fixed(Median(minitf_gflops), 1),
                   Fixed(Median(eigen_gflops), 1), MedianRange(ratio, 2)});
    }
  }
  tf::kernels::SetNumThreads(1);
  results.Note(
      "GFLOP/s: 2n³ floating-point operations a second. minitf / Eigen: "
      "Eigen's time over minitf's in the same run, so above 1 is faster.");
}

void BenchMemoryBound(const Options& opt, tf::bench::Results& results) {
  const int64_t n = int64_t{1} << 24;  // 16M floats, 64 MiB: beyond caches.
  const int reps = opt.quick ? 3 : 10;
  tf::Tensor x = Filled({n}, 1.f), y = Filled({n}, 2.f);
  tf::Tensor m = Filled({4096, 4096}, 1.f), row = Filled({4096}, 3.f);
  std::vector<float> src(n, 1.f), dst(n);
  tf::CpuAllocator no_cache(/*max_cached_bytes=*/0);

  struct Kernel {
    std::string name;
    int bytes_per_element;  // what the kernel must read and write
    std::function<void()> fn;
    std::vector<double> gbs, ratio;
  };
  std::vector<Kernel> kernels = {
      {"copy loop (the peer)", 8,
       [&] {
         const float* s = src.data();
         float* d = dst.data();
         for (int64_t i = 0; i < n; ++i) d[i] = s[i];
         DoNotOptimize(dst[n - 1]);
       }},
      {"add [16M] + [16M]", 12,
       [&] { DoNotOptimize(tf::kernels::Add(x, y)->NumElements()); }},
      {"mul [16M] * [16M]", 12,
       [&] { DoNotOptimize(tf::kernels::Mul(x, y)->NumElements()); }},
      {"broadcast add [4096,4096] + [4096]", 8,
       [&] { DoNotOptimize(tf::kernels::Add(m, row)->NumElements()); }},
      {"reduce_sum [16M] → []", 4,
       [&] {
         DoNotOptimize(
             tf::kernels::ReduceSum(x, std::nullopt, false)->scalar<float>());
       }},
      {"reduce_sum [4096,4096], axis 1", 4,
       [&] {
         DoNotOptimize(tf::kernels::ReduceSum(m, std::vector<int>{1}, false)
                           ->NumElements());
       }},
      {"add [16M] + [16M], allocator cache off", 12,
       [&] {
         tf::ScopedDefaultAllocator fresh(&no_cache);
         DoNotOptimize(tf::kernels::Add(x, y)->NumElements());
       }},
  };
  for (int run = 0; run < opt.runs; ++run) {
    double copy_gbs = 0;
    for (Kernel& k : kernels) {
      const double gbs =
          double(k.bytes_per_element) * n / BestSeconds(reps, k.fn) / 1e9;
      if (&k == &kernels[0]) copy_gbs = gbs;
      k.gbs.push_back(gbs);
      k.ratio.push_back(gbs / copy_gbs);
    }
  }
  results.Table(
      "Memory-bound kernels on 16M float32 (64 MiB an operand), one thread",
      {"kernel", "bytes per element", "GB/s", "of the copy loop's"});
  for (const Kernel& k : kernels) {
    const bool peer = &k == &kernels[0];
    results.Row({k.name, std::to_string(k.bytes_per_element),
                 Fixed(Median(k.gbs), 1),
                 peer ? "1" : MedianRange(k.ratio, 2)});
  }
  results.Note(
      "GB/s: the bytes a kernel must read and write (bytes per element × "
      "16M) over its time. The last row gives each output fresh pages from "
      "the operating system, as an allocator without a cache would.");
}

void BenchSmall(const Options& opt, tf::bench::Results& results) {
  const int iters = opt.quick ? 200000 : 2000000;
  auto per_call_ns = [&](const std::function<void()>& fn) {
    return BestSeconds(3,
                       [&] {
                         for (int i = 0; i < iters; ++i) fn();
                       }) /
           iters * 1e9;
  };
  tf::Tensor one(1.f), two(2.f);
  struct Op {
    std::string name;
    std::function<void()> fn;
    std::vector<double> ns;
  };
  std::vector<Op> ops = {
      {"make a float32 [2,2] Tensor",
       [] {
         tf::Tensor t(tf::float32, tf::TensorShape({2, 2}));
         DoNotOptimize(t.data<float>());
       }},
      {"kernels::Add on 1-element tensors",
       [&] { DoNotOptimize(tf::kernels::Add(one, two)->data<float>()[0]); }},
      {"eager::add on 1-element tensors (throwing API)",
       [&] { DoNotOptimize(tf::eager::add(one, two).data<float>()[0]); }},
  };
  for (int run = 0; run < opt.runs; ++run) {
    for (Op& op : ops) op.ns.push_back(per_call_ns(op.fn));
  }
  results.Table("Small tensors: the cost of one call",
                {"operation", "ns per call"});
  for (const Op& op : ops) results.Row({op.name, MedianRange(op.ns, 1)});
}

}  // namespace

int main(int argc, char** argv) {
  tf::bench::RunOptions opt;
  if (!tf::bench::ParseRunOptions(argc, argv, "tensor_bench", &opt)) return 2;
  tf::bench::Results results("tensor_bench", argc, argv);
  std::printf("tensor_bench%s: Eigen %d.%d.%d, SIMD %s, %d run(s)\n",
              opt.quick ? " --quick" : "", EIGEN_WORLD_VERSION,
              EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION,
              Eigen::SimdInstructionSetsInUse(), opt.runs);
  BenchMatMul(opt, results);
  BenchMemoryBound(opt, results);
  BenchSmall(opt, results);
  results.Note(std::string("Eigen ") + std::to_string(EIGEN_WORLD_VERSION) +
               "." + std::to_string(EIGEN_MAJOR_VERSION) + "." +
               std::to_string(EIGEN_MINOR_VERSION) +
               ", SIMD: " + Eigen::SimdInstructionSetsInUse() + ". " +
               tf::bench::RunsNote(opt.runs));
  return results.Finish();
}
