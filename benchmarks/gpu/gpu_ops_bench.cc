// What the engine's GPU kernels reach of the GPU's memory bandwidth, and what
// the executor costs per GPU op, measured in one run on one backend:
//   1. a device-to-device copy (the StreamExecutor's): the bandwidth the
//      kernels are measured against, counting bytes read and written;
//   2. Add of two float vectors (the elementwise kernel): 3 n floats moved;
//   3. Sum over a vector, and over each row and each column of a matrix (the
//      reduction kernels): n floats read;
//      2 and 3 as GB/s and as a fraction of the copy's (target on a GPU:
//      >= 0.8, what a kernel bound by memory should reach);
//   4. Softmax and SoftmaxCrossEntropyWithLogits at seed 002's batch, 100 x
//      10: so little data that a call costs its launch, not its bytes;
//   5. the executor's overhead per GPU op: a session running a chain of tiny
//      Adds on /gpu:0, per op, less the Add kernel's own time (4's way of
//      measuring), against the same chain on /cpu:0.
// Each kernel figure is the best of a few rounds of calls queued back to back
// on one stream and waited for once, in wall time. Figures are printed, never
// asserted; a wrong result (each op's output is checked) exits with 1. The
// tables go to $MINITF_RESULTS_DIR/gpu_ops.md (a GPU, named in them) or
// emulator_ops.md (the emulator) when that variable is set.
//
// Backend: the machine's GPU 0 (CudaGpuKernels, through CUDA's
// StreamExecutor) where this program was built with nvcc and a GPU is there;
// with --emulated, or when there is none (it says so), the CPU emulator of
// CUDA (EmulatedGpuKernels), whose figures are the emulator's, not a GPU's.
//
//   build/all/benchmarks/gpu/gpu_ops_bench              # GPU: 64M floats
//   build/all/benchmarks/gpu/gpu_ops_bench --quick      # fewer, smaller runs
//   build/all/benchmarks/gpu/gpu_ops_bench --emulated   # the emulator
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "minitf/gpu/kernels/backend.h"
#include "minitf/gpu/stream_executor/stream_executor.h"
#include "minitf/graph/api.h"
#include "results.h"
#include "timing.h"  // BestSeconds
#if MINITF_WITH_CUDA
#include "minitf/gpu/stream_executor/cuda_stream_executor.h"
#endif

namespace tf = minitf;

namespace {

namespace gpu = minitf::gpu;
using tf::bench::BestSeconds;
using tf::bench::Fixed;

// A failed call of the backend ends the run: the figures after it would
// measure nothing.
void Check(const tf::Status& s, const char* what) {
  if (s.ok()) return;
  std::fprintf(stderr, "gpu_ops_bench: %s: %s\n", what, s.ToString().c_str());
  std::exit(1);
}

struct Sizes {
  int64_t side;       // the matrix is side x side, the vectors side * side
  int calls;          // calls queued back to back in one round
  int rounds;         // rounds, of which the best counts
  int softmax_calls;  // calls a round for the tiny softmax, and alone
  int chain;          // adds in the session's chain
};

// The emulator runs a block's threads one after another, and switches
// fibers at every barrier (the reductions and the softmax have many): it
// gets smaller work, so that its run stays short.
Sizes SizesFor(bool real_gpu, bool quick) {
  if (real_gpu) {
    // 64M floats: 256 MB a vector, far past the H100's 50 MB of L2.
    return quick ? Sizes{4096, 10, 3, 200, 200}
                 : Sizes{8192, 20, 5, 1000, 1000};
  }
  return quick ? Sizes{512, 1, 2, 2, 200} : Sizes{2048, 2, 3, 5, 1000};
}

// One stream of the backend, and the device memory the kernels work on.
class Bench {
 public:
  Bench(gpu::StreamExecutor* se, const Sizes& sizes)
      : se_(se), k_(se->kernels()), sizes_(sizes) {
    stream_ = se_->CreateStream().value();
  }
  ~Bench() {
    for (void* p : buffers_) se_->FreeDeviceMemory(p);
    se_->DestroyStream(stream_);
  }

  float* Floats(int64_t n) {
    void* p = se_->AllocateDeviceMemory(n * sizeof(float));
    if (p == nullptr) {
      std::fprintf(stderr, "gpu_ops_bench: no room for %lld floats\n",
                   static_cast<long long>(n));
      std::exit(1);
    }
    buffers_.push_back(p);
    return static_cast<float*>(p);
  }
  void Fill(float* p, int64_t n, float value) {
    Check(k_.Fill(stream_, tf::DT_FLOAT, &value, p, n), "Fill");
  }
  // p[i] of device memory, on the host.
  float Read(const float* p, int64_t i) {
    float v = 0.f;
    Check(se_->MemcpyDeviceToHost(&v, p + i, sizeof v, stream_), "copy");
    Check(se_->SynchronizeStream(stream_), "copy");
    return v;
  }

