// Seed 004's tower program on GPUs whose memory the CPU may not read, by
// each of its three routes (--all_reduce gather, ring and nccl): every node
// the program places on a GPU runs there with a GPU kernel, or as
// host_memory.h allows, and training gives the CPU's results.
//
// The graph is the program's (chapters/06-multi-gpu-towers/programs/
// seed_multi_gpu_model.cc) op for op: the MLP's variables made by
// get_variable on /cpu:0, one tower per GPU with its loss, prediction,
// tf.gradients and summary, the gradients met by average_gradients on the
// CPU, ring_all_reduce or nccl_all_sum over the GPUs, one
// GradientDescentOptimizer on the CPU, and the test model on the default
// device. Only the sizes are smaller (8 -> 16 -> 3), for the emulator. "The
// CPU's results" are those of the same program on chapter 4's virtual GPUs,
// whose kernels are the CPU's.
#include <gtest/gtest.h>
#include <minitf/minitf.h>

#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "device_memory_gpus.h"

namespace minitf {
namespace {

namespace tf = minitf;

constexpr int64_t kIn = 8, kHidden = 16, kClasses = 3, kBatch = 4;

// The program's Model: chapter 3's MLP with no optimizer, its variables
// shared through the variable scope "model" and kept on /cpu:0.
struct Model {
  tf::Output x, y, loss, predict, merge_summary;
  std::vector<tf::Output> grad;

