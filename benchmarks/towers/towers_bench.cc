// What towers buy on this machine, measured in one run.
//
// Chapter 3's MLP (784-256-10, ReLU, softmax cross-entropy, gradient
// descent) trains on 200 examples per step in three ways, each a session of
// its own in this process:
//   - one device, the CPU, with one intra-op thread: the baseline;
//   - one device with two intra-op threads: each op split over two cores;
//   - two towers of 100 examples on two virtual GPUs, the variables on the
//     CPU, the gradients averaged there: the towers run at once on the two
//     inter-op threads, each op on one thread.
// The figure is examples per second; the targets (issue and chapter 6) are
// towers >= 1.7x the one-thread device, and >= 1.0x the two-thread device.
// Printed, never asserted.
// Usage: towers_bench [--quick]
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "minitf/minitf.h"
#include "timing.h"

namespace tf = minitf;

namespace {

constexpr int kBatch = 200;  // examples per step, over all towers

// --8<-- [start:towers]
// The MLP's training step on `towers` virtual GPUs (0: on the CPU alone),
// kBatch examples in all: the variables on the CPU, one tower per GPU
// reusing them, the towers' gradients averaged on the CPU.
struct TowerModel {
  std::vector<tf::Output> xs, ys;
  tf::Operation train_op;

  explicit TowerModel(int towers) {
    const int n = towers == 0 ? 1 : towers;
    std::vector<std::vector<tf::Output>> tower_grads;
    std::vector<tf::Variable> vars;
    for (int i = 0; i < n; ++i) {
      tf::device_scope on(towers == 0 ? "/cpu:0" : "/gpu:" + std::to_string(i));
      tf::name_scope tower("tower_" + std::to_string(i));
      tf::Output x = tf::placeholder(tf::float32, {tf::None, 784}, "x");
      tf::Output y = tf::placeholder(tf::float32, {tf::None, 10}, "y");
      tf::variable_scope model("model", /*reuse=*/i > 0);
      tf::Output logits;
      {
        tf::device_scope variables_on_cpu("/cpu:0");
        vars = {tf::get_variable("w1", {784, 256}),
                tf::get_variable("b1", {256}, tf::zeros_initializer()),
                tf::get_variable("w2", {256, 10}),
                tf::get_variable("b2", {10}, tf::zeros_initializer())};
      }
      tf::Output hidden =
          tf::nn::relu(tf::matmul(x, vars[0].value()) + vars[1].value());
      logits = tf::matmul(hidden, vars[2].value()) + vars[3].value();
      tf::Output loss =
          tf::reduce_mean(tf::nn::softmax_cross_entropy_with_logits(y, logits));
      std::vector<tf::Output> values;
      for (tf::Variable& v : vars) values.push_back(v.value());
      tower_grads.push_back(tf::gradients({loss}, values));
      xs.push_back(x);
      ys.push_back(y);
    }
    tf::device_scope on_cpu("/cpu:0");
    std::vector<std::pair<tf::Output, tf::Variable>> averaged;
    for (size_t v = 0; v < vars.size(); ++v) {
      std::vector<tf::Output> per_tower;
      for (const auto& grads : tower_grads) per_tower.push_back(grads[v]);
      averaged.emplace_back(
          n == 1 ? per_tower[0] : tf::add_n(per_tower) * tf::constant(1.f / n),
          vars[v]);
    }
    train_op =
        tf::train::GradientDescentOptimizer(0.1).apply_gradients(averaged);
  }
};
// --8<-- [end:towers]

tf::Tensor RandomTensor(int64_t rows, int64_t cols, bool one_hot,
                        uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  std::vector<float> v(rows * cols, 0.f);
  for (int64_t r = 0; r < rows; ++r) {
    if (one_hot) {
      v[r * cols + gen() % cols] = 1.f;
    } else {
      for (int64_t c = 0; c < cols; ++c) v[r * cols + c] = unit(gen);
    }
  }
  return tf::Tensor::FromVector<float>(v, {rows, cols}).value();
}

// Examples per second of the model on `towers` virtual GPUs (0: the CPU
// alone) with `intra` intra-op threads per device and `inter` inter-op
// threads.
double ExamplesPerSecond(int towers, int intra, int inter, int steps) {
  tf::reset_default_graph();
  TowerModel model(towers);
  tf::ConfigProto config;
  config.intra_op_parallelism_threads = intra;
  config.inter_op_parallelism_threads = inter;
  config.gpu_options.virtual_gpus = towers;
  tf::Session sess(config);
  sess.run(tf::global_variables_initializer());
  tf::FeedDict feeds;
  const int per_tower = kBatch / static_cast<int>(model.xs.size());
  for (size_t i = 0; i < model.xs.size(); ++i) {
    feeds.push_back({model.xs[i], RandomTensor(per_tower, 784, false, 2 * i)});
    feeds.push_back(
        {model.ys[i], RandomTensor(per_tower, 10, true, 2 * i + 1)});
  }
  for (int s = 0; s < 3; ++s) sess.run(model.train_op, feeds);  // warm up
  const double seconds = tf::bench::BestSeconds(3, [&] {
    for (int s = 0; s < steps; ++s) sess.run(model.train_op, feeds);
  });
  return steps * kBatch / seconds;
}

}  // namespace

int main(int argc, char** argv) try {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const int steps = quick ? 5 : 40;
  std::printf("chapter 3's MLP (784-256-10), %d examples per step, %d steps\n",
              kBatch, steps);
  const double one_thread = ExamplesPerSecond(0, 1, 1, steps);
  const double two_threads = ExamplesPerSecond(0, 2, 1, steps);
  const double towers = ExamplesPerSecond(2, 1, 2, steps);
  std::printf("%-44s %12s %10s\n", "configuration", "examples/s", "ratio");
  std::printf("%-44s %12.0f %10s\n", "1 device (CPU), 1 intra-op thread",
              one_thread, "1.00x");
  std::printf("%-44s %12.0f %9.2fx\n", "1 device (CPU), 2 intra-op threads",
              two_threads, two_threads / one_thread);
  std::printf("%-44s %12.0f %9.2fx\n",
              "2 towers x 100 on 2 virtual GPUs, 1 thread each", towers,
              towers / one_thread);
  std::printf("towers vs 1 thread:  %.2fx (target >= 1.7)\n",
              towers / one_thread);
  std::printf("towers vs 2 threads: %.2fx (target >= 1.0)\n",
              towers / two_threads);
  return 0;
} catch (const tf::errors::OpError& e) {
  std::fprintf(stderr, "%s\n", e.status().ToString().c_str());
  return 1;
}
