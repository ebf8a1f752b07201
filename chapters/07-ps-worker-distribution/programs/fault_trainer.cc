// A small trainer for the fault tests (chapter 7, §6): one ps and N
// workers, each a process of this program, training with
// MonitoredTrainingSession until global_step reaches --last_step,
// asynchronously or, with --sync_replicas=true, synchronously
// (SyncReplicasOptimizer, --replicas_to_aggregate of --total_num_replicas
// gradients per update). The chief (worker 0) saves a checkpoint every
// --save_checkpoint_steps steps into --checkpoint_dir. A test driver
// (tests/distributed/training/fault_test.sh) kills and restarts these
// processes and reads what they print:
//
//   session ready: global_step=<g> t_ms=<epoch ms>   each (re)made session
//   step: global_step=<g> t_ms=<epoch ms>            each step of this task
//   done: global_step=<g> count=<c> recoveries=<r>   at the end
//   error: <code name>: <message> t_ms=<epoch ms>     a step's error that
//                                                     ended the task (exit 1)
//
// `count` is a second variable on the ps that every step adds 1 to, in the
// same step as global_step: after any fault and recovery the two must still
// agree, or a step was lost from one and not the other, or counted twice.
// A synchronous worker's step does not move global_step (the chief's update
// does, once per replicas_to_aggregate gradients), so there `count` counts
// the workers' steps and the done line says so: "count(worker steps)=<c>".
//
// --operation_timeout_in_ms (10000 by default) bounds every step: a
// synchronous step that waits for a dead worker's gradient ends with
// DeadlineExceeded after it, where TensorFlow would wait for ever.
//
//   fault_trainer --job_name=ps --task_index=0 --ps_hosts=localhost:2222
//       --worker_hosts=localhost:2223,localhost:2224     (one line)
//   fault_trainer --job_name=worker --task_index=0 ...
//       --checkpoint_dir=/tmp/ckpt --last_step=600       (one line)
//   fault_trainer --inspect_checkpoint=/tmp/ckpt/model.ckpt-151
//       prints "checkpoint: global_step=<g> count=<c>", what it holds
#include <minitf/minitf.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace tf = minitf;

namespace {

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// "--name=value" arguments, by name.
std::map<std::string, std::string> Args(int argc, char** argv) {
  std::map<std::string, std::string> args;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    const size_t eq = a.find('=');
    if (a.starts_with("--") && eq != std::string::npos) {
      args[a.substr(2, eq - 2)] = a.substr(eq + 1);
    } else {
      std::fprintf(stderr, "Not a --name=value argument: %s\n", a.c_str());
      std::exit(2);
    }
  }
  return args;
}

std::vector<std::string> Hosts(const std::string& list) {
  std::vector<std::string> hosts;
  std::stringstream in(list);
  for (std::string h; std::getline(in, h, ',');) hosts.push_back(h);
  return hosts;
}

// Prints the step each (re)made session starts from.
class ReportSessions : public tf::train::SessionRunHook {
 public:
  explicit ReportSessions(tf::Variable step) : step_(step) {}
  void after_create_session(tf::Session* session,
                            tf::train::Coordinator*) override {
    std::printf("session ready: global_step=%lld t_ms=%lld\n",
                static_cast<long long>(session->run(step_).scalar<int64_t>()),
                static_cast<long long>(NowMs()));
    std::fflush(stdout);
  }

 private:
  tf::Variable step_;
};

