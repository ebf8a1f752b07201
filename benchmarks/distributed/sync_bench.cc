// Synchronous training on 1 worker and on 2, and what its barrier costs.
//
// A model whose step is compute-bound: an MLP, x [batch, 784] -> relu(x W1 +
// b1) [batch, hidden] -> softmax(h W2 + b2) [batch, 10], its variables on one
// ps task, its data a constant on each worker (so a step feeds nothing and
// moves only the variables and their gradients). Four configurations, each
// in a child process of its own (a ps and the workers as in-process servers
// on loopback, one client thread per worker):
//   async 1   1 worker, GradientDescentOptimizer.minimize;
//   sync 1    1 worker, SyncReplicasOptimizer(1 of 1);
//   async 2   2 workers, as async 1;
//   sync 2    2 workers, SyncReplicasOptimizer(2 of 2).
// Every server has one intra-op thread, so each worker's GEMMs take one core
// and 2 workers can use 2. A configuration's examples/s counts the examples
// whose gradients were applied after a few warm-up steps: in sync runs, the
// global steps times replicas_to_aggregate times batch. The ratio sync 2 /
// sync 1 is the speed-up of the second worker; sync 1's step time less
// async 1's is the token barrier's cost per step (the worker waits while the
// chief's update runs and its token comes back).
//
// The tables are printed, and written to $MINITF_RESULTS_DIR/sync_bench.md
// when that is set (benchmarks/tensor/results.h): chapter 7 includes them.
//
//   sync_bench [--steps=20] [--batch=1024] [--hidden=1024] [--runs=1]
#include <minitf/minitf.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "distributed_testing.h"
#include "results.h"

namespace tf = minitf;