  // Seconds one call of `enqueue` takes, when `calls` of them (by default
  // sizes_.calls) are queued back to back and waited for once; after one
  // warm-up call.
  double SecondsPerCall(const std::function<tf::Status()>& enqueue, int calls) {
    Check(enqueue(), "warm-up");
    Check(se_->SynchronizeStream(stream_), "warm-up");
    const double s = BestSeconds(sizes_.rounds, [&] {
      for (int c = 0; c < calls; ++c) Check(enqueue(), "call");
      Check(se_->SynchronizeStream(stream_), "synchronize");
    });
    return s / calls;
  }
  double SecondsPerCall(const std::function<tf::Status()>& enqueue) {
    return SecondsPerCall(enqueue, sizes_.calls);
  }
  // Seconds for one call and the wait for it, the best of
  // sizes_.softmax_calls: a launch's whole latency.
  double SecondsAlone(const std::function<tf::Status()>& enqueue) {
    return BestSeconds(sizes_.softmax_calls, [&] {
      Check(enqueue(), "call");
      Check(se_->SynchronizeStream(stream_), "synchronize");
    });
  }

  gpu::StreamExecutor* se() const { return se_; }
  const gpu::GpuKernels& k() const { return k_; }
  gpu::GpuStream stream() const { return stream_; }