// The values a checkpoint holds, restored into a graph of this process's
// own, printed for the driver: "checkpoint: global_step=<g> count=<c>".
// A checkpoint saved while another worker trains can hold the two one step
// apart (the save reads one variable, then the other), so the driver checks
// the steps after a restore against the checkpoint's own values.
int InspectCheckpoint(const std::string& prefix) {
  tf::Graph graph;
  tf::graph_scope use(graph);
  tf::Variable w(tf::zeros({4}), "w");
  tf::Variable count(tf::Tensor(int64_t{0}), "count", false);
  tf::Variable global_step(tf::Tensor(int64_t{0}), "global_step", false);
  tf::train::Saver saver;
  tf::Session sess;
  saver.restore(sess, prefix);
  const std::vector<tf::Tensor> values = sess.run({global_step, count});
  std::printf("checkpoint: global_step=%lld count=%lld\n",
              static_cast<long long>(values[0].scalar<int64_t>()),
              static_cast<long long>(values[1].scalar<int64_t>()));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  auto args = Args(argc, argv);
  auto get = [&](const std::string& name, const std::string& fallback) {
    auto it = args.find(name);
    return it == args.end() ? fallback : it->second;
  };
  if (args.count("inspect_checkpoint") != 0) {
    return InspectCheckpoint(args["inspect_checkpoint"]);
  }
  const std::string job = get("job_name", "");
  const int task = std::stoi(get("task_index", "0"));
  tf::train::ClusterSpec cluster({{"ps", Hosts(get("ps_hosts", ""))},
                                  {"worker", Hosts(get("worker_hosts", ""))}});
  // --bind_host=0.0.0.0 where the tasks are in different network
  // namespaces (the partition test).
  tf::train::Server server(
      cluster, job, task, tf::ConfigProto{},
      tf::train::ServerOptions{.bind_host = get("bind_host", "localhost")});
  if (job == "ps") {
    server.join();  // until the driver kills it
    return 0;
  }

  // --8<-- [start:model]
  tf::Variable w, count, global_step;
  {
    tf::device_scope on("/job:ps/task:0");
    w = tf::Variable(tf::zeros({4}), "w");
    count = tf::Variable(tf::Tensor(int64_t{0}), "count", false);
    global_step = tf::Variable(tf::Tensor(int64_t{0}), "global_step", false);
  }
  const bool sync_replicas = get("sync_replicas", "false") == "true";
  tf::train::GradientDescentOptimizer gd(0.01);
  std::unique_ptr<tf::train::SyncReplicasOptimizer> sync_opt;
  tf::Operation train_op;
  {
    tf::device_scope on("/job:worker/task:" + std::to_string(task));
    tf::Output target = tf::constant(tf::Tensor({1.f, 2.f, 3.f, 4.f}));
    tf::Output loss = tf::reduce_sum(tf::square(w - target));
    tf::Operation minimize;
    if (sync_replicas) {
      sync_opt = std::make_unique<tf::train::SyncReplicasOptimizer>(
          gd, std::stoi(get("replicas_to_aggregate", "2")),
          std::stoi(get("total_num_replicas", "-1")));
      minimize = sync_opt->minimize(loss, &global_step);
    } else {
      minimize = gd.minimize(loss, &global_step);
    }
    // One step moves global_step and count together (asynchronously).
    tf::control_dependencies after({minimize});
    train_op =
        count.assign_add(tf::constant(tf::Tensor(int64_t{1})), true).op();
  }
  // --8<-- [end:model]

  tf::ConfigProto config;
  // A step that waits on a dead task ends, rather than waiting for ever.
  config.operation_timeout_in_ms =
      std::stoll(get("operation_timeout_in_ms", "10000"));
  const int step_sleep_ms = std::stoi(get("step_sleep_ms", "20"));
  tf::train::Hooks hooks = {std::make_shared<tf::train::StopAtStepHook>(
                                tf::train::StopAtStepHook::LastStep(
                                    std::stoll(get("last_step", "600")))),
                            std::make_shared<ReportSessions>(global_step)};
  // The first tokens and, on the chief, the runner of the updates.
  if (sync_opt) hooks.push_back(sync_opt->make_session_run_hook(task == 0));
  // Every checkpoint is kept (max_to_keep 0), so that the driver can read
  // the one a restarted chief restored once training is over.
  auto scaffold = std::make_shared<tf::train::Scaffold>(
      tf::train::Scaffold::Options{.saver = std::make_shared<tf::train::Saver>(
                                       tf::global_variables(), 0)});
  // --8<-- [start:loop]
  auto sess = tf::train::MonitoredTrainingSession(
      {.master = server.target(),
       .is_chief = task == 0,
       .checkpoint_dir = get("checkpoint_dir", ""),
       .scaffold = scaffold,
       .hooks = hooks,
       .save_summaries_steps = 0,
       .config = config,
       .log_step_count_steps = 100,
       .save_checkpoint_steps = std::stoll(get("save_checkpoint_steps", "50")),
       .recovery_wait_secs = 0.2});
  // A step's error that MonitoredSession does not recover from (it
  // recovers from Aborted and Unavailable) ends the task, saying what it
  // was. OutOfRange ends the loop, as it ends TensorFlow's `with` block: a
  // queue was closed, here the token queue, which the chief's queue runner
  // closes when its own step fails; close() then raises that step's error,
  // which the coordinator recorded (TensorFlow's coord.join()).
  try {
    bool queue_closed = false;
    while (!sess->should_stop()) {
      std::vector<tf::Tensor> r;
      try {
        r = sess->run({train_op, global_step});
      } catch (const tf::errors::OutOfRangeError&) {
        queue_closed = true;
        break;
      }
      std::printf("step: global_step=%lld t_ms=%lld\n",
                  static_cast<long long>(r[1].scalar<int64_t>()),
                  static_cast<long long>(NowMs()));
      std::fflush(stdout);
      std::this_thread::sleep_for(std::chrono::milliseconds(step_sleep_ms));
    }
    if (!queue_closed) {
      auto final_values = sess->session()->run({global_step, count});
      std::printf("done: global_step=%lld %s=%lld recoveries=%d\n",
                  static_cast<long long>(final_values[0].scalar<int64_t>()),
                  sync_replicas ? "count(worker steps)" : "count",
                  static_cast<long long>(final_values[1].scalar<int64_t>()),
                  sess->recoveries());
    }
    sess->close();
  } catch (const tf::errors::OpError& e) {
    std::printf("error: %s t_ms=%lld\n", e.status().ToString().c_str(),
                static_cast<long long>(NowMs()));
    std::fflush(stdout);
    return 1;
  }
  // --8<-- [end:loop]
  return 0;
}
