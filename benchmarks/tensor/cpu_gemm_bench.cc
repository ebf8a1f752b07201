// Chapter 1's CPU GEMM, version by version, against Eigen and the machine's
// own peak, in one run.
//
//   - The FMA peak of one core: a loop of fused multiply-adds on
//     independent vector registers, nothing else, in Eigen's packets (the
//     widest vectors the build targets), the fastest of the runs. No GEMM
//     can run faster.
//   - The ladder: versions 1 to 6 (src/minitf/tensor/kernels/gemm/) on
//     float32 [n,n] x [n,n], beside Eigen's product of the same matrices.
//   - Version 7 on the narrow products of a training step, beside version
//     5 both ways round and Eigen.
//   - The engine's MatMul (which calls version 7) against Eigen for every
//     transpose combination, and for the five products of a training step
//     of chapter 3's 784-256-10 MLP at batch 100, on 1 and 2 threads; what
//     the second thread gives the five together and the square product.
// Each figure is the median over --runs runs, each the best of a few
// repetitions; ratios have their range over the runs beside them. The
// tables go through minitf::bench::Results: printed, and written to
// $MINITF_RESULTS_DIR/cpu_gemm_bench.md when that is set
// (scripts/record_results.sh).
//
// Usage: cpu_gemm_bench [--quick] [--runs N]
//   --quick: 256² instead of 1024², one run (a smoke test)
#include <Eigen/Core>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "minitf/tensor/api.h"
#include "minitf/tensor/kernels/gemm/v1_naive.h"
#include "minitf/tensor/kernels/gemm/v2_loop_order.h"
#include "minitf/tensor/kernels/gemm/v3_cache_blocking.h"
#include "minitf/tensor/kernels/gemm/v4_packing.h"
#include "minitf/tensor/kernels/gemm/v5_micro_kernel.h"
#include "minitf/tensor/kernels/gemm/v6_threads.h"
#include "minitf/tensor/kernels/gemm/v7_narrow.h"
#include "results.h"
#include "timing.h"

// Debian's BLIS and oneDNN, where CMake found them (CMakeLists.txt).
#ifdef MINITF_HAVE_BLIS
#include <blis.h>
#endif
#ifdef MINITF_HAVE_DNNL
#include <dnnl.h>
#endif

namespace tf = minitf;
namespace gemm = minitf::kernels::gemm;

