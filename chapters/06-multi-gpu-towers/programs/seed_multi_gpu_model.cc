// Seed 004, "Building multi-GPU code", line by line: a single-GPU model
// built once per GPU as a tower, multi_gpu_model(num_gpus) putting the
// towers' objects into collections, the gradients averaged and applied on
// the CPU, each tower fed its own batch, run_epoch for the train and the
// test scope, and a main with a Saver and a FileWriter.
//
// The seed leaves its model out ("see the earlier post"); here it is
// chapter 3's MLP (784-256-10, ReLU) on Fashion-MNIST, its variables made
// with get_variable in the variable scope "model" with AUTO_REUSE, so every
// tower, and the test model, computes with one set of them, kept on
// /cpu:0. As the seed says, the model builds no optimizer: the towers'
// gradients are averaged first (average_gradients, the seed's first
// version) and one GradientDescentOptimizer applies them.
//
// The GPUs are virtual (ConfigProto gpu_options.virtual_gpus), so the
// program runs anywhere; a tower's batch is --batch_size, so a step trains
// on num_gpus x batch_size examples. It prints each epoch's mean training
// loss, the test loss and accuracy, and the training time.
//
// --all_reduce chooses how the towers' gradients meet: "gather" (the seed:
// average_gradients on the CPU), "ring" (a ring all-reduce over the GPUs)
// or "nccl" (NCCL's all-reduce; a host sum on virtual GPUs). After training
// the program runs one more step and prints the bytes it moved between the
// devices beside the model's figures.
//
// --add_n runs seed 001's multi-tower snippet through the same tower loop
// instead: a MatMul on /gpu:2 and one on /gpu:3, summed by add_n on the CPU.
//
// Usage: seed_multi_gpu_model [--num_gpus N] [--epochs E] [--batch_size B]
//          [--learning_rate R] [--steps S] [--logdir DIR]
//          [--all_reduce gather|ring|nccl] [--add_n]
//   --num_gpus 1 to 16 (default 2; 4 with --add_n); --epochs (default 20);
//   --batch_size per tower (default 100); --learning_rate (default 0.1 x
//   num_gpus: a step of N towers trains on N times the examples, so it may
//   go N times as far, and an epoch has N times fewer steps);
//   --steps: at most S training steps per epoch (default: the whole epoch).
#include <minitf/minitf.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

namespace tf = minitf;

namespace {

struct Config {
  int num_gpus = 2;
  int epochs = 20;
  int64_t batch_size = 100;
  // 0: 0.1 per tower, 0.1 x num_gpus (the linear scaling rule).
  double learning_rate = 0;
  int64_t max_steps = 0;  // 0: whole epochs
  int64_t hidden_size = 256;
  std::string logdir =
      (std::filesystem::temp_directory_path() / "minitf-seed-004").string();
  bool add_n = false;
  // How the towers' gradients meet: "gather" (the seed's average_gradients
  // on the CPU), "ring" (ring_all_reduce over the GPUs) or "nccl"
  // (nccl_all_sum on the GPUs).
  std::string all_reduce = "gather";
};

// --8<-- [start:model]
// The single-GPU model (the seed's step 1): chapter 3's MLP, with no
// optimizer. Built inside a tower's device and name scopes; its variables
// go to /cpu:0, shared through the variable scope "model".
class Model {
 public:
  Model(bool is_training, const Config& config, const std::string& scope)
      : scope_(scope) {
    x = tf::placeholder(tf::float32, {tf::None, 784}, "x");
    y = tf::placeholder(tf::float32, {tf::None, 10}, "y");
    std::vector<tf::Variable> vars;
    {
      tf::device_scope on_cpu("/cpu:0");
      tf::variable_scope model("model", tf::AUTO_REUSE);
      vars = {
          tf::get_variable("W1", {784, config.hidden_size},
                           tf::truncated_normal_initializer(0.0, 0.05)),
          tf::get_variable("b1", {config.hidden_size}, tf::zeros_initializer()),
          tf::get_variable("W2", {config.hidden_size, 10},
                           tf::truncated_normal_initializer(0.0, 0.05)),
          tf::get_variable("b2", {10}, tf::zeros_initializer())};
    }
    auto hidden = tf::nn::relu(tf::matmul(x, vars[0]) + vars[1]);
    auto logits = tf::matmul(hidden, vars[2]) + vars[3];
    loss =
        tf::reduce_mean(tf::nn::softmax_cross_entropy_with_logits(y, logits));
    predict = tf::argmax(logits, 1);
    if (is_training) {
      // grad is found with tf.gradients(loss, vars), as the seed says.
      std::vector<tf::Output> xs;
      for (const tf::Variable& v : vars) xs.push_back(v.value());
      grad = tf::gradients({loss}, xs);
    }
    merge_summary = tf::summary::merge({tf::summary::scalar("loss", loss)});
  }