 private:
  gpu::StreamExecutor* const se_;
  const gpu::GpuKernels& k_;
  const Sizes sizes_;
  gpu::GpuStream stream_ = nullptr;
  std::vector<void*> buffers_;
};

bool Near(float got, double want) {
  return std::fabs(got - want) <= 1e-4 * std::fabs(want);
}

int failures = 0;
void Expect(const char* what, float got, double want) {
  if (Near(got, want)) return;
  std::printf("  WRONG: %s is %g, expected %g\n", what, got, want);
  ++failures;
}

double copy_gbs = 0;  // the yardstick, measured first

// One row: name, GB/s for `bytes` moved per call, and the share of the
// copy's bandwidth.
void BandwidthRow(tf::bench::Results& r, const std::string& name, double bytes,
                  double seconds) {
  const double gbs = bytes / seconds / 1e9;
  r.Row(
      {name, Fixed(seconds * 1e3, 3), Fixed(gbs, 1), Fixed(gbs / copy_gbs, 2)});
}

// 1-3: the copy, Add and the reductions over n = side^2 floats.
void BenchBandwidth(Bench& b, const Sizes& sizes, tf::bench::Results& r) {
  const int64_t side = sizes.side, n = side * side;
  float* x = b.Floats(n);
  float* y = b.Floats(n);
  float* z = b.Floats(n);
  float* sums = b.Floats(side);
  const size_t scratch_bytes =
      std::max({b.k().ReduceScratchBytes(tf::DT_FLOAT, 1, n, 1),
                b.k().ReduceScratchBytes(tf::DT_FLOAT, side, side, 1),
                b.k().ReduceScratchBytes(tf::DT_FLOAT, 1, side, side)});
  float* scratch = b.Floats(static_cast<int64_t>(scratch_bytes / 4 + 1));
  b.Fill(x, n, 1.f);
  b.Fill(y, n, 2.f);
  const double mb = n * 4.0 / (1 << 20);
  r.Table("Bandwidth: float vectors of " + std::to_string(n) + " elements (" +
              Fixed(mb, 0) + " MiB each)",
          {"op", "ms a call", "GB/s", "fraction of the copy's"});

  const double copy_s = b.SecondsPerCall([&] {
    return b.se()->MemcpyDeviceToDevice(z, x, n * sizeof(float), b.stream());
  });
  copy_gbs = 2.0 * n * 4 / copy_s / 1e9;
  BandwidthRow(r, "copy device to device", 2.0 * n * 4, copy_s);
  Expect("the copy's last element", b.Read(z, n - 1), 1.0);

  gpu::BroadcastLoops same;
  same.dims[0] = n;
  same.x_strides[0] = same.y_strides[0] = 1;
  const double add_s = b.SecondsPerCall([&] {
    return b.k().Binary(b.stream(), gpu::BinaryOp::kAdd, tf::DT_FLOAT, x, y, z,
                        same);
  });
  BandwidthRow(r, "Add (elementwise)", 3.0 * n * 4, add_s);
  Expect("Add's last element", b.Read(z, n - 1), 3.0);

  const auto sum = [&](int64_t outer, int64_t middle, int64_t inner) {
    return [&b, x, sums, scratch, outer, middle, inner] {
      return b.k().Reduce(b.stream(), gpu::ReduceOp::kSum, tf::DT_FLOAT, x,
                          sums, outer, middle, inner, 1, scratch);
    };
  };
  BandwidthRow(r, "Sum of the vector", n * 4.0, b.SecondsPerCall(sum(1, n, 1)));
  Expect("the vector's sum", b.Read(sums, 0), double(n));
  char name[64];
  std::snprintf(name, sizeof name, "Sum of each row (%lldx%lld)",
                static_cast<long long>(side), static_cast<long long>(side));
  BandwidthRow(r, name, n * 4.0, b.SecondsPerCall(sum(side, side, 1)));
  Expect("the last row's sum", b.Read(sums, side - 1), double(side));
  std::snprintf(name, sizeof name, "Sum of each column (%lldx%lld)",
                static_cast<long long>(side), static_cast<long long>(side));
  BandwidthRow(r, name, n * 4.0, b.SecondsPerCall(sum(1, side, side)));
  Expect("the last column's sum", b.Read(sums, side - 1), double(side));
  r.Note("Bytes counted: read and written. " + std::to_string(sizes.calls) +
         " calls a round queued back to back, best of " +
         std::to_string(sizes.rounds) + " rounds.");
}

// 4: seed 002's softmax and its loss, 100 x 10.
void BenchSoftmax(Bench& b, const Sizes& sizes, tf::bench::Results& r) {
  const int64_t rows = 100, classes = 10, n = rows * classes;
  float* logits = b.Floats(n);
  float* labels = b.Floats(n);
  float* out = b.Floats(n);
  float* loss = b.Floats(rows);
  b.Fill(logits, n, 0.5f);
  b.Fill(labels, n, 0.1f);
  const int calls = sizes.softmax_calls;
  r.Table("Seed 002's softmax at batch " + std::to_string(rows) + " x " +
              std::to_string(classes) +
              ": so little data that a call costs "
              "its launch",
          {"op", "us a call, queued", "us alone (launch and wait)", "GB/s",
           "fraction of the copy's"});
  const auto softmax = [&] {
    return b.k().Softmax(b.stream(), false, tf::DT_FLOAT, logits, out, rows,
                         classes);
  };
  const auto xent = [&] {
    return b.k().SoftmaxCrossEntropy(b.stream(), tf::DT_FLOAT, logits, labels,
                                     loss, out, rows, classes);
  };
  const double softmax_bytes = 2.0 * n * 4;
  const double xent_bytes = (3.0 * n + rows) * 4;
  for (auto [name, enqueue, bytes] :
       {std::tuple{"Softmax", std::function<tf::Status()>(softmax),
                   softmax_bytes},
        std::tuple{"SoftmaxCrossEntropyWithLogits",
                   std::function<tf::Status()>(xent), xent_bytes}}) {
    const double queued = b.SecondsPerCall(enqueue, calls);
    const double alone = b.SecondsAlone(enqueue);
    r.Row({name, Fixed(queued * 1e6, 2), Fixed(alone * 1e6, 2),
           Fixed(bytes / queued / 1e9, 3),
           Fixed(bytes / queued / 1e9 / copy_gbs, 4)});
  }
  r.Note("Queued: " + std::to_string(calls) +
         " calls back to back, waited for once. Alone: one call and the wait "
         "for it, the best of " +
         std::to_string(calls) + ".");
  // Equal logits: every class 1/10; the loss -sum(0.1 log 0.1) per row.
  Expect("the loss of the last row", b.Read(loss, rows - 1),
         -1.0 * std::log(0.1));
}

// Seconds per op of a chain of tiny adds on `device`: the difference between
// the chain's run and a run of its first add, per add, so that what every run
// costs once (the feed-free start, the fetch's copy to the host) cancels.
double SessionSecondsPerOp(const std::string& device,
                           const tf::ConfigProto& config, const Sizes& sizes) {
  tf::reset_default_graph();
  tf::Output first, last;
  {
    tf::device_scope on(device);
    tf::Output one = tf::constant({1.f}, {1});
    last = tf::constant({0.f}, {1});
    for (int i = 0; i < sizes.chain; ++i) {
      last = tf::add(last, one);
      if (i == 0) first = last;
    }
  }
  tf::Session sess(config);
  sess.run(first);  // plans each run once
  sess.run(last);
  const int reps = 5;
  double t_first = 1e30, t_last = 1e30;
  float value = 0.f;
  for (int round = 0; round < sizes.rounds; ++round) {  // interleaved
    t_first = std::min(t_first, BestSeconds(reps, [&] { sess.run(first); }));
    t_last = std::min(t_last, BestSeconds(reps, [&] {
                        value = sess.run(last).data<float>()[0];
                      }));
  }
  Expect("the chain's result", value, double(sizes.chain));
  return (t_last - t_first) / (sizes.chain - 1);
}

// 5: the executor's cost per GPU op.
void BenchExecutor(Bench& b, bool real_gpu, const Sizes& sizes,
                   tf::bench::Results& r) {
  float* one = b.Floats(1);
  float* sum = b.Floats(1);
  b.Fill(one, 1, 1.f);
  gpu::BroadcastLoops single;
  single.dims[0] = 1;
  single.x_strides[0] = single.y_strides[0] = 1;
  const double kernel_s = b.SecondsPerCall(
      [&] {
        return b.k().Binary(b.stream(), gpu::BinaryOp::kAdd, tf::DT_FLOAT, one,
                            one, sum, single);
      },
      sizes.chain);
  tf::ConfigProto gpu_config;
  if (real_gpu) {
    gpu_config.gpu_options.allow_growth = true;
  } else {
    gpu_config.gpu_options.virtual_gpus = 1;
    gpu_config.gpu_options.emulate_gpu_kernels = true;
  }
  const double gpu_s = SessionSecondsPerOp("/gpu:0", gpu_config, sizes);
  // No GPU device in the CPU's session: it would take the GPU's memory.
  const double cpu_s = SessionSecondsPerOp(
      "/cpu:0", tf::ConfigProto{.device_count = {{"GPU", 0}}}, sizes);
  r.Table("The executor's cost per op: a session runs a chain of " +
              std::to_string(sizes.chain) + " adds of 1-element tensors",
          {"what", "us"});
  r.Row({"per op on /gpu:0", Fixed(gpu_s * 1e6, 2)});
  r.Row({"the Add kernel's own time (queued)", Fixed(kernel_s * 1e6, 2)});
  r.Row({"executor overhead per GPU op", Fixed((gpu_s - kernel_s) * 1e6, 2)});
  r.Row({"per op on /cpu:0", Fixed(cpu_s * 1e6, 2)});
  r.Note(
      "Per op: the chain's run less a run of its first add, over the "
      "adds; best of " +
      std::to_string(sizes.rounds) + " rounds of 5 runs.");
}

}  // namespace

