// Chapter 3's training speed: the two models of the chapter's programs,
// trained on random data shaped like MNIST, in examples per second.
//
//   - softmax regression (seed 002): y = softmax(x W + b), the seed's
//     cross-entropy -sum(y_ * log(y)), GradientDescent at 0.1;
//   - the 784-256-10 ReLU MLP (mlp.cc): Adam at 0.001 on the fused
//     softmax_cross_entropy_with_logits.
// Both train on batches of 100 drawn in turn from a pool of random batches
// (inputs uniform in [0, 1), one-hot random labels) fed as tensors made
// before the clock starts, so the figure is the training step alone: the
// forward pass, the gradients, the update and the Session around them. Each
// timed window starts from freshly initialised variables, so no window
// trains a model that has drifted far from where the chapter's programs
// start. A figure is the median of the windows' rates, with their range.
//
// Then: what a second thread gives the MLP, against what it gives a plain
// Eigen GEMM of the step's five matrix products (the work that splits best),
// both at 1 and 2 threads, windows of the two thread counts taken in turn so
// that a change in the machine's load falls on both. The MLP's step with
// the session's remapper off and on (graph_rewrite.h: each layer as one
// _FusedMatMul or as MatMul, bias add and ReLU). And the time tf::gradients
// takes to build the MLP's backward graph.
//
// benchmarks/train/compare.sh runs the same models in TensorFlow
// (tf_train.py) and PyTorch (torch_train.py) first and hands their lines to
// this program with --peers FILE, which puts them beside minitf's in one
// table (benchmarks/tensor/results.h; results/train_bench.md):
//   peer <key> <name...>                                 e.g. peer tf
//   TensorFlow 2.21.0 peer_setup <key> <how it ran...> examples_per_s <key>
//   <model> <threads> <rate per window...>
// Usage: train_bench [--quick] [--threads 1,2] [--peers FILE]
//                    [--command TEXT] [--mlp-steps N]
// --quick: fewer, shorter windows, one thread; --command: the command line
// the results file names (compare.sh passes its own); --mlp-steps N: only N
// steps of the MLP at the first thread count, no results file, for a
// profiler (perf record -g train_bench --threads 1 --mlp-steps 3000).
#include <Eigen/Core>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "minitf/graph/api.h"
#include "minitf/tensor/api.h"
#include "minitf/train/api.h"
#include "results.h"
#include "timing.h"

namespace tf = minitf;

namespace {

using tf::bench::BestSeconds;
using tf::bench::Fixed;
using tf::bench::Median;
using tf::bench::MedianRange;

constexpr int kBatch = 100;
constexpr int kPixels = 784;
constexpr int kClasses = 10;
constexpr int kHidden = 256;

// A pool of random batches, shaped like MNIST's.
struct Batches {
  std::vector<tf::Tensor> xs;  // [kBatch, kPixels] each
  std::vector<tf::Tensor> ys;  // [kBatch, kClasses] one-hot each
};

Batches RandomBatches(int count) {
  std::mt19937 gen(1);
  std::uniform_real_distribution<float> pixel(0.f, 1.f);
  std::uniform_int_distribution<int> label(0, kClasses - 1);
  Batches b;
  for (int i = 0; i < count; ++i) {
    tf::Tensor x(tf::float32, tf::TensorShape({kBatch, kPixels}));
    tf::Tensor y(tf::float32, tf::TensorShape({kBatch, kClasses}));
    float* xp = x.data<float>();
    for (int j = 0; j < kBatch * kPixels; ++j) xp[j] = pixel(gen);
    y.flat<float>().setZero();
    for (int r = 0; r < kBatch; ++r)
      y.data<float>()[r * kClasses + label(gen)] = 1.f;
    b.xs.push_back(std::move(x));
    b.ys.push_back(std::move(y));
  }
  return b;
}

// A model ready to train: its placeholders, training op and loss.
struct Model {
  tf::Output x, y_, loss;
  tf::Operation train_step;
};

// --8<-- [start:softmax_model]
// Seed 002's model and loss, as seed_softmax_regression.cc builds them.
Model SoftmaxRegression() {
  Model m;
  m.x = tf::placeholder(tf::float32, {tf::None, kPixels});
  auto W = tf::Variable(tf::zeros({kPixels, kClasses}));
  auto b = tf::Variable(tf::zeros({kClasses}));
  auto y = tf::nn::softmax(tf::matmul(m.x, W) + b);
  m.y_ = tf::placeholder(tf::float32, {tf::None, kClasses});
  m.loss = tf::reduce_mean(
      -tf::reduce_sum(m.y_ * tf::log(y), /*reduction_indices=*/{1}));
  m.train_step = tf::train::GradientDescentOptimizer(0.1f).minimize(m.loss);
  return m;
}
// --8<-- [end:softmax_model]

// The MLP's forward pass and loss, as mlp.cc builds them; `vars` receives
// its variables.
tf::Output MlpLoss(tf::Output x, tf::Output y_, std::vector<tf::Output>* vars) {
  auto W1 = tf::Variable(tf::truncated_normal({kPixels, kHidden}, 0.0, 0.05));
  auto b1 = tf::Variable(tf::zeros({kHidden}));
  auto W2 = tf::Variable(tf::truncated_normal({kHidden, kClasses}, 0.0, 0.05));
  auto b2 = tf::Variable(tf::zeros({kClasses}));
  auto hidden = tf::nn::relu(tf::matmul(x, W1) + b1);
  auto logits = tf::matmul(hidden, W2) + b2;
  *vars = {W1, b1, W2, b2};
  return tf::reduce_mean(tf::nn::softmax_cross_entropy_with_logits(y_, logits));
}

Model Mlp() {
  Model m;
  m.x = tf::placeholder(tf::float32, {tf::None, kPixels});
  m.y_ = tf::placeholder(tf::float32, {tf::None, kClasses});
  std::vector<tf::Output> vars;
  m.loss = MlpLoss(m.x, m.y_, &vars);
  m.train_step = tf::train::AdamOptimizer(0.001).minimize(m.loss);
  return m;
}

// A model's training session: the steps feed the batches of `data` in turn.
class Trainer {
 public:
  Trainer(const Model& model, const Batches& data,
          const tf::ConfigProto& config = {})
      : model_(model),
        data_(data),
        sess_(config),
        init_(tf::global_variables_initializer()) {
    sess_.run(init_);
    for (int i = 0; i < 20; ++i) Step();  // Plans the run; warms the caches.
  }

