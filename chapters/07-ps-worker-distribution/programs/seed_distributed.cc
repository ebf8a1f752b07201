// Seed 003's distributed half, line by line: one program, started once per
// task. A parameter server starts its server and joins; a worker starts its
// server, builds seed 002's softmax regression with the variables on the
// parameter servers and the model on itself, and trains asynchronously:
// each step pulls the variables, computes the gradients and applies them on
// the ps, with no waiting for the other workers. Worker 0, the chief,
// initializes the variables; the others wait for them. Every worker stops
// once global_step reaches --train_steps (the single-machine program's
// 1000 updates by default), and the chief prints the test accuracy.
//
//   seed_distributed --ps_hosts=localhost:2222
//       --worker_hosts=localhost:2223,localhost:2224
//       --job_name=worker --task_index=0 [--learning_rate=0.1]
//       [--train_steps=1000] [--batch_size=100] [--staleness_dir=DIR]
//       [--sync_replicas=true [--replicas_to_aggregate=2]
//        [--total_num_replicas=2]]
//
// With --sync_replicas the workers train synchronously, as the seed's
// `if FLAGS.sync_replicas:` branch does: SyncReplicasOptimizer averages
// --replicas_to_aggregate gradients into each update. The seed's 10 of 100
// replicas become 2 of 2 here (chapter 7 part 2, §3, says why).
//
// scripts/cluster.sh starts one ps and two workers this way, each logging
// to a file of its own.
//
// Each worker prints its examples per second and the cluster's (the global
// steps all workers made while it trained). With --staleness_dir, each step
// also fetches global_step as the step read the variables and as its own
// update left it; worker i writes the pairs to DIR/staleness_worker_<i>.txt,
// one step a line, and the difference less one is the step's staleness: the
// other workers' updates between its read and its write (draw_staleness
// draws their histogram).
//
// The seed puts weights_1 on /job:ps/task:0 and weights_2 on /job:ps/task:1;
// here W and b go there, and with one ps task both go to task 0 (the task
// index is taken modulo the number of ps tasks).
#include <minitf/minitf.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace tf = minitf;

namespace {

struct Flags {
  std::vector<std::string> ps_hosts;
  std::vector<std::string> worker_hosts;
  std::string job_name;
  int task_index = 0;
  float learning_rate = 0.1f;
  int64_t train_steps = 1000;
  int batch_size = 100;
  std::string staleness_dir;
  bool sync_replicas = false;
  int replicas_to_aggregate = 2;
  int total_num_replicas = 2;
};

std::vector<std::string> SplitHosts(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  for (std::string host; std::getline(in, host, ',');) {
    if (!host.empty()) out.push_back(host);
  }
  return out;
}

// --name=value flags; false (with a message) for anything else.
bool ParseFlags(int argc, char** argv, Flags* flags) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    if (!arg.starts_with("--") || eq == std::string::npos) {
      std::fprintf(stderr, "Not a --name=value flag: %s\n", arg.c_str());
      return false;
    }
    const std::string name = arg.substr(2, eq - 2);
    const std::string value = arg.substr(eq + 1);
    char* end = nullptr;
    if (name == "ps_hosts") {
      flags->ps_hosts = SplitHosts(value);
    } else if (name == "worker_hosts") {
      flags->worker_hosts = SplitHosts(value);
    } else if (name == "job_name") {
      flags->job_name = value;
    } else if (name == "task_index") {
      flags->task_index =
          static_cast<int>(std::strtol(value.c_str(), &end, 10));
    } else if (name == "learning_rate") {
      flags->learning_rate = std::strtof(value.c_str(), &end);
    } else if (name == "train_steps") {
      flags->train_steps = std::strtoll(value.c_str(), &end, 10);
    } else if (name == "batch_size") {
      flags->batch_size =
          static_cast<int>(std::strtol(value.c_str(), &end, 10));
    } else if (name == "staleness_dir") {
      flags->staleness_dir = value;
    } else if (name == "sync_replicas") {
      flags->sync_replicas = value == "true" || value == "1";
    } else if (name == "replicas_to_aggregate") {
      flags->replicas_to_aggregate =
          static_cast<int>(std::strtol(value.c_str(), &end, 10));
    } else if (name == "total_num_replicas") {
      flags->total_num_replicas =
          static_cast<int>(std::strtol(value.c_str(), &end, 10));
    } else {
      std::fprintf(stderr, "Unknown flag --%s\n", name.c_str());
      return false;
    }
    if (end != nullptr && (*end != '\0' || end == value.c_str())) {
      std::fprintf(stderr, "Bad value for --%s: '%s'\n", name.c_str(),
                   value.c_str());
      return false;
    }
  }
  if (flags->ps_hosts.empty() || flags->worker_hosts.empty() ||
      (flags->job_name != "ps" && flags->job_name != "worker")) {
    std::fprintf(stderr,
                 "Usage: seed_distributed --ps_hosts=h:p[,...] "
                 "--worker_hosts=h:p[,...] --job_name=ps|worker "
                 "--task_index=i\n");
    return false;
  }
  if (flags->sync_replicas && !flags->staleness_dir.empty()) {
    std::fprintf(stderr,
                 "--staleness_dir measures asynchronous training; it does not "
                 "go with --sync_replicas\n");
    return false;
  }
  return true;
}

