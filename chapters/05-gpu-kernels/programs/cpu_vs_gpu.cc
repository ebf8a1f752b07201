// Seed 002's comparison: the same training steps on the CPU and on /gpu:0,
// both times and their ratio.
//
// The model is the seed's softmax regression (784 -> 10), or, with
// --hidden H, chapter 3's MLP shape (784 -> H -> 10, ReLU), trained on
// random batches of --batch examples (the seed's 100) for --steps steps,
// each placement in a session of its own. On a real GPU the ratio is the
// seed's question; on an emulated GPU (MINITF_VIRTUAL_GPUS=1
// MINITF_EMULATE_GPU_KERNELS=1) it measures the emulator, which runs CUDA
// kernels one thread after another on the CPU, and the program says so.
//
// Usage: cpu_vs_gpu [--steps N] [--batch B] [--hidden H]
#include <minitf/minitf.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace tf = minitf;

namespace {

struct Options {
  int steps = 100;
  int batch = 100;
  int hidden = 0;  // 0: the seed's softmax regression
};

// Seconds for `steps` training steps of the model on `device`, after one
// step that is not timed (it makes the kernels and the GPU's memory pool).
double TimeTraining(const Options& o, const std::string& device,
                    const tf::Tensor& xs, const tf::Tensor& ys) {
  tf::reset_default_graph();
  tf::Output x, y_;
  tf::Operation train_step;
  {
    tf::device_scope on(device);
    x = tf::placeholder(tf::float32, {tf::None, 784});
    y_ = tf::placeholder(tf::float32, {tf::None, 10});
    tf::Output features = x;
    int64_t width = 784;
    if (o.hidden > 0) {
      auto W1 = tf::Variable(tf::random_normal({784, o.hidden}, 0, 0.05f));
      auto b1 = tf::Variable(tf::zeros({o.hidden}));
      features = tf::nn::relu(tf::matmul(x, W1) + b1);
      width = o.hidden;
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
  sess.run(train_step, {{x, xs}, {y_, ys}});
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < o.steps; ++i) {
    sess.run(train_step, {{x, xs}, {y_, ys}});
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
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
  Options o;
  for (int i = 1; i < argc; i += 2) {
    int* field = nullptr;
    if (std::strcmp(argv[i], "--steps") == 0) field = &o.steps;
    if (std::strcmp(argv[i], "--batch") == 0) field = &o.batch;
    if (std::strcmp(argv[i], "--hidden") == 0) field = &o.hidden;
    if (field == nullptr || i + 1 >= argc || !ParseInt(argv[i + 1], field)) {
      std::fprintf(stderr,
                   "usage: cpu_vs_gpu [--steps N] [--batch B] [--hidden H] "
                   "(whole numbers from 1 to 1000000)\n");
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
  // Random inputs and one-hot labels: the time does not depend on them.
  tf::Tensor xs, ys;
  {
    tf::device_scope on_cpu("/cpu:0");
    auto images = tf::random_uniform({o.batch, 784});
    auto labels =
        tf::one_hot(tf::random_uniform({o.batch}, 0, 10, tf::int32), 10);
    tf::Session sess;
    xs = sess.run(images);
    ys = sess.run(labels);
  }
  std::printf("model: %s, batch %d, %d steps\n",
              o.hidden > 0
                  ? ("784-" + std::to_string(o.hidden) + "-10 MLP").c_str()
                  : "784-10 softmax regression",
              o.batch, o.steps);
  std::printf("GPU:0 is %s\n", gpu_desc.c_str());
  const double cpu = TimeTraining(o, "/cpu:0", xs, ys);
  const double gpu = TimeTraining(o, "/gpu:0", xs, ys);
  const double examples = double(o.steps) * o.batch;
  std::printf("CPU: %.3f s (%.0f examples/s)\n", cpu, examples / cpu);
  std::printf("GPU: %.3f s (%.0f examples/s)\n", gpu, examples / gpu);
  std::printf("GPU time / CPU time: %.2f\n", gpu / cpu);
  if (gpu_desc.find("emulated") != std::string::npos) {
    std::printf(
        "GPU:0 is the CPU emulator of CUDA: its time is the emulator's, not a "
        "GPU's speed.\n");
  }
  return 0;
} catch (const tf::errors::OpError& e) {
  std::fprintf(stderr, "%s\n", e.status().ToString().c_str());
  return 1;
}