  // The seconds `steps` steps take, from freshly initialised variables.
  double Window(int steps) {
    sess_.run(init_);
    return BestSeconds(1, [&] {
      for (int i = 0; i < steps; ++i) Step();
    });
  }

  float Loss() {
    return sess_
        .run(model_.loss, {{model_.x, data_.xs[0]}, {model_.y_, data_.ys[0]}})
        .scalar<float>();
  }

 private:
  void Step() {
    sess_.run(model_.train_step,
              {{model_.x, data_.xs[next_]}, {model_.y_, data_.ys[next_]}});
    next_ = (next_ + 1) % static_cast<int>(data_.xs.size());
  }

  const Model& model_;
  const Batches& data_;
  tf::Session sess_;
  const tf::Operation init_;
  int next_ = 0;
};

// Trains `model` for `windows` windows of `steps` steps each, every window
// from fresh variables; returns each window's examples per second and sets
// the loss after the last step.
std::vector<double> ExamplesPerSecond(const Model& model, const Batches& data,
                                      int windows, int steps,
                                      float* last_loss) {
  Trainer trainer(model, data);
  std::vector<double> rates;
  for (int w = 0; w < windows; ++w) {
    rates.push_back(static_cast<double>(steps) * kBatch /
                    trainer.Window(steps));
  }
  *last_loss = trainer.Loss();
  return rates;
}

// --8<-- [start:eigen_gemm]
// The MLP step's five matrix products as plain Eigen expressions, on
// row-major matrices as minitf's tensors are, with Eigen's own threading
// (OpenMP, as many threads as Eigen::setNbThreads says): x W1 and h W2
// forward; h^T dy, dy W2^T and x^T dh backward.
class EigenMlpProducts {
 public:
  using Matrix =
      Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

  EigenMlpProducts()
      : x_(Matrix::Random(kBatch, kPixels)),
        w1_(Matrix::Random(kPixels, kHidden)),
        w2_(Matrix::Random(kHidden, kClasses)),
        dy_(Matrix::Random(kBatch, kClasses)),
        h_(kBatch, kHidden),
        logits_(kBatch, kClasses),
        dw2_(kHidden, kClasses),
        dh_(kBatch, kHidden),
        dw1_(kPixels, kHidden) {}

  void Step() {
    h_.noalias() = x_ * w1_;
    logits_.noalias() = h_ * w2_;
    dw2_.noalias() = h_.transpose() * dy_;
    dh_.noalias() = dy_ * w2_.transpose();
    dw1_.noalias() = x_.transpose() * dh_;
    tf::bench::DoNotOptimize(dw1_.data()[0]);
  }