namespace {

using tf::bench::BestSeconds;
using tf::bench::DoNotOptimize;
using tf::bench::Fixed;
using tf::bench::Median;
using tf::bench::MedianRange;
using Matrix =
    Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

using Options = tf::bench::RunOptions;

// --8<-- [start:fma_peak]
// `iters` rounds of 12 independent fused multiply-adds on whole vector
// registers: 12 chains, so that each FMA's latency (4 cycles) is hidden
// behind the others and the FMA units start a new one every cycle. Returns a
// sum of the chains, so that the compiler keeps them.
__attribute__((noinline)) float FmaLoop(int64_t iters) {
  using namespace Eigen::internal;
  using Packet = gemm::Tile<float>::Packet;
  const Packet x = pset1<Packet>(0.999999f), y = pset1<Packet>(1e-7f);
  // Twelve different starting values: chains that started equal would be
  // equal throughout, and the compiler would compute one of them.
  Packet c0 = pset1<Packet>(0), c1 = pset1<Packet>(1), c2 = pset1<Packet>(2),
         c3 = pset1<Packet>(3), c4 = pset1<Packet>(4), c5 = pset1<Packet>(5),
         c6 = pset1<Packet>(6), c7 = pset1<Packet>(7), c8 = pset1<Packet>(8),
         c9 = pset1<Packet>(9), c10 = pset1<Packet>(10),
         c11 = pset1<Packet>(11);
  for (int64_t i = 0; i < iters; ++i) {
    c0 = pmadd(c0, x, y), c1 = pmadd(c1, x, y), c2 = pmadd(c2, x, y);
    c3 = pmadd(c3, x, y), c4 = pmadd(c4, x, y), c5 = pmadd(c5, x, y);
    c6 = pmadd(c6, x, y), c7 = pmadd(c7, x, y), c8 = pmadd(c8, x, y);
    c9 = pmadd(c9, x, y), c10 = pmadd(c10, x, y), c11 = pmadd(c11, x, y);
  }
  const Packet sum = padd(padd(padd(c0, c1), padd(c2, c3)),
                          padd(padd(padd(c4, c5), padd(c6, c7)),
                               padd(padd(c8, c9), padd(c10, c11))));
  return predux(sum);
}
// --8<-- [end:fma_peak]

// The measured peak of one core, GFLOP/s: each FMA is two operations on
// each of a packet's lanes.
double FmaPeakGflops(const Options& opt) {
  const int64_t iters = opt.quick ? 1'000'000 : 4'000'000;
  const double flops = 2.0 * 12 * gemm::Tile<float>::kPacket * iters;
  std::vector<double> gflops;
  for (int run = 0; run < opt.runs; ++run) {
    const double s = BestSeconds(10, [&] { DoNotOptimize(FmaLoop(iters)); });
    gflops.push_back(flops / s / 1e9);
  }
  // The fastest run: a peak is what the core can do, and a slower run is
  // one that another program shared.
  return *std::max_element(gflops.begin(), gflops.end());
}

// GFLOP/s of fn(), a product of 2 m n k operations: the median over the
// runs of the best of `reps` repetitions.
std::vector<double> Gflops(const Options& opt, int reps, double flops,
                           const std::function<void()>& fn) {
  std::vector<double> out;
  for (int run = 0; run < opt.runs; ++run) {
    out.push_back(flops / BestSeconds(reps, fn) / 1e9);
  }
  return out;
}

std::vector<double> Ratios(const std::vector<double>& x,
                           const std::vector<double>& y) {
  std::vector<double> r;
  for (size_t i = 0; i < x.size(); ++i) r.push_back(x[i] / y[i]);
  return r;
}

void BenchLadder(const Options& opt, double peak, tf::bench::Results& results) {
  const int64_t n = opt.quick ? 256 : 1024;
  const double flops = 2.0 * n * n * n;
  const Matrix a = Matrix::Random(n, n), b = Matrix::Random(n, n);
  Matrix c(n, n);
  const auto g =
      gemm::GemmArgs<float>::RowMajor(n, n, n, a.data(), b.data(), c.data());
  results.Table("CPU GEMM, float32 " + std::to_string(n) + "³: versions 1 to " +
                    "6 against Eigen's product",
                {"version", "threads", "GFLOP/s", "of the FMA peak",
                 "× Eigen (same threads)"});
  struct Version {
    std::string name;
    int threads;
    std::function<void()> fn;
  };
  const std::vector<Version> versions = {
      {"v1, naive", 1, [&] { gemm::v1::Gemm(g); }},
      {"v2, loop order", 1, [&] { gemm::v2::Gemm(g); }},
      {"v3, cache blocking", 1, [&] { gemm::v3::Gemm(g); }},
      {"v4, packing (scalar micro-kernel)", 1, [&] { gemm::v4::Gemm(g); }},
      {"v5, FMA micro-kernel", 1, [&] { gemm::v5::Gemm(g); }},
      {"v6, threads", 1, [&] { gemm::v6::Gemm(g, 1); }},
      {"v6, threads", 2, [&] { gemm::v6::Gemm(g, 2); }},
  };
  // Each run of a version beside a run of Eigen's product on as many
  // threads, so that both meet the same moment of the machine.
  std::vector<double> eigen[3];
  const Options one_run{opt.quick, 1};
  auto eigen_run = [&] {
    return Gflops(one_run, 5, flops, [&] { c.noalias() = a * b; })[0];
  };
  for (const Version& v : versions) {
    tf::kernels::SetNumThreads(v.threads);
    // The slow versions take seconds: one repetition is enough.
    const int reps = v.name[1] <= '3' ? 1 : 5;
    std::vector<double> gf, beside;
    for (int run = 0; run < opt.runs; ++run) {
      beside.push_back(eigen_run());
      gf.push_back(Gflops(one_run, reps, flops, v.fn)[0]);
    }
    eigen[v.threads].insert(eigen[v.threads].end(), beside.begin(),
                            beside.end());
    results.Row({v.name, std::to_string(v.threads), Fixed(Median(gf), 1),
                 Fixed(100 * Median(gf) / (peak * v.threads), 0) + " %",
                 MedianRange(Ratios(gf, beside), 2)});
  }
  for (int threads : {1, 2}) {
    results.Row(
        {"Eigen's product", std::to_string(threads),
         Fixed(Median(eigen[threads]), 1),
         Fixed(100 * Median(eigen[threads]) / (peak * threads), 0) + " %",
         "1"});
  }
  tf::kernels::SetNumThreads(1);
  results.Note(
      "FMA peak of one core, measured in the same run: " + Fixed(peak, 1) +
      " GFLOP/s (" + std::to_string(gemm::Tile<float>::kPacket) +
      " floats a vector); on 2 threads the peak is twice that.");
  results.Note(
      "GFLOP/s: 2n³ floating-point operations a second. × Eigen: Eigen's "
      "time over the version's in the same run, so above 1 is faster.");
}

// MatMul (version 7 in the engine) against Eigen's product with the same
// transposes, on the same data.
struct Product {
  std::string name;
  int64_t m, k, n;
  bool ta, tb;
};

// A product's operands as stored (a is [k,m] when transposed, likewise b),
// as Eigen matrices and as tensors with the same values, and room for c.
struct Operands {
  explicit Operands(const Product& p)
      : a(p.ta ? Matrix::Random(p.k, p.m) : Matrix::Random(p.m, p.k)),
        b(p.tb ? Matrix::Random(p.n, p.k) : Matrix::Random(p.k, p.n)),
        c(p.m, p.n),
        ta(tf::float32, tf::TensorShape({a.rows(), a.cols()})),
        tb(tf::float32, tf::TensorShape({b.rows(), b.cols()})),
        flops(2.0 * p.m * p.n * p.k),
        reps(flops > 1e9 ? 5 : 50) {
    ta.matrix<float>() = a;
    tb.matrix<float>() = b;
  }
  const Matrix a, b;
  Matrix c;
  tf::Tensor ta, tb;
  const double flops;
  const int reps;  // repetitions a timing is the best of
};

void BenchProducts(const Options& opt, const std::string& caption,
                   const std::vector<Product>& products,
                   tf::bench::Results& results) {
  results.Table(caption, {"product", "threads", "MatMul GFLOP/s",
                          "Eigen GFLOP/s", "MatMul / Eigen"});
  for (int threads : {1, 2}) {
    tf::kernels::SetNumThreads(threads);
    for (const Product& p : products) {
      Operands o(p);
      const Matrix &a = o.a, &b = o.b;
      Matrix& c = o.c;
      const double flops = o.flops;
      const int reps = o.reps;
      std::vector<double> minitf, eigen;
      for (int run = 0; run < opt.runs; ++run) {
        // Interleaved, so that a change of clock speed hits both alike.
        eigen.push_back(flops /
                        BestSeconds(reps,
                                    [&] {
                                      if (p.ta && p.tb) {
                                        c.noalias() =
                                            a.transpose() * b.transpose();
                                      } else if (p.ta) {
                                        c.noalias() = a.transpose() * b;
                                      } else if (p.tb) {
                                        c.noalias() = a * b.transpose();
                                      } else {
                                        c.noalias() = a * b;
                                      }
                                      DoNotOptimize(c(0, 0));
                                    }) /
                        1e9);
        minitf.push_back(flops /
                         BestSeconds(reps,
                                     [&] {
                                       auto r = tf::kernels::MatMul(o.ta, o.tb,
                                                                    p.ta, p.tb);
                                       DoNotOptimize(r->data<float>()[0]);
                                     }) /
                         1e9);
      }
      results.Row({p.name, std::to_string(threads), Fixed(Median(minitf), 1),
                   Fixed(Median(eigen), 1),
                   MedianRange(Ratios(minitf, eigen), 2)});
    }
  }
  tf::kernels::SetNumThreads(1);
}

// The GemmArgs of a product's operands as stored (row-major, a [k,m] when
// transposed, likewise b) and c.
tf::kernels::gemm::GemmArgs<float> ArgsOf(const Product& p, Operands& o) {
  gemm::GemmArgs<float> g{p.m, p.n, p.k};
  g.a = o.a.data();
  g.a_rs = p.ta ? 1 : o.a.cols();
  g.a_cs = p.ta ? o.a.cols() : 1;
  g.b = o.b.data();
  g.b_rs = p.tb ? 1 : o.b.cols();
  g.b_cs = p.tb ? o.b.cols() : 1;
  g.c = o.c.data();
  g.c_rs = p.n;
  g.c_cs = 1;
  return g;
}

// Version 7 against version 5 as it is and turned around (c^T = b^T a^T),
// and against Eigen, on one thread, on the step's products with a narrow
// side.
void BenchNarrow(const Options& opt, const std::vector<Product>& products,
                 tf::bench::Results& results) {
  results.Table(
      "Version 7 on the narrow products of the step, one thread, "
      "GFLOP/s",
      {"product", "v5", "v5 turned around", "v7", "Eigen", "v7 / Eigen"});
  tf::kernels::SetNumThreads(1);
  for (const Product& p : products) {
    Operands o(p);
    const gemm::GemmArgs<float> g = ArgsOf(p, o);
    std::vector<double> v5, turned, v7, eigen;
    for (int run = 0; run < opt.runs; ++run) {  // interleaved
      const Options one{opt.quick, 1};
      v5.push_back(Gflops(one, o.reps, o.flops, [&] { gemm::v5::Gemm(g); })[0]);
      turned.push_back(Gflops(one, o.reps, o.flops,
                              [&] { gemm::v5::Gemm(g.Transposed()); })[0]);
      v7.push_back(
          Gflops(one, o.reps, o.flops, [&] { gemm::v7::Gemm(g, 1); })[0]);
      eigen.push_back(Gflops(one, o.reps, o.flops, [&] {
        if (p.ta) {
          o.c.noalias() = o.a.transpose() * o.b;
        } else if (p.tb) {
          o.c.noalias() = o.a * o.b.transpose();
        } else {
          o.c.noalias() = o.a * o.b;
        }
      })[0]);
    }
    results.Row({p.name, Fixed(Median(v5), 1), Fixed(Median(turned), 1),
                 Fixed(Median(v7), 1), Fixed(Median(eigen), 1),
                 MedianRange(Ratios(v7, eigen), 2)});
  }
}

// What a second thread gives MatMul: the five products of the step one
// after another, and the square product, each on 1 and 2 threads,
// interleaved run by run.
void BenchScaling(const Options& opt, const std::vector<Product>& products,
                  tf::bench::Results& results) {
  results.Table("MatMul on 2 threads against 1",
                {"work", "1 thread, µs", "2 threads, µs", "2 threads / 1"});
  struct Work {
    std::string name;
    std::vector<Product> products;
  };
  const int64_t n = opt.quick ? 256 : 1024;
  const std::vector<Work> works = {
      {"the step's five products, in turn", products},
      {std::to_string(n) + "³ a b", {{"", n, n, n, false, false}}}};
  for (const Work& w : works) {
    std::vector<std::unique_ptr<Operands>> operands;
    double flops = 0;
    for (const Product& p : w.products) {
      operands.push_back(std::make_unique<Operands>(p));
      flops += operands.back()->flops;
    }
    const int reps = flops > 1e9 ? 5 : 50;
    auto all = [&] {
      for (size_t i = 0; i < w.products.size(); ++i) {
        const Product& p = w.products[i];
        auto r =
            tf::kernels::MatMul(operands[i]->ta, operands[i]->tb, p.ta, p.tb);
        DoNotOptimize(r->data<float>()[0]);
      }
    };
    std::vector<double> one, two;
    for (int run = 0; run < opt.runs; ++run) {
      tf::kernels::SetNumThreads(1);
      one.push_back(1e6 * BestSeconds(reps, all));
      tf::kernels::SetNumThreads(2);
      two.push_back(1e6 * BestSeconds(reps, all));
    }
    results.Row({w.name, Fixed(Median(one), 1), Fixed(Median(two), 1),
                 MedianRange(Ratios(one, two), 2)});
  }
  tf::kernels::SetNumThreads(1);
  results.Note(
      "2 threads / 1: the time on one thread over the time on two, so 2 is "
      "all a second core can give.");
}

#if defined(MINITF_HAVE_BLIS) || defined(MINITF_HAVE_DNNL)
// The same products through the single-precision GEMMs of Debian's BLIS
// (libblis-dev) and oneDNN (libdnnl-dev), beside MatMul, on one thread.
void BenchLibraries(const Options& opt, const std::vector<Product>& products,
                    tf::bench::Results& results) {
  results.Table("MatMul against Debian's BLIS and oneDNN, one thread, GFLOP/s",
                {"product", "MatMul", "BLIS sgemm", "oneDNN dnnl_sgemm"});
  tf::kernels::SetNumThreads(1);  // also OpenMP's, which both libraries use
#ifdef MINITF_HAVE_BLIS
  bli_thread_set_num_threads(1);
#endif
  for (const Product& p : products) {
    Operands o(p);
    const Matrix &a = o.a, &b = o.b;
    Matrix& c = o.c;
    const double flops = o.flops;
    const int reps = o.reps;
    const std::vector<double> minitf = Gflops(opt, reps, flops, [&] {
      auto r = tf::kernels::MatMul(o.ta, o.tb, p.ta, p.tb);
      DoNotOptimize(r->data<float>()[0]);
    });
    std::string blis = "—", dnnl = "—";
#ifdef MINITF_HAVE_BLIS
    float one = 1, zero = 0;
    blis = Fixed(Median(Gflops(
                     opt, reps, flops,
                     [&] {
                       bli_sgemm(p.ta ? BLIS_TRANSPOSE : BLIS_NO_TRANSPOSE,
                                 p.tb ? BLIS_TRANSPOSE : BLIS_NO_TRANSPOSE, p.m,
                                 p.n, p.k, &one, const_cast<float*>(a.data()),
                                 a.cols(), 1, const_cast<float*>(b.data()),
                                 b.cols(), 1, &zero, c.data(), p.n, 1);
                     })),
                 1);
#endif
#ifdef MINITF_HAVE_DNNL
    dnnl = Fixed(Median(Gflops(opt, reps, flops,
                               [&] {
                                 dnnl_sgemm(p.ta ? 'T' : 'N', p.tb ? 'T' : 'N',
                                            p.m, p.n, p.k, 1.f, a.data(),
                                            a.cols(), b.data(), b.cols(), 0.f,
                                            c.data(), p.n);
                               })),
                 1);
#endif
    results.Row({p.name, Fixed(Median(minitf), 1), blis, dnnl});
  }
  results.Note(
      "Measured only where CMake found the libraries' headers and libraries "
      "(Debian's libblis-dev and libdnnl-dev).");
#ifdef MINITF_HAVE_BLIS
  // BLIS picks its kernels by CPU family when it starts; a family it does
  // not know gets "generic", plain C loops.
  results.Note(std::string("BLIS runs its `") +
               bli_arch_string(bli_arch_query_id()) + "` kernels on this CPU.");
#endif
}
#endif

}  // namespace