int main(int argc, char** argv) try {
  bool quick = false, emulated = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else if (std::strcmp(argv[i], "--emulated") == 0) {
      emulated = true;
    } else {
      std::fprintf(stderr, "usage: gpu_ops_bench [--emulated] [--quick]\n");
      return 2;
    }
  }
  std::unique_ptr<gpu::StreamExecutor> se;
  if (!emulated) {
#if MINITF_WITH_CUDA
    // CudaVisibleGpuCount says on stderr why it finds none.
    if (gpu::CudaVisibleGpuCount() > 0) se = gpu::NewCudaStreamExecutor(0);
#else
    std::fprintf(stderr, "gpu_ops_bench was built without CUDA (no nvcc).\n");
#endif
    if (se == nullptr) {
      std::printf(
          "no GPU: measuring the CPU emulator of CUDA instead, as "
          "--emulated does\n");
    }
  }
  const bool real_gpu = se != nullptr;
  if (!real_gpu) se = gpu::NewEmulatedStreamExecutor();
  const gpu::GpuDescription d = se->Describe().value();
  std::printf("device: %s\n", d.name.c_str());
  std::printf("backend: %s (kernels: %s)\n", se->platform_name().c_str(),
              se->kernels().Name());
  tf::bench::Results results(real_gpu ? "gpu_ops" : "emulator_ops", argc, argv);
  results.Table("The engine's GPU kernels on " + d.name, {});
  results.Note(real_gpu ? "Wall time on the GPU, through CUDA's streams."
                        : "These are the emulator's figures, not a GPU's: its "
                          "kernels run on the CPU's cores, its copies are "
                          "memcpy.");
  const Sizes sizes = SizesFor(real_gpu, quick);
  {
    Bench b(se.get(), sizes);
    BenchBandwidth(b, sizes, results);
  }
  {
    Bench b(se.get(), sizes);
    BenchSoftmax(b, sizes, results);
    BenchExecutor(b, real_gpu, sizes, results);
  }
  if (failures > 0) {
    std::printf("%d results WRONG\n", failures);
    return 1;
  }
  return results.Finish();
} catch (const tf::errors::OpError& e) {
  std::fprintf(stderr, "gpu_ops_bench: %s\n", e.status().ToString().c_str());
  return 1;
}