  // What collections filter by scope: the name scope the model was built in.
  const std::string& name() const { return scope_; }

  tf::Output x, y;  // x:[batch,784] y:[batch,10] one-hot
  tf::Output loss, predict, merge_summary;
  std::vector<tf::Output> grad;  // one per variable: W1, b1, W2, b2

 private:
  std::string scope_;
};
// --8<-- [end:model]

// --8<-- [start:all_reduce_mean]
// Per variable, the towers' gradients all-reduced over their GPUs by a ring
// or by NCCL, and divided by the number of towers: means[v][i] is variable
// v's mean on GPU i.
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
// --8<-- [end:all_reduce_mean]

// --8<-- [start:multi_gpu_model]
tf::Operation multi_gpu_model(int num_gpus, const Config& config) {
  std::vector<std::vector<tf::Output>> grads;
  for (int i = 0; i < num_gpus; ++i) {
    tf::device_scope on_gpu("/gpu:" + std::to_string(i));
    tf::name_scope tower("tower_" + std::to_string(i));
    Model model(/*is_training=*/true, config, tower.name());
    // Into a collection, to find the towers when feeding.
    tf::add_to_collection("train_model", model);
    grads.push_back(model.grad);
    tf::add_to_collection("loss", model.loss);
    tf::add_to_collection("predict", model.predict);
    tf::add_to_collection("merge_summary", model.merge_summary);
  }
  std::vector<tf::Output> averaged_gradients;
  std::vector<tf::Operation> other_towers_means;
  if (config.all_reduce == "gather") {
    tf::device_scope on_cpu("/cpu:0");
    averaged_gradients = tf::average_gradients(grads);
  } else {
    // Every tower gets the mean, as an all-reduce delivers it. The update
    // on the CPU reads tower 0's; the train op also waits for the others'
    // (a tower with its own copy of the variables would apply its own).
    for (const auto& means : AllReduceMean(grads, config.all_reduce)) {
      averaged_gradients.push_back(means[0]);
      for (size_t i = 1; i < means.size(); ++i) {
        other_towers_means.push_back(means[i].op());
      }
    }
  }
  tf::device_scope on_cpu("/cpu:0");
  tf::train::GradientDescentOptimizer opt(config.learning_rate);
  tf::train::Optimizer::GradsAndVars grads_and_vars;
  const auto vars = tf::trainable_variables();
  for (size_t v = 0; v < vars.size(); ++v) {
    grads_and_vars.emplace_back(averaged_gradients[v], vars[v]);
  }
  auto train_op = opt.apply_gradients(grads_and_vars);
  if (!other_towers_means.empty()) {
    other_towers_means.push_back(train_op);
    train_op = tf::group(other_towers_means, "train");
  }
  return train_op;
}
// --8<-- [end:multi_gpu_model]

// The seed's BatchGenerator: the next batch of a data set, shuffled once
// an epoch for training, in order for testing.
class BatchGenerator {
 public:
  BatchGenerator(tf::datasets::mnist::DataSet& data_set, int64_t batch_size,
                 bool shuffle)
      : data_set_(data_set), batch_size_(batch_size), shuffle_(shuffle) {}
  tf::datasets::mnist::Batch next_batch() {
    return data_set_.next_batch(batch_size_, shuffle_);
  }
  int64_t batch_size() const { return batch_size_; }