 private:
  Matrix x_, w1_, w2_, dy_, h_, logits_, dw2_, dh_, dw1_;
};
// --8<-- [end:eigen_gemm]

// `windows` windows of `fn` at 1 thread and at 2, taken in turn; returns
// the seconds of each window, {at 1, at 2}.
std::pair<std::vector<double>, std::vector<double>> OneAndTwoThreads(
    int windows, const std::function<double()>& fn) {
  std::vector<double> seconds[2];
  for (int w = 0; w < windows; ++w) {
    for (int t = 1; t <= 2; ++t) {
      tf::kernels::SetNumThreads(t);
      seconds[t - 1].push_back(fn());
    }
  }
  tf::kernels::SetNumThreads(1);
  return {seconds[0], seconds[1]};
}

// What a second thread gives the MLP's training step, and what it gives
// the step's products alone in plain Eigen: a table of `results`.
void MlpScaling(const Batches& data, bool quick, tf::bench::Results* results) {
  const int windows = quick ? 2 : 7;
  const int steps = quick ? 20 : 300;
  tf::Graph graph;
  tf::graph_scope use(graph);
  tf::set_random_seed(1);
  const Model mlp = Mlp();
  Trainer trainer(mlp, data);
  const auto [mlp1, mlp2] =
      OneAndTwoThreads(windows, [&] { return trainer.Window(steps); });
  EigenMlpProducts products;
  const auto [gemm1, gemm2] = OneAndTwoThreads(windows, [&] {
    return BestSeconds(1, [&] {
      for (int i = 0; i < steps; ++i) products.Step();
    });
  });
  auto micros = [steps](const std::vector<double>& s) {
    std::vector<double> us;
    for (double v : s) us.push_back(v / steps * 1e6);
    return us;
  };
  const double minitf_speedup = Median(mlp1) / Median(mlp2);
  const double eigen_speedup = Median(gemm1) / Median(gemm2);
  results->Table(
      "What a second thread gives: the MLP's training step, and its five "
      "matrix products alone in plain Eigen",
      {"work", "1 thread, µs", "2 threads, µs", "speed-up"});
  results->Row({"minitf, MLP training step", MedianRange(micros(mlp1), 0),
                MedianRange(micros(mlp2), 0), Fixed(minitf_speedup, 2) + "×"});
  results->Row({"Eigen, the step's products", MedianRange(micros(gemm1), 0),
                MedianRange(micros(gemm2), 0), Fixed(eigen_speedup, 2) + "×"});
  results->Note("Microseconds a step: median (range) over " +
                std::to_string(windows) + " windows of " +
                std::to_string(steps) +
                " steps per thread count, the two counts taken in turn; "
                "speed-up: of the medians. The products' speed-up is about "
                "what the whole step could gain. minitf's speed-up as a "
                "fraction of theirs: " +
                Fixed(minitf_speedup / eigen_speedup, 2) + ".");
}

// --8<-- [start:remapper_bench]
// The MLP's training step with the session's remapper off and on (each
// layer's MatMul, bias add and ReLU as one _FusedMatMul node, or as three),
// `windows` windows of `steps` steps of the two taken in turn, at each
// thread count: a table of `results`.
void MlpRemapper(const Batches& data, int windows, int steps,
                 const std::vector<int>& thread_counts,
                 tf::bench::Results* results) {
  tf::Graph graph;
  tf::graph_scope use(graph);
  tf::set_random_seed(1);
  const Model mlp = Mlp();
  tf::ConfigProto off;
  off.graph_options.rewrite_options.remapping = tf::RewriterConfig::OFF;
  Trainer unfused(mlp, data, off);
  Trainer fused(mlp, data);
  results->Table(
      "The session's graph rewrite: the MLP's training step with the "
      "remapper off (MatMul, bias add and ReLU apart) and on (_FusedMatMul)",
      {"threads", "remapper off, µs", "remapper on, µs", "off ÷ on"});
  for (int threads : thread_counts) {
    tf::kernels::SetNumThreads(threads);
    std::vector<double> us[2];
    for (int w = 0; w < windows; ++w) {
      us[0].push_back(unfused.Window(steps) / steps * 1e6);
      us[1].push_back(fused.Window(steps) / steps * 1e6);
    }
    results->Row({std::to_string(threads), MedianRange(us[0], 0),
                  MedianRange(us[1], 0),
                  Fixed(Median(us[0]) / Median(us[1]), 2) + "×"});
  }
  tf::kernels::SetNumThreads(1);
  results->Note("Microseconds a step: median (range) over " +
                std::to_string(windows) + " windows of " +
                std::to_string(steps) +
                " steps each, the two sessions taken in turn; off ÷ on: the "
                "ratio of the medians, above 1 where fusing is faster.");
}
// --8<-- [end:remapper_bench]

// tf::gradients on the MLP's loss: the best time over `reps` builds, in
// milliseconds, each in a new graph (the forward graph built untimed); the
// node counts of the forward graph and of what tf::gradients adds.
struct GradientsBuild {
  double ms = 1e30;
  int forward_nodes = 0;
  int gradient_nodes = 0;
};

GradientsBuild TimeGradients(int reps) {
  GradientsBuild result;
  for (int r = 0; r < reps; ++r) {
    tf::Graph graph;
    tf::graph_scope use(graph);
    auto x = tf::placeholder(tf::float32, {tf::None, kPixels});
    auto y_ = tf::placeholder(tf::float32, {tf::None, kClasses});
    std::vector<tf::Output> vars;
    tf::Output loss = MlpLoss(x, y_, &vars);
    result.forward_nodes = graph.num_nodes();
    result.ms = std::min(result.ms, 1e3 * BestSeconds(1, [&] {
                                      auto grads = tf::gradients({loss}, vars);
                                      tf::bench::DoNotOptimize(grads.size());
                                    }));
    result.gradient_nodes = graph.num_nodes() - result.forward_nodes;
  }
  return result;
}

// The peers' figures, as compare.sh hands them over (see the top of the
// file): a name and a setup per peer key, and per (key, model, threads) the
// rate of each window.
struct Peers {
  std::vector<std::string> keys;  // in the order first seen
  std::map<std::string, std::string> name, setup;
  std::map<std::string, std::vector<double>> rates;  // "key model threads"