// With --staleness_dir, worker i's file of the global steps each step read
// and left; otherwise a stream that is not open.
std::ofstream OpenStalenessLog(const Flags& flags) {
  std::ofstream out;
  if (flags.staleness_dir.empty()) return out;
  const std::string path = flags.staleness_dir + "/staleness_worker_" +
                           std::to_string(flags.task_index) + ".txt";
  out.open(path);
  if (!out) {
    std::fprintf(stderr, "Cannot write %s\n", path.c_str());
    std::exit(1);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) try {
  Flags FLAGS;
  if (!ParseFlags(argc, argv, &FLAGS)) return 2;

  // --8<-- [start:seed]
  tf::train::ClusterSpec cluster(
      {{"ps", FLAGS.ps_hosts}, {"worker", FLAGS.worker_hosts}});
  tf::train::Server server(cluster, FLAGS.job_name, FLAGS.task_index);
  if (FLAGS.job_name == "ps") {
    server.join();
    return 0;
  }

  const int num_ps = static_cast<int>(FLAGS.ps_hosts.size());
  tf::Variable W, b, global_step;
  {
    tf::device_scope on("/job:ps/task:0");
    W = tf::Variable(tf::zeros({784, 10}), "W");
    global_step = tf::Variable(tf::Tensor(int64_t{0}), "global_step",
                               /*trainable=*/false);
  }
  {
    tf::device_scope on("/job:ps/task:" + std::to_string(1 % num_ps));
    b = tf::Variable(tf::zeros({10}), "b");
  }
  tf::Output x, y_, accuracy;
  tf::Operation train_step;
  tf::train::GradientDescentOptimizer gd(FLAGS.learning_rate);
  std::unique_ptr<tf::train::SyncReplicasOptimizer> sync_opt;
  {
    tf::device_scope on("/job:worker/task:" + std::to_string(FLAGS.task_index));
    x = tf::placeholder(tf::float32, {tf::None, 784});
    y_ = tf::placeholder(tf::float32, {tf::None, 10});
    auto y = tf::nn::softmax(tf::matmul(x, W) + b);
    auto cross_entropy = tf::reduce_mean(
        -tf::reduce_sum(y_ * tf::log(y), /*reduction_indices=*/{1}));
    if (FLAGS.sync_replicas) {
      sync_opt = std::make_unique<tf::train::SyncReplicasOptimizer>(
          gd, FLAGS.replicas_to_aggregate, FLAGS.total_num_replicas,
          "mnist_sync");
      train_step = sync_opt->minimize(cross_entropy, &global_step);
    } else {
      train_step = gd.minimize(cross_entropy, &global_step);
    }
    auto predicted = tf::argmax(y, 1);
    auto correct = tf::equal(predicted, tf::argmax(y_, 1));
    accuracy = tf::reduce_mean(tf::cast(correct, tf::float32));
  }
  auto init = tf::global_variables_initializer();
  const bool is_chief = FLAGS.task_index == 0;
  // The hooks of the loop. Part 2 §4's MonitoredTrainingSession calls them
  // itself; here the loop calls them, at the same points.
  std::vector<std::unique_ptr<tf::train::SessionRunHook>> hooks;
  if (sync_opt) hooks.push_back(sync_opt->make_session_run_hook(is_chief));
  for (auto& hook : hooks) hook->begin();

  // TensorFlow's input_data shuffles with a fresh seed in every process, so
  // each worker trains on batches of its own; with one seed for all, both
  // workers would feed the same batches in the same order.
  auto mnist = tf::datasets::mnist::read_data_sets(
      tf::datasets::mnist::default_data_dir(), /*one_hot=*/true,
      /*validation_size=*/5000,
      tf::datasets::mnist::kDefaultSeed + FLAGS.task_index);
  // The session uses the ps and this worker only, as TensorFlow's
  // mnist_replica.py has its sessions do (the seed does not): without the
  // filters, a worker's session waits until every worker answers, and one
  // that starts after another worker has trained and exited waits for ever.
  tf::SessionOptions options{.target = server.target()};
  options.config.device_filters = {
      "/job:ps", "/job:worker/task:" + std::to_string(FLAGS.task_index)};
  tf::Session sess(options);
  if (is_chief) {
    sess.run(init);
  } else {
    // The chief initializes; the others wait until it has (TensorFlow's
    // Supervisor and MonitoredTrainingSession do the same, chapter 7 part 2).
    while (true) {
      try {
        sess.run({W, b, global_step});
        break;
      } catch (const tf::errors::FailedPreconditionError&) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    }
  }

  // The chief's hook puts the first tokens in the queue and starts the
  // chief's update-and-refill thread on `coord`.
  tf::train::Coordinator coord;
  for (auto& hook : hooks) hook->after_create_session(&sess, &coord);

  // The chapter's figures (§6): examples/s, and each step's staleness.
  std::ofstream staleness = OpenStalenessLog(FLAGS);
  const int64_t first_step = sess.run(global_step).scalar<int64_t>();
  const auto start = std::chrono::steady_clock::now();
  int64_t step = 0;
  int local_steps = 0;
  while (step < FLAGS.train_steps) {
    auto [batch_xs, batch_ys] = mnist.train.next_batch(FLAGS.batch_size);
    tf::FeedDict feeds = {{x, batch_xs}, {y_, batch_ys}};
    tf::train::SessionRunContext context({{train_step}, feeds}, &sess);
    for (auto& hook : hooks) hook->before_run(context);
    try {
      if (staleness.is_open()) {
        // global_step as this step reads W and b, and as its update leaves
        // it.
        auto steps = sess.run({global_step, train_step.output(0)}, feeds);
        staleness << steps[0].scalar<int64_t>() << " "
                  << steps[1].scalar<int64_t>() << "\n";
      } else {
        sess.run(train_step, feeds);
      }
    } catch (const tf::errors::OutOfRangeError&) {
      break;  // the chief is done and closed the token queue
    }
    for (auto& hook : hooks) hook->after_run(context, {});
    step = sess.run(global_step).scalar<int64_t>();
    ++local_steps;
  }
  // --8<-- [end:seed]
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::printf("Worker %d: %d local steps, global step %lld\n", FLAGS.task_index,
              local_steps, static_cast<long long>(step));
  std::printf(
      "Worker %d: %.0f examples/s; the cluster %.0f examples/s (global steps "
      "%lld to %lld in %.2f s)\n",
      FLAGS.task_index, local_steps * FLAGS.batch_size / seconds,
      (step - first_step) * FLAGS.batch_size / seconds,
      static_cast<long long>(first_step), static_cast<long long>(step),
      seconds);
  if (is_chief) {
    auto acc = sess.run(accuracy,
                        {{x, mnist.test.images()}, {y_, mnist.test.labels()}});
    std::printf("Test accuracy after %lld global steps: %.4f\n",
                static_cast<long long>(step), acc.scalar<float>());
  }
  // The chief's update thread waits for gradients that will not come:
  // stop it (closing the token queue releases the other workers), and
  // close the session, which cancels its waiting step.
  coord.request_stop();
  coord.join(std::chrono::seconds(1), /*ignore_live_threads=*/true);
  sess.close();
  return 0;
} catch (const tf::errors::OpError& e) {
  std::fprintf(stderr, "%s\n", e.status().ToString().c_str());
  return 1;
}