 private:
  tf::datasets::mnist::DataSet& data_set_;
  int64_t batch_size_;
  bool shuffle_;
};

// --8<-- [start:feed]
void generate_feed_dic(const Model& model, tf::FeedDict& feed_dict,
                       BatchGenerator& batch_generator) {
  auto [x, y] = batch_generator.next_batch();
  feed_dict.emplace_back(model.x, x);
  feed_dict.emplace_back(model.y, y);
}
// --8<-- [end:feed]

struct EpochResult {
  double loss = 0;      // the mean of the fetched losses
  double accuracy = 0;  // test only
  double seconds = 0;
};

// --8<-- [start:run_epoch]
// The scope tells train from test: only its losses are fetched.
EpochResult run_epoch(tf::Session& session,
                      tf::datasets::mnist::DataSet& data_set,
                      const std::string& scope, const Config& config,
                      tf::summary::FileWriter& writer, int64_t& global_step,
                      const tf::Operation* train_op = nullptr,
                      bool is_training = true) {
  const auto start = std::chrono::steady_clock::now();
  const auto models = tf::get_collection<Model>(
      is_training ? "train_model" : "test_model", scope);
  BatchGenerator batch_generator(data_set, config.batch_size, is_training);
  // Whole steps of every tower's batch; none when the scope has no model.
  int64_t steps = models.empty() ? 0
                                 : data_set.num_examples() /
                                       (batch_generator.batch_size() *
                                        static_cast<int64_t>(models.size()));
  if (is_training && config.max_steps > 0) {
    steps = std::min(steps, config.max_steps);
  }
  // Fetches the losses of this scope only: a test run never fetches the
  // towers' losses, nor training the test model's.
  const auto losses = tf::get_collection<tf::Output>("loss", scope);
  const auto predicts = tf::get_collection<tf::Output>("predict", scope);
  const auto summaries = tf::get_collection<tf::Output>("merge_summary", scope);
  EpochResult result;
  int64_t correct = 0, seen = 0;
  for (int64_t step = 0; step < steps; ++step) {
    tf::FeedDict feed_dic;
    std::vector<tf::Tensor> labels;
    for (const Model& model : models) {
      generate_feed_dic(model, feed_dic, batch_generator);
      labels.push_back(feed_dic.back().second);
    }
    std::vector<tf::Fetch> fetches(losses.begin(), losses.end());
    if (is_training && train_op != nullptr) {
      const bool summarize = global_step % 100 == 0;
      if (summarize) {
        fetches.insert(fetches.end(), summaries.begin(), summaries.end());
      }
      fetches.push_back(*train_op);
      auto r = session.run(fetches, feed_dic);
      for (size_t i = 0; i < losses.size(); ++i) {
        result.loss += r[i].scalar<float>() / losses.size();
      }
      if (summarize) {
        for (size_t i = 0; i < summaries.size(); ++i) {
          writer.add_summary(r[losses.size() + i], global_step);
        }
      }
      ++global_step;
    } else {
      fetches.insert(fetches.end(), predicts.begin(), predicts.end());
      auto r = session.run(fetches, feed_dic);
      for (size_t i = 0; i < losses.size(); ++i) {
        result.loss += r[i].scalar<float>() / losses.size();
        const tf::Tensor& predict = r[losses.size() + i];
        const tf::Tensor& y = labels[i];
        for (int64_t row = 0; row < predict.NumElements(); ++row) {
          const float* one_hot = y.data<float>() + row * 10;
          correct += predict.data<int64_t>()[row] ==
                     std::max_element(one_hot, one_hot + 10) - one_hot;
        }
        seen += predict.NumElements();
      }
    }
  }
  result.loss /= std::max<int64_t>(steps, 1);
  result.accuracy = seen > 0 ? static_cast<double>(correct) / seen : 0;
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return result;
}
// --8<-- [end:run_epoch]

// --8<-- [start:step_bytes]
// One more training step, alone, and the bytes it moved between devices,
// from the session's transfer statistics, beside the model's figures: the
// variables (K bytes) go to every tower and the feeds to their tower; the
// gradients come back to the CPU (gather: K from each GPU), or go round the
// ring (RingBytesSent from each GPU to the next, then K from GPU:0 to the
// CPU), or meet inside NCCL (no Send/Recv between the GPUs; K from GPU:0).
void ReportStepBytes(tf::Session& sess, const tf::Operation& train_op,
                     tf::datasets::mnist::DataSet& data_set,
                     const Config& config) {
  auto* session = dynamic_cast<tf::DirectSession*>(sess.core());
  if (session == nullptr) return;
  const auto models = tf::get_collection<Model>("train_model");
  const int n = static_cast<int>(models.size());
  BatchGenerator batch_generator(data_set, config.batch_size, false);
  tf::FeedDict feed_dic;
  for (const Model& model : models) {
    generate_feed_dic(model, feed_dic, batch_generator);
  }
  const tf::TransferTable before = session->GetTransferStats();
  sess.run(train_op, feed_dic);
  std::map<std::pair<std::string, std::string>, int64_t> moved;
  for (const auto& [route, record] : session->GetTransferStats()) {
    auto short_name = [](const std::string& d) {
      return d.substr(d.rfind("device:") + 7);
    };
    auto it = before.find(route);
    const int64_t bytes = record.bytes_copied -
                          (it == before.end() ? 0 : it->second.bytes_copied);
    if (bytes > 0)
      moved[{short_name(route.first), short_name(route.second)}] += bytes;
  }
  int64_t k = 0;  // the bytes of the variables, and of their gradients
  std::vector<int64_t> sizes;
  for (const tf::Variable& v : tf::trainable_variables()) {
    sizes.push_back(v.shape().num_elements());
    k += 4 * sizes.back();
  }
  const int64_t feeds = 4 * config.batch_size * (784 + 10);
  std::printf("bytes moved in one step (%s, %d towers, K = %lld bytes):\n",
              config.all_reduce.c_str(), n, static_cast<long long>(k));
  auto line = [&](const std::string& from, const std::string& to,
                  int64_t model) {
    const int64_t bytes = moved[{from, to}];
    std::printf("  %s -> %s %10lld, the model's %10lld: %s\n", from.c_str(),
                to.c_str(), static_cast<long long>(bytes),
                static_cast<long long>(model),
                bytes == model ? "as modelled" : "NOT as modelled");
  };
  for (int i = 0; i < n; ++i) {
    const std::string gpu = "GPU:" + std::to_string(i);
    line("CPU:0", gpu, k + feeds);
    line(gpu, "CPU:0", config.all_reduce == "gather" || i == 0 ? k : 0);
    if (config.all_reduce == "gather" || n < 2) continue;
    int64_t ring = 0;
    if (config.all_reduce == "ring") {
      for (int64_t size : sizes) ring += tf::RingBytesSent(size, 4, n, i);
    }
    line(gpu, "GPU:" + std::to_string((i + 1) % n), ring);
  }
}
// --8<-- [end:step_bytes]

// Seed 001's "Using multiple GPUs" through the tower loop: the devices it
// names, each under its tower's name scope.
void RunSeed001(int num_gpus) {
  // --8<-- [start:add_n]
  std::vector<tf::Output> c;
  const std::vector<std::string> devices = {"/gpu:2", "/gpu:3"};
  for (size_t i = 0; i < devices.size(); ++i) {
    tf::device_scope on_gpu(devices[i]);
    tf::name_scope tower("tower_" + std::to_string(i));
    auto a = tf::constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3});
    auto b = tf::constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {3, 2});
    c.push_back(tf::matmul(a, b));
  }
  tf::Output sum;
  {
    tf::device_scope on_cpu("/cpu:0");
    sum = tf::add_n(c);
  }
  tf::Session sess(tf::ConfigProto{.log_device_placement = true,
                                   .gpu_options = {.virtual_gpus = num_gpus}});
  std::cout << sess.run(sum) << "\n";
  // --8<-- [end:add_n]
}

