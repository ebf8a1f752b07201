// What staleness costs: seed 003's model trained in one process, with every
// gradient applied `s` updates after it was computed, as an asynchronous
// worker's is when other workers update the ps between its read and its
// write. Two shuffle streams take turns, as two workers' batches do.
//
// Chapter 7 §6 uses it to explain why the asynchronous cluster ends below
// the single-machine program: the cluster's run is not repeatable, this one
// is, so it separates the cost of staleness from the noise of a run.
//
// The table is printed, and written to $MINITF_RESULTS_DIR/stale_gradients.md
// when that is set (benchmarks/tensor/results.h): chapter 7 includes it.
//
//   stale_gradients [--seeds=4] [--max_staleness=2] [--learning_rate=0.1]
#include <minitf/minitf.h>

#include <cstdio>
#include <cstdlib>
#include <deque>
#include <string>
#include <vector>

#include "results.h"

namespace tf = minitf;

namespace {

// Test accuracy after `updates` gradient steps, each applied `staleness`
// updates late, with batches from two shuffles (seeds 2k and 2k+1) in turn.
float TrainWithStaleness(int staleness, uint64_t seed, int updates,
                         float learning_rate) {
  tf::reset_default_graph();
  const std::string dir = tf::datasets::mnist::default_data_dir();
  auto worker_0 =
      tf::datasets::mnist::read_data_sets(dir, true, 5000, 2 * seed);
  auto worker_1 =
      tf::datasets::mnist::read_data_sets(dir, true, 5000, 2 * seed + 1);

  // --8<-- [start:stale]
  auto x = tf::placeholder(tf::float32, {tf::None, 784});
  auto y_ = tf::placeholder(tf::float32, {tf::None, 10});
  auto W = tf::Variable(tf::zeros({784, 10}), "W");
  auto b = tf::Variable(tf::zeros({10}), "b");
  auto y = tf::nn::softmax(tf::matmul(x, W) + b);
  auto cross_entropy = tf::reduce_mean(
      -tf::reduce_sum(y_ * tf::log(y), /*reduction_indices=*/{1}));
  // The gradients are computed in one run and applied in a later one, from
  // placeholders: between the two, other updates may land.
  auto grads = tf::gradients({cross_entropy}, {W, b});
  auto grad_W = tf::placeholder(tf::float32, {784, 10});
  auto grad_b = tf::placeholder(tf::float32, {10});
  auto apply = tf::train::GradientDescentOptimizer(learning_rate)
                   .apply_gradients({{grad_W, W}, {grad_b, b}});

  tf::Session sess;
  sess.run(tf::global_variables_initializer());
  std::deque<std::vector<tf::Tensor>> in_flight;
  for (int step = 0; step < updates + staleness; ++step) {
    if (step < updates) {
      auto& data = step % 2 == 0 ? worker_0 : worker_1;
      auto [batch_xs, batch_ys] = data.train.next_batch(100);
      in_flight.push_back(
          sess.run({grads[0], grads[1]}, {{x, batch_xs}, {y_, batch_ys}}));
    }
    if (step >= staleness) {  // the gradient computed `staleness` steps ago
      std::vector<tf::Tensor> g = std::move(in_flight.front());
      in_flight.pop_front();
      sess.run(apply, {{grad_W, g[0]}, {grad_b, g[1]}});
    }
  }
  // --8<-- [end:stale]
  auto predicted = tf::argmax(y, 1);
  auto correct = tf::equal(predicted, tf::argmax(y_, 1));
  auto accuracy = tf::reduce_mean(tf::cast(correct, tf::float32));
  return sess
      .run(accuracy,
           {{x, worker_0.test.images()}, {y_, worker_0.test.labels()}})
      .scalar<float>();
}

}  // namespace

int main(int argc, char** argv) try {
  int seeds = 4;
  int max_staleness = 2;
  float learning_rate = 0.1f;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.starts_with("--seeds=")) {
      seeds = std::atoi(arg.c_str() + 8);
    } else if (arg.starts_with("--max_staleness=")) {
      max_staleness = std::atoi(arg.c_str() + 16);
    } else if (arg.starts_with("--learning_rate=")) {
      learning_rate = static_cast<float>(std::atof(arg.c_str() + 16));
    } else {
      std::fprintf(stderr,
                   "Usage: stale_gradients [--seeds=N] [--max_staleness=S] "
                   "[--learning_rate=R]\n");
      return 2;
    }
  }
  if (seeds < 1 || max_staleness < 0) {
    std::fprintf(stderr, "--seeds must be >= 1 and --max_staleness >= 0\n");
    return 2;
  }
  tf::bench::Results results("stale_gradients", argc, argv);
  results.Table(
      "Test accuracy after 1000 updates, each gradient applied "
      "`staleness` updates late (learning rate " +
          tf::bench::Fixed(learning_rate, 2) + ")",
      {"staleness",
       "one run per pair of shuffles, seeds 1 to " + std::to_string(seeds),
       "mean"});
  for (int staleness = 0; staleness <= max_staleness; ++staleness) {
    double sum = 0;
    std::string accuracies;
    for (int seed = 1; seed <= seeds; ++seed) {
      const float accuracy =
          TrainWithStaleness(staleness, seed, 1000, learning_rate);
      sum += accuracy;
      if (seed > 1) accuracies += ' ';
      accuracies += tf::bench::Fixed(accuracy, 4);
    }
    // Progress while the rest trains; the table comes at the end.
    std::fprintf(stderr, "staleness %d: %s\n", staleness, accuracies.c_str());
    results.Row({std::to_string(staleness), accuracies,
                 tf::bench::Fixed(sum / seeds, 4)});
  }
  results.Note(
      "Deterministic on one machine: run again with the same flags, the "
      "program prints the same figures (another CPU may round a few "
      "predictions differently).");
  return results.Finish();
} catch (const tf::errors::OpError& e) {
  std::fprintf(stderr, "%s\n", e.status().ToString().c_str());
  return 1;
}
