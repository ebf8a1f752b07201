// Seed 002's comparison: the same training steps on the CPU and on /gpu:0,
// with what decides which one wins: the work of a step, the bytes fed to it,
// and, on an emulated GPU, the kernels it launches.
//
// The model is the seed's softmax regression (784 -> 10), or, with
// --hidden H, chapter 3's MLP shape (784 -> H -> 10, ReLU), trained on
// random batches of --batch examples (the seed's 100), each placement in a
// session of its own. Each figure is the median time of a step over --rounds
// rounds of --steps steps. With --table it measures four models (the seed's
// and the MLP's, at batch 100 and 1000) into one table.
//
// On a real GPU the ratio is the seed's question. On an emulated GPU
// (MINITF_VIRTUAL_GPUS=1 MINITF_EMULATE_GPU_KERNELS=1) the GPU's time is the
// emulator's, which runs CUDA kernels one thread after another on the CPU,
// and the program says so; its count of kernel launches per step holds for a
// real GPU too, since the kernels are the same.
//
// The table goes to standard output; with --table also to
// $MINITF_RESULTS_DIR/emulator_cpu_vs_gpu.md (emulated GPU) or
// gpu_cpu_vs_gpu.md (real GPU) when that variable is set
// (scripts/record_results.sh, scripts/gpu_check.sh).
//
// Usage: cpu_vs_gpu [--steps N] [--rounds R] [--batch B] [--hidden H]
//        cpu_vs_gpu --table [--steps N] [--rounds R]
#include <minitf/minitf.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "minitf/gpu/emulator/runtime_api.h"  // launched_kernel_count
#include "results.h"
#include "timing.h"  // Median

namespace tf = minitf;

namespace {

struct Model {
  int batch = 100;
  int hidden = 0;  // 0: the seed's softmax regression

  std::string Name() const {
    return hidden > 0 ? "784-" + std::to_string(hidden) + "-10 MLP"
                      : "784-10 softmax regression";
  }
  // Floating-point operations in the step's matrix products: the forward
  // products, the gradients of the weights (as many), and for the MLP the
  // gradient of the hidden layer's output (batch x 10 x hidden).
  double Flop() const {
    const double b = batch;
    const double forward =
        hidden > 0 ? 2 * b * (784.0 * hidden + hidden * 10.0) : 2 * b * 7840.0;
    return 2 * forward + (hidden > 0 ? 2 * b * 10.0 * hidden : 0.0);
  }
  // Bytes fed to the step: the batch and its one-hot labels, as floats.
  double FedBytes() const { return batch * (784.0 + 10.0) * 4; }
};

struct Timing {
  double seconds_per_step = 0;      // median over the rounds
  long long kernels_per_step = -1;  // -1: not counted (not the emulator)
};

// Times training steps of `m` on `device`: two untimed steps first (the
// first makes the kernels and the GPU's memory pool; the second is counted),
// then `rounds` rounds of `steps`.
Timing TimeTraining(const Model& m, const std::string& device, int steps,
                    int rounds, bool emulated) {
  tf::Tensor xs, ys;
  {
    // Random inputs and one-hot labels: the time does not depend on them.
    tf::reset_default_graph();
    tf::device_scope on_cpu("/cpu:0");
    auto images = tf::random_uniform({m.batch, 784});
    auto labels =
        tf::one_hot(tf::random_uniform({m.batch}, 0, 10, tf::int32), 10);
    tf::Session sess;
    xs = sess.run(images);
    ys = sess.run(labels);
  }
  tf::reset_default_graph();
  tf::Output x, y_;
  tf::Operation train_step;
  {
    tf::device_scope on(device);
    x = tf::placeholder(tf::float32, {tf::None, 784});
    y_ = tf::placeholder(tf::float32, {tf::None, 10});
    tf::Output features = x;
    int64_t width = 784;
    if (m.hidden > 0) {
      auto W1 = tf::Variable(tf::random_normal({784, m.hidden}, 0, 0.05f));
      auto b1 = tf::Variable(tf::zeros({m.hidden}));
      features = tf::nn::relu(tf::matmul(x, W1) + b1);
      width = m.hidden;
    }
    auto W = tf::Variable(tf::zeros({width, 10}));
    auto b = tf::Variable(tf::zeros({10}));
    auto logits = tf::matmul(features, W) + b;
    auto loss =
        tf::reduce_mean(tf::nn::softmax_cross_entropy_with_logits(y_, logits));
    train_step = tf::train::GradientDescentOptimizer(0.1f).minimize(loss);
  }
  tf::Session sess;
  sess.run(tf::global_variables_initializer());
  Timing t;
  sess.run(train_step, {{x, xs}, {y_, ys}});
  // Kernels of a step as every later step runs it: counted on the second.
  const long long launched = minitf::gpu::emulator::launched_kernel_count();
  sess.run(train_step, {{x, xs}, {y_, ys}});
  if (emulated && device != "/cpu:0") {
    t.kernels_per_step =
        minitf::gpu::emulator::launched_kernel_count() - launched;
  }
  std::vector<double> per_step;
  for (int r = 0; r < rounds; ++r) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < steps; ++i) sess.run(train_step, {{x, xs}, {y_, ys}});
    per_step.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count() /
        steps);
  }
  t.seconds_per_step = tf::bench::Median(per_step);
  return t;
}