  explicit Model(bool is_training) {
    x = tf::placeholder(tf::float32, {tf::None, kIn}, "x");
    y = tf::placeholder(tf::float32, {tf::None, kClasses}, "y");
    std::vector<tf::Variable> vars;
    {
      tf::device_scope on_cpu("/cpu:0");
      tf::variable_scope model("model", tf::AUTO_REUSE);
      vars = {tf::get_variable("W1", {kIn, kHidden},
                               tf::truncated_normal_initializer(0.0, 0.5)),
              tf::get_variable("b1", {kHidden}, tf::zeros_initializer()),
              tf::get_variable("W2", {kHidden, kClasses},
                               tf::truncated_normal_initializer(0.0, 0.5)),
              tf::get_variable("b2", {kClasses}, tf::zeros_initializer())};
    }
    auto hidden = tf::nn::relu(tf::matmul(x, vars[0]) + vars[1]);
    auto logits = tf::matmul(hidden, vars[2]) + vars[3];
    loss =
        tf::reduce_mean(tf::nn::softmax_cross_entropy_with_logits(y, logits));
    predict = tf::argmax(logits, 1);
    if (is_training) {
      std::vector<tf::Output> xs;
      for (const tf::Variable& v : vars) xs.push_back(v.value());
      grad = tf::gradients({loss}, xs);
    }
    merge_summary = tf::summary::merge({tf::summary::scalar("loss", loss)});
  }
};

// The program's AllReduceMean: per variable, the towers' gradients summed
// over their GPUs by a ring or by NCCL, and divided by the number of towers.
std::vector<std::vector<tf::Output>> AllReduceMean(
    const std::vector<std::vector<tf::Output>>& grads, const std::string& how) {
  const int n = static_cast<int>(grads.size());
  std::vector<std::vector<tf::Output>> means;
  for (size_t v = 0; v < grads[0].size(); ++v) {
    std::vector<tf::Output> per_tower;
    for (const auto& tower : grads) per_tower.push_back(tower[v]);
    if (how == "ring") {
      means.push_back(tf::ring_all_reduce(per_tower, /*mean=*/true));
      continue;
    }
    std::vector<tf::Output> sums = tf::nccl_all_sum(per_tower);
    means.emplace_back();
    for (int i = 0; i < n; ++i) {
      tf::device_scope on_gpu("/gpu:" + std::to_string(i));
      means.back().push_back(sums[i] / tf::constant(static_cast<float>(n)));
    }
  }
  return means;
}

struct Program {
  std::vector<Model> towers;
  std::optional<Model> test;
  tf::Operation train_op;
};

// The program's multi_gpu_model, then its test model.
Program Build(int num_gpus, const std::string& all_reduce) {
  Program p;
  std::vector<std::vector<tf::Output>> grads;
  {
    tf::name_scope scope("train");
    for (int i = 0; i < num_gpus; ++i) {
      tf::device_scope on_gpu("/gpu:" + std::to_string(i));
      tf::name_scope tower("tower_" + std::to_string(i));
      p.towers.emplace_back(/*is_training=*/true);
      grads.push_back(p.towers.back().grad);
    }
    std::vector<tf::Output> averaged;
    std::vector<tf::Operation> other_towers_means;
    if (all_reduce == "gather") {
      tf::device_scope on_cpu("/cpu:0");
      averaged = tf::average_gradients(grads);
    } else {
      for (const auto& means : AllReduceMean(grads, all_reduce)) {
        averaged.push_back(means[0]);
        for (size_t i = 1; i < means.size(); ++i) {
          other_towers_means.push_back(means[i].op());
        }
      }
    }
    tf::device_scope on_cpu("/cpu:0");
    tf::train::Optimizer::GradsAndVars grads_and_vars;
    const auto vars = tf::trainable_variables();
    for (size_t v = 0; v < vars.size(); ++v) {
      grads_and_vars.emplace_back(averaged[v], vars[v]);
    }
    p.train_op = tf::train::GradientDescentOptimizer(0.5 * num_gpus)
                     .apply_gradients(grads_and_vars);
    if (!other_towers_means.empty()) {
      other_towers_means.push_back(p.train_op);
      p.train_op = tf::group(other_towers_means, "train");
    }
  }
  tf::name_scope scope("test");
  p.test.emplace(/*is_training=*/false);
  return p;
}

// A batch of kBatch rows for step `step` of tower `tower`: x and one-hot y.
std::pair<tf::Tensor, tf::Tensor> Batch(int step, int tower) {
  std::mt19937 gen(100 * step + tower);
  std::uniform_real_distribution<float> value(-1.f, 1.f);
  std::vector<float> xs(kBatch * kIn), ys(kBatch * kClasses, 0.f);
  for (int64_t r = 0; r < kBatch; ++r) {
    const int64_t label = gen() % kClasses;
    ys[r * kClasses + label] = 1.f;
    for (int64_t j = 0; j < kIn; ++j) {
      xs[r * kIn + j] = value(gen) + (j % kClasses == label ? 1.f : 0.f);
    }
  }
  return {tf::Tensor::FromVector<float>(xs, {kBatch, kIn}).value(),
          tf::Tensor::FromVector<float>(ys, {kBatch, kClasses}).value()};
}

// What training gives: the towers' losses at every step, the variables
// after the last, and the test model's loss and predictions.
struct Results {
  std::vector<float> losses;
  std::vector<tf::Tensor> variables;
  float test_loss = 0;
  tf::Tensor predictions;
};

// The session's GPUs are the platform's, their memory the CPU may not
// read, and each of them computed: the run cannot pass on the CPU alone.
void ExpectGpusDidTheWork(tf::Session& sess, int num_gpus) {
  auto* session = dynamic_cast<tf::DirectSession*>(sess.core());
  ASSERT_NE(session, nullptr);
  int gpus = 0;
  for (tf::Device* device : session->device_mgr().ListDevices()) {
    if (device->device_type() != "GPU") continue;
    ++gpus;
    EXPECT_FALSE(device->allocator()->HostAccessible()) << device->name();
    // More than the feeds: the towers' activations and gradients.
    EXPECT_GT(device->GetAllocatorStats().num_allocs, 100) << device->name();
  }
  EXPECT_EQ(gpus, num_gpus);
}

// Trains the program for a few steps on `num_gpus` GPUs: those of the
// installed platform when `device_memory`, else chapter 4's virtual GPUs.
Results Train(int num_gpus, const std::string& all_reduce, bool device_memory) {
  gpu::testing::GpusWithDeviceMemory platform(num_gpus);
  std::unique_ptr<gpu::testing::ScopedGpuPlatform> use_platform;
  if (device_memory) {
    use_platform = std::make_unique<gpu::testing::ScopedGpuPlatform>(&platform);
  }
  tf::reset_default_graph();
  tf::set_random_seed(1);
  Program p = Build(num_gpus, all_reduce);
  tf::Session sess(tf::ConfigProto{
      .allow_soft_placement = true,
      .gpu_options = {.virtual_gpus = device_memory ? 0 : num_gpus}});
  sess.run(tf::global_variables_initializer());
  Results r;
  for (int step = 0; step < 4; ++step) {
    tf::FeedDict feeds;
    std::vector<tf::Fetch> fetches;
    for (int i = 0; i < num_gpus; ++i) {
      auto [x, y] = Batch(step, i);
      feeds.emplace_back(p.towers[i].x, x);
      feeds.emplace_back(p.towers[i].y, y);
      fetches.push_back(p.towers[i].loss);
      fetches.push_back(p.towers[i].merge_summary);
    }
    fetches.push_back(p.train_op);
    auto out = sess.run(fetches, feeds);
    for (int i = 0; i < num_gpus; ++i) {
      r.losses.push_back(out[2 * i].scalar<float>());
    }
  }
  for (const tf::Variable& v : tf::trainable_variables()) {
    r.variables.push_back(sess.run(v.value()));
  }
  if (device_memory) ExpectGpusDidTheWork(sess, num_gpus);
  auto [x, y] = Batch(99, 0);
  auto test = sess.run({p.test->loss, p.test->predict},
                       {{p.test->x, x}, {p.test->y, y}});
  r.test_loss = test[0].scalar<float>();
  r.predictions = test[1];
  return r;
}

// The GPU's sums add in another order than the CPU's: a few units in the
// last place of values of order 1, far below what a step moves them by.
void ExpectCpuResults(const Results& gpu, const Results& cpu) {
  ASSERT_EQ(gpu.losses.size(), cpu.losses.size());
  for (size_t i = 0; i < cpu.losses.size(); ++i) {
    EXPECT_NEAR(gpu.losses[i], cpu.losses[i], 1e-5) << "loss " << i;
  }
  EXPECT_LT(cpu.losses.back(), cpu.losses.front());
  ASSERT_EQ(gpu.variables.size(), cpu.variables.size());
  for (size_t v = 0; v < cpu.variables.size(); ++v) {
    ASSERT_EQ(gpu.variables[v].shape(), cpu.variables[v].shape());
    for (int64_t i = 0; i < cpu.variables[v].NumElements(); ++i) {
      EXPECT_NEAR(gpu.variables[v].data<float>()[i],
                  cpu.variables[v].data<float>()[i], 1e-5)
          << "variable " << v << " element " << i;
    }
  }
  EXPECT_NEAR(gpu.test_loss, cpu.test_loss, 1e-5);
  ASSERT_EQ(gpu.predictions.NumElements(), cpu.predictions.NumElements());
  for (int64_t i = 0; i < cpu.predictions.NumElements(); ++i) {
    EXPECT_EQ(gpu.predictions.data<int64_t>()[i],
              cpu.predictions.data<int64_t>()[i]);
  }
}

class TowersOnDeviceMemoryTest : public ::testing::TestWithParam<const char*> {
};

TEST_P(TowersOnDeviceMemoryTest, SeedTowerProgramTrainsAsOnTheCpu) {
  const std::string how = GetParam();
  ExpectCpuResults(Train(3, how, /*device_memory=*/true),
                   Train(3, how, /*device_memory=*/false));
}

INSTANTIATE_TEST_SUITE_P(EveryAllReduce, TowersOnDeviceMemoryTest,
                         ::testing::Values("gather", "ring", "nccl"));

}  // namespace
}  // namespace minitf