namespace {

using Clock = std::chrono::steady_clock;

struct Config {
  bool sync = false;
  // No cluster: each "worker" a session of its own in this process, the
  // same model with plain gradient descent, nothing crossing a socket.
  bool local = false;
  int workers = 1;
  int steps = 20;  // global steps (sync) or local steps per worker (async)
  int warmup = 5;
  int batch = 1024;
  int hidden = 1024;
};

constexpr int kInputs = 784;
constexpr int kClasses = 10;

// One worker's graph, built as each worker process of seed 003 builds its
// own: variables on the ps, the step on "/job:worker/task:<task>".
struct WorkerGraph {
  WorkerGraph(const Config& config, int task) {
    tf::graph_scope use(graph);
    tf::Variable W1, b1, W2, b2;
    {
      tf::device_scope on(config.local ? "" : "/job:ps/task:0");
      W1 = tf::Variable(
          tf::truncated_normal({kInputs, config.hidden}, 0.0, 0.05), "W1");
      b1 = tf::Variable(tf::zeros({config.hidden}), "b1");
      W2 = tf::Variable(
          tf::truncated_normal({config.hidden, kClasses}, 0.0, 0.05), "W2");
      b2 = tf::Variable(tf::zeros({kClasses}), "b2");
      global_step = tf::Variable(tf::Tensor(int64_t{0}), "global_step",
                                 /*trainable=*/false);
    }
    tf::device_scope on(
        config.local ? "" : "/job:worker/task:" + std::to_string(task));
    // The data: a constant of the worker's, sent once when the graph is
    // registered, so that a step's only transfers are the model's.
    tf::Tensor images(tf::float32, {config.batch, kInputs});
    tf::Tensor labels(tf::float32, {config.batch, kClasses});
    std::mt19937 random(task);
    std::uniform_real_distribution<float> pixel(0.f, 1.f);
    auto x = images.flat<float>();
    for (int64_t i = 0; i < x.size(); ++i) x(i) = pixel(random);
    auto y = labels.flat<float>();
    for (int64_t i = 0; i < y.size(); ++i) {
      y(i) = (i % kClasses) == (i / kClasses) % kClasses ? 1.f : 0.f;
    }
    auto h = tf::nn::relu(tf::matmul(tf::constant(images), W1) + b1);
    auto p = tf::nn::softmax(tf::matmul(h, W2) + b2);
    auto loss = tf::reduce_mean(-tf::reduce_sum(
        tf::constant(labels) * tf::log(p + tf::constant(1e-6f)), {1}));
    if (config.sync) {
      sync_opt = std::make_unique<tf::train::SyncReplicasOptimizer>(
          gd, config.workers, config.workers, "bench_sync");
      train_op = sync_opt->minimize(loss, &global_step);
      hook = sync_opt->make_session_run_hook(/*is_chief=*/task == 0);
      hook->begin();
    } else {
      train_op = gd.minimize(loss, &global_step);
    }
    init = tf::global_variables_initializer();
  }
  tf::Graph graph;
  tf::train::GradientDescentOptimizer gd{0.01f};
  tf::Variable global_step;
  std::unique_ptr<tf::train::SyncReplicasOptimizer> sync_opt;
  std::unique_ptr<tf::train::SessionRunHook> hook;
  tf::Operation train_op;
  tf::Operation init;
};

// What one configuration measured.
struct Result {
  double examples_per_second = 0;
  double step_ms = 0;  // a worker's step, on average
};

// Trains one configuration in this process and returns its figures.
Result RunConfig(const Config& config) {
  const tf::ConfigProto one_thread{.intra_op_parallelism_threads = 1};
  std::vector<std::unique_ptr<WorkerGraph>> graphs;
  std::vector<std::unique_ptr<tf::Session>> sessions;
  if (config.local) {
    for (int i = 0; i < config.workers; ++i) {
      graphs.push_back(std::make_unique<WorkerGraph>(config, i));
      sessions.push_back(std::make_unique<tf::Session>(
          tf::SessionOptions{.config = one_thread}, &graphs.back()->graph));
      sessions.back()->run(graphs.back()->init);
    }
  }
  std::vector<std::string> worker_hosts;
  for (int i = 0; i < config.workers; ++i) {
    worker_hosts.push_back("localhost:" +
                           std::to_string(minitf::testing::FreePort()));
  }
  tf::train::ClusterSpec cluster(
      {{"ps", {"localhost:" + std::to_string(minitf::testing::FreePort())}},
       {"worker", worker_hosts}});
  // The servers' start-up lines, kept out of the child's output.
  std::ostringstream log;
  const tf::train::ServerOptions quiet{.log_stream = &log};
  std::vector<std::unique_ptr<tf::train::Server>> servers;
  if (!config.local) {
    servers.push_back(std::make_unique<tf::train::Server>(cluster, "ps", 0,
                                                          one_thread, quiet));
  }
  for (int i = 0; i < config.workers && !config.local; ++i) {
    servers.push_back(std::make_unique<tf::train::Server>(cluster, "worker", i,
                                                          one_thread, quiet));
    graphs.push_back(std::make_unique<WorkerGraph>(config, i));
    sessions.push_back(std::make_unique<tf::Session>(
        tf::SessionOptions{.target = servers.back()->target()},
        &graphs.back()->graph));
  }
  // The chief initializes before the others start; each hook then readies
  // its session (the chief's puts the first tokens in the queue and starts
  // the update thread on `coord`).
  if (!config.local) sessions[0]->run(graphs[0]->init);
  tf::train::Coordinator coord;
  for (int i = 0; i < config.workers; ++i) {
    if (graphs[i]->hook) {
      graphs[i]->hook->after_create_session(sessions[i].get(), &coord);
    }
  }

  Clock::time_point start, end;
  int64_t first_step = -1, last_step = 0;
  auto work = [&](int task) {
    tf::Session& sess = *sessions[task];
    WorkerGraph& g = *graphs[task];
    if (!config.sync) {
      // Each worker's own steps; the clock runs from the chief's first step
      // after its warm-up to the last worker's last step.
      for (int s = 0; s < config.warmup; ++s) sess.run(g.train_op);
      if (task == 0) start = Clock::now();
      for (int s = 0; s < config.steps; ++s) sess.run(g.train_op);
      return;
    }
    // Synchronous: the train_op's output is the token, the global step the
    // update it waited for left. The chief times from the warm-up's last
    // global step to the last one.
    try {
      while (true) {
        const int64_t token = sess.run(g.train_op.output(0)).scalar<int64_t>();
        if (task == 0 && first_step < 0 && token >= config.warmup) {
          start = Clock::now();
          first_step = token;
        }
        if (token >= config.warmup + config.steps) {
          if (task == 0) last_step = token;
          break;
        }
      }
    } catch (const tf::errors::OpError&) {
      // The chief stopped and closed the token queue while this worker
      // waited for a token of a step that will not come.
    }
  };
  std::vector<std::thread> threads;
  for (int i = 0; i < config.workers; ++i) threads.emplace_back(work, i);
  if (config.sync) {
    threads[0].join();
    end = Clock::now();
    coord.request_stop();  // closes the token queue: releases the others
    for (int i = 1; i < config.workers; ++i) threads[i].join();
    // The chief's update thread waits for gradients that will not come:
    // closing the session cancels its step, as seed_distributed does.
    sessions[0]->close();
    coord.join(std::chrono::seconds(1), /*ignore_live_threads=*/true);
  } else {
    for (auto& t : threads) t.join();
    end = Clock::now();
  }
  const double seconds = std::chrono::duration<double>(end - start).count();
  Result result;
  if (config.sync) {
    result.examples_per_second = static_cast<double>(last_step - first_step) *
                                 config.workers * config.batch / seconds;
    // A worker's step lasts as long as a global step.
    result.step_ms =
        seconds * 1e3 / static_cast<double>(last_step - first_step);
  } else {
    result.examples_per_second = static_cast<double>(config.steps) *
                                 config.workers * config.batch / seconds;
    result.step_ms = seconds * 1e3 / config.steps;
  }
  return result;
}

// Runs one configuration in a child process (this program with --child):
// each cluster starts from a fresh process, and the chief's update thread,
// still waiting on the ps for gradients that will not come, ends with it.
Result RunChild(const Config& config) {
  const std::string command = "/proc/" + std::to_string(getpid()) +
                              "/exe --child" +
                              " --sync=" + std::to_string(config.sync) +
                              " --local=" + std::to_string(config.local) +
                              " --workers=" + std::to_string(config.workers) +
                              " --steps=" + std::to_string(config.steps) +
                              " --batch=" + std::to_string(config.batch) +
                              " --hidden=" + std::to_string(config.hidden);
  FILE* child = popen(command.c_str(), "r");
  Result result;
  if (child == nullptr ||
      std::fscanf(child, "%lf %lf", &result.examples_per_second,
                  &result.step_ms) != 2 ||
      pclose(child) != 0) {
    std::fprintf(stderr, "sync_bench: the run of `%s` failed\n",
                 command.c_str());
    std::exit(1);
  }
  return result;
}

}  // namespace