  static bool Read(const std::string& path, Peers* peers) {
    std::ifstream in(path);
    if (!in) return false;
    std::string line;
    while (std::getline(in, line)) {
      std::istringstream words(line);
      std::string kind, key;
      if (!(words >> kind >> key)) continue;
      std::string rest;
      std::getline(words >> std::ws, rest);
      if (kind == "peer") {
        if (!peers->name.count(key)) peers->keys.push_back(key);
        peers->name[key] = rest;
      } else if (kind == "peer_setup") {
        peers->setup[key] = rest;
      } else if (kind == "examples_per_s") {
        std::istringstream fields(rest);
        std::string model, threads;
        fields >> model >> threads;
        std::vector<double>& r =
            peers->rates[key + " " + model + " " + threads];
        for (double v; fields >> v;) r.push_back(v);
      }
    }
    return true;
  }
};

// A table cell for examples per second: the median and range of `rates`
// in thousands, with a decimal below 100 thousand.
std::string Thousands(const std::vector<double>& rates) {
  std::vector<double> k;
  for (double r : rates) k.push_back(r / 1e3);
  return MedianRange(k, Median(k) < 100 ? 1 : 0);
}

std::vector<int> ParseThreads(const std::string& list) {
  std::vector<int> counts;
  std::istringstream in(list);
  for (std::string item; std::getline(in, item, ',');) {
    counts.push_back(std::atoi(item.c_str()));
  }
  return counts;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  int steps_only = 0;
  std::string threads_list;
  std::string peers_path;
  std::vector<std::string> command;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else if (std::strcmp(argv[i], "--mlp-steps") == 0 && i + 1 < argc) {
      steps_only = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
      threads_list = argv[++i];
    } else if (std::strcmp(argv[i], "--peers") == 0 && i + 1 < argc) {
      peers_path = argv[++i];
    } else if (std::strcmp(argv[i], "--command") == 0 && i + 1 < argc) {
      std::istringstream words(argv[++i]);
      for (std::string w; words >> w;) command.push_back(w);
    } else {
      std::fprintf(stderr,
                   "usage: train_bench [--quick] [--threads 1,2] "
                   "[--peers FILE] [--command TEXT] [--mlp-steps N]\n");
      return 2;
    }
  }
  if (threads_list.empty()) threads_list = quick ? "1" : "1,2";
  const std::vector<int> thread_counts = ParseThreads(threads_list);
  Peers peers;
  if (!peers_path.empty() && !Peers::Read(peers_path, &peers)) {
    std::fprintf(stderr, "train_bench: cannot read %s\n", peers_path.c_str());
    return 1;
  }
  std::vector<char*> recorded_argv;
  for (std::string& w : command) recorded_argv.push_back(w.data());
  tf::bench::Results results(
      "train_bench",
      command.empty() ? argc : static_cast<int>(recorded_argv.size()),
      command.empty() ? argv : recorded_argv.data());