// Parses the flags; false (after a message) for anything else.
bool ParseFlags(int argc, char** argv, Config& config) {
  bool gpus_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--add_n") {
      config.add_n = true;
      continue;
    }
    if (i + 1 >= argc) {
      std::fprintf(stderr, "seed_multi_gpu_model: %s needs a value\n",
                   flag.c_str());
      return false;
    }
    const char* value = argv[++i];
    char* end = nullptr;
    if (flag == "--all_reduce") {
      config.all_reduce = value;
      if (config.all_reduce == "gather" || config.all_reduce == "ring" ||
          config.all_reduce == "nccl") {
        continue;
      }
      std::fprintf(stderr,
                   "seed_multi_gpu_model: --all_reduce must be gather, ring "
                   "or nccl, not %s\n",
                   value);
      return false;
    }
    if (flag == "--logdir") {
      config.logdir = value;
      continue;
    }
    if (flag == "--learning_rate") {
      config.learning_rate = std::strtod(value, &end);
      if (*end != '\0' || !(config.learning_rate > 0)) {
        std::fprintf(stderr,
                     "seed_multi_gpu_model: --learning_rate must be a "
                     "positive number, got '%s'\n",
                     value);
        return false;
      }
      continue;
    }
    const long long n = std::strtoll(value, &end, 10);
    const bool whole = end != value && *end == '\0';
    if (flag == "--num_gpus" && whole && n >= 1 && n <= 16) {
      config.num_gpus = static_cast<int>(n);
      gpus_given = true;
    } else if (flag == "--epochs" && whole && n >= 1 && n <= 1000) {
      config.epochs = static_cast<int>(n);
    } else if (flag == "--batch_size" && whole && n >= 1 && n <= 10000) {
      config.batch_size = n;
    } else if (flag == "--steps" && whole && n >= 1) {
      config.max_steps = n;
    } else {
      std::fprintf(stderr, "seed_multi_gpu_model: bad flag or value: %s %s\n",
                   flag.c_str(), value);
      return false;
    }
  }
  if (config.add_n && !gpus_given) config.num_gpus = 4;
  if (config.learning_rate == 0) config.learning_rate = 0.1 * config.num_gpus;
  return true;
}

}  // namespace