int main(int argc, char** argv) {
  Config config;
  bool child = false;
  int runs = 1;
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    auto value = [&](const char* name) -> const char* {
      const size_t n = std::strlen(name);
      return std::strncmp(arg, name, n) == 0 ? arg + n : nullptr;
    };
    if (std::strcmp(arg, "--child") == 0) child = true;
    if (const char* v = value("--sync=")) config.sync = std::atoi(v) != 0;
    if (const char* v = value("--local=")) config.local = std::atoi(v) != 0;
    if (const char* v = value("--workers=")) config.workers = std::atoi(v);
    if (const char* v = value("--steps=")) config.steps = std::atoi(v);
    if (const char* v = value("--batch=")) config.batch = std::atoi(v);
    if (const char* v = value("--hidden=")) config.hidden = std::atoi(v);
    if (const char* v = value("--runs=")) runs = std::atoi(v);
  }
  if (child) {
    const Result r = RunConfig(config);
    std::printf("%.1f %.3f\n", r.examples_per_second, r.step_ms);
    std::fflush(stdout);
    // Skips the servers' teardown under the update thread that still waits.
    std::_Exit(0);
  }

  tf::bench::Results results("sync_bench", argc, argv);
  const std::string model = "MLP 784-" + std::to_string(config.hidden) +
                            "-10, batches of " + std::to_string(config.batch) +
                            " per worker, " + std::to_string(config.steps) +
                            " timed global steps";
  results.Table("Examples/s (ms per global step): " + model,
                {"run", "workers", "plain local sessions", "async", "sync",
                 "sync − async, ms"});
  std::vector<std::vector<std::string>> speedups;
  for (int run = 1; run <= runs; ++run) {
    Result r[2][3];  // [workers - 1][local, async, sync]
    for (int workers : {1, 2}) {
      for (int kind : {0, 1, 2}) {
        Config c = config;
        c.workers = workers;
        c.local = kind == 0;
        c.sync = kind == 2;
        r[workers - 1][kind] = RunChild(c);
      }
    }
    for (int w : {0, 1}) {
      std::vector<std::string> row = {std::to_string(run),
                                      std::to_string(w + 1)};
      for (const Result& x : r[w]) {
        row.push_back(tf::bench::Fixed(x.examples_per_second, 0) + " (" +
                      tf::bench::Fixed(x.step_ms, 1) + ")");
      }
      row.push_back(tf::bench::Fixed(r[w][2].step_ms - r[w][1].step_ms, 1));
      results.Row(row);
    }
    std::vector<std::string> speedup = {std::to_string(run)};
    for (int k : {0, 1, 2}) {
      speedup.push_back(tf::bench::Fixed(
          r[1][k].examples_per_second / r[0][k].examples_per_second, 2));
    }
    speedups.push_back(speedup);
  }
  results.Note(
      "Each configuration in a fresh process: a ps and the workers as "
      "in-process servers on loopback, one intra-op thread each. Plain "
      "local sessions: the same model in one local session per worker, "
      "each on a thread of its own, no cluster. In sync runs a global step "
      "averages one batch per worker.");
  results.Table("What the second worker adds (examples/s, 2 workers / 1)",
                {"run", "plain local sessions", "async", "sync"});
  for (auto& row : speedups) results.Row(row);
  return results.Finish();
}