  const Batches data = RandomBatches(quick ? 10 : 60);
  if (steps_only > 0) {
    // Only the MLP's training steps, at the first thread count: a workload
    // for a profiler (perf record -g train_bench --mlp-steps 3000).
    tf::kernels::SetNumThreads(thread_counts.at(0));
    tf::Graph graph;
    tf::graph_scope use(graph);
    tf::set_random_seed(1);
    const Model mlp = Mlp();
    Trainer trainer(mlp, data);
    const double s = trainer.Window(steps_only);
    std::printf("MLP: %d steps, %.1f us a step, loss %.3f\n", steps_only,
                s / steps_only * 1e6, trainer.Loss());
    return 0;
  }
  const int windows = quick ? 2 : 7;
  const int softmax_steps = quick ? 200 : 2000;
  const int mlp_steps = quick ? 20 : 300;

  struct Line {
    std::string model, label;
    int threads;
    std::vector<double> rates;
  };
  std::vector<Line> lines;
  for (int threads : thread_counts) {
    tf::kernels::SetNumThreads(threads);
    std::printf("minitf, %d thread(s):\n", tf::kernels::GetNumThreads());
    float loss = 0;
    {
      tf::Graph graph;
      tf::graph_scope use(graph);
      lines.push_back({"softmax", "softmax", threads,
                       ExamplesPerSecond(SoftmaxRegression(), data, windows,
                                         softmax_steps, &loss)});
      std::printf("  softmax regression, GD 0.1 : %s examples/s (loss %.3f)\n",
                  MedianRange(lines.back().rates, 0).c_str(), loss);
    }
    {
      tf::Graph graph;
      tf::graph_scope use(graph);
      tf::set_random_seed(1);
      lines.push_back(
          {"mlp", "MLP", threads,
           ExamplesPerSecond(Mlp(), data, windows, mlp_steps, &loss)});
      std::printf("  MLP 784-256-10, Adam 0.001 : %s examples/s (loss %.3f)\n",
                  MedianRange(lines.back().rates, 0).c_str(), loss);
    }
  }
  tf::kernels::SetNumThreads(1);
  std::sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) {
    return a.model != b.model ? a.model > b.model : a.threads < b.threads;
  });

  results.Table(
      "Training examples per second, in thousands, batch 100",
      {"model", "threads", "engine", "thousand examples/s", "minitf ÷ engine"});
  for (const Line& line : lines) {
    const std::string threads = std::to_string(line.threads);
    results.Row({line.label, threads, "minitf", Thousands(line.rates), ""});
    for (const std::string& key : peers.keys) {
      const auto found =
          peers.rates.find(key + " " + line.model + " " + threads);
      if (found == peers.rates.end() || found->second.empty()) continue;
      results.Row({line.label, threads, peers.name[key],
                   Thousands(found->second),
                   Fixed(Median(line.rates) / Median(found->second), 1) + "×"});
    }
  }
  results.Note(
      "softmax: seed 002's softmax regression, gradient descent at "
      "0.1; MLP: 784-256-10 with ReLU, Adam at 0.001. Median "
      "(range) over " +
      std::to_string(windows) + " windows of " + std::to_string(softmax_steps) +
      " steps (softmax) or " + std::to_string(mlp_steps) +
      " steps (MLP), each from freshly initialised variables; "
      "minitf ÷ engine: the ratio of the medians, above 1 where "
      "minitf is faster.");
  for (const std::string& key : peers.keys) {
    results.Note(peers.name[key] + ": " + peers.setup[key] + ".");
  }
  if (peers.keys.empty()) {
    results.Note(
        "TensorFlow and PyTorch not measured: benchmarks/train/compare.sh "
        "times them beside minitf once scripts/peers.sh has installed them.");
  }

  MlpScaling(data, quick, &results);
  MlpRemapper(data, windows, mlp_steps, thread_counts, &results);

  const GradientsBuild grads = TimeGradients(quick ? 3 : 20);
  results.Table("Building the MLP's backward graph with tf::gradients",
                {"forward nodes", "nodes added", "best time, ms"});
  results.Row({std::to_string(grads.forward_nodes),
               std::to_string(grads.gradient_nodes), Fixed(grads.ms, 3)});
  results.Note("Best of " + std::to_string(quick ? 3 : 20) +
               " builds, each in a new graph.");
  return results.Finish();
}
