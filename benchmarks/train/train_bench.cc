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
// start. The figure is the best window's rate.
//
// Also timed, for the record: building the MLP's gradient graph with
// tf::gradients (no session involved).
//
// With --scaling, instead: what a second thread gives the MLP, against what
// it gives a plain Eigen GEMM of the step's five matrix products (the work
// that splits best), both measured here at 1 and 2 threads, windows of the
// two thread counts taken in turn so that a change in the machine's load
// falls on both.
//
// benchmarks/train/compare.sh runs this beside the same models in
// TensorFlow (tf_train.py) and PyTorch (torch_train.py). The last lines are
// machine-readable:
//   train_examples_per_s <model> <threads> <examples/s>
//   gradients_ms <ms>
// or, with --scaling,
//   mlp_scaling <minitf speed-up> <Eigen GEMM speed-up> <ratio>
// Usage: train_bench [--quick] [--threads N | --scaling]
#include <Eigen/Core>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "minitf/graph/api.h"
#include "minitf/tensor/api.h"
#include "minitf/train/api.h"
#include "timing.h"

namespace tf = minitf;

namespace {

using tf::bench::BestSeconds;

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
  Trainer(const Model& model, const Batches& data)
      : model_(model), data_(data), init_(tf::global_variables_initializer()) {
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
// from fresh variables; returns the best window's examples per second and
// the loss after the last step.
double ExamplesPerSecond(const Model& model, const Batches& data, int windows,
                         int steps, float* last_loss) {
  Trainer trainer(model, data);
  double best = 1e30;
  for (int w = 0; w < windows; ++w)
    best = std::min(best, trainer.Window(steps));
  *last_loss = trainer.Loss();
  return static_cast<double>(steps) * kBatch / best;
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

// The best of `windows` windows of `fn` at 1 thread and at 2, taken in
// turn; returns {seconds at 1, seconds at 2}.
std::pair<double, double> OneAndTwoThreads(int windows,
                                           const std::function<double()>& fn) {
  double best[2] = {1e30, 1e30};
  for (int w = 0; w < windows; ++w) {
    for (int t = 1; t <= 2; ++t) {
      tf::kernels::SetNumThreads(t);
      best[t - 1] = std::min(best[t - 1], fn());
    }
  }
  tf::kernels::SetNumThreads(1);
  return {best[0], best[1]};
}

// What a second thread gives the MLP's training step, and what it gives
// the step's products alone in plain Eigen; prints both and their ratio.
void MlpScaling(const Batches& data, bool quick) {
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
  const double minitf_speedup = mlp1 / mlp2;
  const double eigen_speedup = gemm1 / gemm2;
  std::printf(
      "what a second thread gives, windows of 1 and 2 threads in turn"
      " (best of %d each)\n",
      windows);
  std::printf("  minitf, MLP training step : %8.1f -> %8.1f us   %5.2fx\n",
              mlp1 / steps * 1e6, mlp2 / steps * 1e6, minitf_speedup);
  std::printf("  Eigen, the step's products: %8.1f -> %8.1f us   %5.2fx\n",
              gemm1 / steps * 1e6, gemm2 / steps * 1e6, eigen_speedup);
  std::printf("  ratio minitf / Eigen      : %8.2f (target: at least 0.8)\n",
              minitf_speedup / eigen_speedup);
  std::printf("\nmlp_scaling %.3f %.3f %.3f\n", minitf_speedup, eigen_speedup,
              minitf_speedup / eigen_speedup);
}

// The best time of tf::gradients on the MLP's loss, in milliseconds; each
// repetition builds the forward graph afresh (untimed) in a new graph.
double GradientsMs(int reps) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    tf::Graph graph;
    tf::graph_scope use(graph);
    auto x = tf::placeholder(tf::float32, {tf::None, kPixels});
    auto y_ = tf::placeholder(tf::float32, {tf::None, kClasses});
    std::vector<tf::Output> vars;
    tf::Output loss = MlpLoss(x, y_, &vars);
    best = std::min(best, BestSeconds(1, [&] {
                      auto grads = tf::gradients({loss}, vars);
                      tf::bench::DoNotOptimize(grads.size());
                    }));
  }
  return best * 1e3;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  bool scaling = false;
  int threads = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else if (std::strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
      threads = std::atoi(argv[++i]);
    } else if (std::strcmp(argv[i], "--scaling") == 0) {
      scaling = true;
    } else {
      std::fprintf(stderr,
                   "usage: train_bench [--quick] [--threads N | --scaling]\n");
      return 2;
    }
  }
  const Batches data = RandomBatches(quick ? 10 : 60);
  if (scaling) {
    MlpScaling(data, quick);
    return 0;
  }
  tf::kernels::SetNumThreads(threads);
  const int windows = quick ? 2 : 7;

  std::printf("training on random MNIST-shaped batches of %d, %d thread(s)\n",
              kBatch, tf::kernels::GetNumThreads());
  float loss = 0;
  double softmax_rate = 0, mlp_rate = 0;
  {
    tf::Graph graph;
    tf::graph_scope use(graph);
    softmax_rate = ExamplesPerSecond(SoftmaxRegression(), data, windows,
                                     quick ? 200 : 2000, &loss);
    std::printf(
        "  softmax regression, GD 0.1 : %10.0f examples/s  (loss %.3f)\n",
        softmax_rate, loss);
  }
  {
    tf::Graph graph;
    tf::graph_scope use(graph);
    tf::set_random_seed(1);
    mlp_rate = ExamplesPerSecond(Mlp(), data, windows, quick ? 20 : 300, &loss);
    std::printf(
        "  MLP 784-256-10, Adam 0.001 : %10.0f examples/s  (loss %.3f)\n",
        mlp_rate, loss);
  }
  const double grad_ms = GradientsMs(quick ? 3 : 20);
  std::printf("  tf::gradients on the MLP   : %10.3f ms to build\n", grad_ms);

  std::printf("\ntrain_examples_per_s softmax %d %.0f\n", threads,
              softmax_rate);
  std::printf("train_examples_per_s mlp %d %.0f\n", threads, mlp_rate);
  std::printf("gradients_ms %.4f\n", grad_ms);
  return 0;
}