int main(int argc, char** argv) {
  tf::bench::RunOptions opt;
  if (!tf::bench::ParseRunOptions(argc, argv, "cpu_gemm_bench", &opt)) return 2;
  tf::bench::Results results("cpu_gemm_bench", argc, argv);
  std::printf("cpu_gemm_bench%s: SIMD %s, tile %dx%d, %d run(s)\n",
              opt.quick ? " --quick" : "", Eigen::SimdInstructionSetsInUse(),
              gemm::Tile<float>::kMr, gemm::Tile<float>::kNr, opt.runs);
  const double peak = FmaPeakGflops(opt);
  BenchLadder(opt, peak, results);
  const int64_t n = opt.quick ? 256 : 1024;
  const std::string size = std::to_string(n);
  BenchProducts(opt,
                "MatMul against Eigen, float32 " + size + "³, every transpose",
                {{"a b", n, n, n, false, false},
                 {"aᵀ b", n, n, n, true, false},
                 {"a bᵀ", n, n, n, false, true},
                 {"aᵀ bᵀ", n, n, n, true, true}},
                results);
  // --8<-- [start:mlp_products]
  // x:[100,784] W1:[784,256] h:[100,256] W2:[256,10], and the gradients.
  const std::vector<Product> mlp = {
      {"x W1 [100,784]x[784,256]", 100, 784, 256, false, false},
      {"h W2 [100,256]x[256,10]", 100, 256, 10, false, false},
      {"dy W2ᵀ [100,10]x[10,256]", 100, 10, 256, false, true},
      {"hᵀ dy [256,100]x[100,10]", 256, 100, 10, true, false},
      {"xᵀ dh [784,100]x[100,256]", 784, 100, 256, true, false}};
  BenchProducts(opt,
                "MatMul against Eigen: the products of a training step of the "
                "784-256-10 MLP, batch 100",
                mlp, results);
  // --8<-- [end:mlp_products]
  BenchNarrow(opt, {mlp[1], mlp[2], mlp[3]}, results);
  BenchScaling(opt, mlp, results);
#if defined(MINITF_HAVE_BLIS) || defined(MINITF_HAVE_DNNL)
  std::vector<Product> libs = {{size + "³ a b", n, n, n, false, false}};
  libs.insert(libs.end(), mlp.begin(), mlp.end());
  BenchLibraries(opt, libs, results);
#endif
  results.Note(std::string("SIMD: ") + Eigen::SimdInstructionSetsInUse() +
               "; micro-kernel tile " + std::to_string(gemm::Tile<float>::kMr) +
               " × " + std::to_string(gemm::Tile<float>::kNr) + ". " +
               tf::bench::RunsNote(opt.runs));
  return results.Finish();
}