int main(int argc, char** argv) try {
  Config config;
  if (!ParseFlags(argc, argv, config)) {
    std::fputs(
        "usage: seed_multi_gpu_model [--num_gpus N] [--epochs E] "
        "[--batch_size B] [--learning_rate R] [--steps S] [--logdir DIR] "
        "[--all_reduce gather|ring|nccl] [--add_n]\n",
        stderr);
    return 2;
  }
  if (config.add_n) {
    RunSeed001(config.num_gpus);
    return 0;
  }

  // --8<-- [start:main]
  // 1. The data.
  auto mnist = tf::datasets::mnist::read_data_sets(
      tf::datasets::mnist::default_data_dir(), /*one_hot=*/true);
  tf::set_random_seed(1);
  // 2. The multi-GPU training model.
  tf::Operation train_op;
  std::string train_scope, test_scope;
  {
    tf::name_scope scope("train");
    train_scope = scope.name();
    train_op = multi_gpu_model(config.num_gpus, config);
  }
  // 3. The test model, on one device, sharing the towers' variables.
  {
    tf::name_scope scope("test");
    test_scope = scope.name();
    Model model(/*is_training=*/false, config, test_scope);
    tf::add_to_collection("test_model", model);
    tf::add_to_collection("loss", model.loss);
    tf::add_to_collection("predict", model.predict);
  }
  // 4. The Saver and, with the session, the FileWriter.
  tf::train::Saver saver;
  // 5. The session, with the GPUs the towers ask for. A tower's summary op
  // has no GPU kernel (TensorFlow's neither): soft placement puts it on the
  // CPU, as the cifar10 tutorial's session allows for the same reason.
  tf::Session sess(
      tf::ConfigProto{.allow_soft_placement = true,
                      .gpu_options = {.virtual_gpus = config.num_gpus}});
  std::filesystem::create_directories(config.logdir);
  tf::summary::FileWriter writer(config.logdir, sess.graph());
  sess.run(tf::global_variables_initializer());
  std::printf(
      "%d tower(s) on virtual GPUs, %lld examples each per step, learning "
      "rate %g\n",
      config.num_gpus, static_cast<long long>(config.batch_size),
      config.learning_rate);
  // 6. run_epoch, for training and for testing.
  int64_t global_step = 0;
  for (int epoch = 0; epoch < config.epochs; ++epoch) {
    auto train = run_epoch(sess, mnist.train, train_scope, config, writer,
                           global_step, &train_op);
    auto test = run_epoch(sess, mnist.test, test_scope, config, writer,
                          global_step, nullptr, /*is_training=*/false);
    std::printf(
        "Epoch: %04d train loss= %.4f test loss= %.4f accuracy= %.4f "
        "(%.1f s training)\n",
        epoch + 1, train.loss, test.loss, test.accuracy, train.seconds);
    saver.save(sess, config.logdir + "/model.ckpt", global_step);
  }
  // --8<-- [end:main]
  ReportStepBytes(sess, train_op, mnist.train, config);
  writer.close();
  std::printf("Saved %s\n", saver.last_checkpoints().back().c_str());
  return 0;
} catch (const tf::errors::OpError& e) {
  // A missing or damaged data file, or a device that does not exist, ends
  // the program with the error's name and text, as Python prints it.
  std::fprintf(stderr, "%s\n", e.status().ToString().c_str());
  return 1;
}