bool ParseInt(const char* text, int* out) {
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || v < 1 || v > 1000000) return false;
  *out = static_cast<int>(v);
  return true;
}

}  // namespace

int main(int argc, char** argv) try {
  Model one;
  int steps = 20, rounds = 3;
  bool table = false;
  for (int i = 1; i < argc; i += 2) {
    if (std::strcmp(argv[i], "--table") == 0) {
      table = true;
      --i;  // a flag without a value
      continue;
    }
    int* field = nullptr;
    if (std::strcmp(argv[i], "--steps") == 0) field = &steps;
    if (std::strcmp(argv[i], "--rounds") == 0) field = &rounds;
    if (std::strcmp(argv[i], "--batch") == 0) field = &one.batch;
    if (std::strcmp(argv[i], "--hidden") == 0) field = &one.hidden;
    if (field == nullptr || i + 1 >= argc || !ParseInt(argv[i + 1], field)) {
      std::fprintf(stderr,
                   "usage: cpu_vs_gpu [--table] [--steps N] [--rounds R] "
                   "[--batch B] [--hidden H] (whole numbers from 1 to "
                   "1000000)\n");
      return 2;
    }
  }
  const auto devices = tf::device_lib::list_local_devices();
  std::string gpu_desc;
  for (const auto& d : devices) {
    if (d.device_type == "GPU" && gpu_desc.empty()) {
      gpu_desc = d.physical_device_desc;
    }
  }
  if (gpu_desc.empty()) {
    std::fprintf(stderr,
                 "No GPU: run on a machine with one, or with an emulated GPU "
                 "(MINITF_VIRTUAL_GPUS=1 MINITF_EMULATE_GPU_KERNELS=1).\n");
    return 1;
  }
  const bool emulated = gpu_desc.find("emulat") != std::string::npos;
  std::vector<Model> models = {one};
  if (table) models = {{100, 0}, {1000, 0}, {100, 256}, {1000, 256}};

  tf::bench::Results results(
      emulated ? "emulator_cpu_vs_gpu" : "gpu_cpu_vs_gpu", argc, argv);
  std::printf("GPU:0 is %s\n", gpu_desc.c_str());
  const std::string gpu_column =
      emulated ? "emulated GPU, ms a step (the emulator's time)"
               : "GPU, ms a step";
  results.Table(
      "Training steps on /cpu:0 and on /gpu:0 (" + gpu_desc + ")",
      {"model", "batch", "MFLOP a step", "KiB fed a step", "kernels a step",
       "CPU, ms a step", gpu_column, "GPU time / CPU time"});
  for (const Model& m : models) {
    const Timing cpu = TimeTraining(m, "/cpu:0", steps, rounds, emulated);
    const Timing gpu = TimeTraining(m, "/gpu:0", steps, rounds, emulated);
    results.Row(
        {m.Name(), std::to_string(m.batch), tf::bench::Fixed(m.Flop() / 1e6, 1),
         tf::bench::Fixed(m.FedBytes() / 1024, 0),
         gpu.kernels_per_step >= 0 ? std::to_string(gpu.kernels_per_step)
                                   : "as on the emulator",
         tf::bench::Fixed(cpu.seconds_per_step * 1e3, 3),
         tf::bench::Fixed(gpu.seconds_per_step * 1e3, 3),
         tf::bench::Fixed(gpu.seconds_per_step / cpu.seconds_per_step, 2)});
  }
  results.Note("Each time is the median over " + std::to_string(rounds) +
               " rounds of " + std::to_string(steps) +
               " steps, after two untimed steps. MFLOP: the step's matrix "
               "products (forward, and the gradients). Kernels: CUDA kernels "
               "launched in one step, counted by the emulator.");
  if (emulated) {
    results.Note(
        "GPU:0 is the CPU emulator of CUDA: its time is the emulator's, not a "
        "GPU's speed.");
  }
  if (table) return results.Finish();
  // One model is not the table: printed, never written as the results file.
  std::printf("\n%s", results.Markdown().c_str());
  return 0;
} catch (const tf::errors::OpError& e) {
  std::fprintf(stderr, "%s\n", e.status().ToString().c_str());
  return 1;
}
