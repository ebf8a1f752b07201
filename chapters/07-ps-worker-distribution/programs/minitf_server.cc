// minitf_server: one task of a cluster, serving until it is interrupted.
//
// The launcher of a cluster starts this program once per task, on each
// machine (or each loopback port), telling it the cluster and which task it
// is, with flags:
//
//   minitf_server --job_name=ps --task_index=0
//       --cluster='{"ps": ["localhost:2222"], "worker": ["localhost:2223"]}'
//
// or, with no flags, in TF_CONFIG as a cluster manager sets it:
//
//   export TF_CONFIG='{"cluster": {...}, "task": {"type": "ps", "index": 0}}'
//   minitf_server
//
// --bind_host=0.0.0.0 listens on every interface instead of localhost.
// SIGINT or SIGTERM stops the server cleanly; the exit status is 0 then, 2
// for bad flags and 1 for a server that cannot start.
#include <minitf/minitf.h>

#include <csignal>
#include <iostream>
#include <optional>
#include <string>
#include <thread>

namespace tf = minitf;

namespace {

struct Flags {
  std::optional<std::string> cluster;
  std::string job_name;
  std::optional<int> task_index;
  std::string bind_host = "localhost";
};

// --name=value flags; false (with a message) for anything else.
bool ParseFlags(int argc, char** argv, Flags* flags) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    const std::string name = arg.substr(0, eq);
    if (eq == std::string::npos) {
      std::cerr << "minitf_server: expected --name=value, got " << arg << "\n";
      return false;
    }
    const std::string value = arg.substr(eq + 1);
    if (name == "--cluster") {
      flags->cluster = value;
    } else if (name == "--job_name") {
      flags->job_name = value;
    } else if (name == "--task_index") {
      try {
        size_t used = 0;
        flags->task_index = std::stoi(value, &used);
        if (used != value.size()) throw std::invalid_argument(value);
      } catch (const std::exception&) {
        std::cerr << "minitf_server: --task_index must be an integer, got "
                  << value << "\n";
        return false;
      }
    } else if (name == "--bind_host") {
      flags->bind_host = value;
    } else {
      std::cerr << "minitf_server: unknown flag " << name << "\n";
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  if (!ParseFlags(argc, argv, &flags)) return 2;

  // The signals are taken by a thread of ours (sigwait) rather than by a
  // handler, which may call almost nothing; every thread started from here
  // on, gRPC's included, inherits the blocked mask.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  try {
    tf::train::TFConfig config;
    if (flags.cluster) {
      // The flag holds what TF_CONFIG's "cluster" holds.
      config =
          tf::train::ParseTFConfig("{\"cluster\": " + *flags.cluster + "}");
      config.task_type = flags.job_name;
      config.task_index = flags.task_index;
    } else if (auto from_env = tf::train::TFConfigFromEnvironment()) {
      config = *from_env;
    } else {
      std::cerr << "minitf_server: give --cluster, --job_name and "
                   "--task_index, or set TF_CONFIG\n";
      return 2;
    }
    // --8<-- [start:serve]
    tf::train::Server server(config.cluster, config.task_type,
                             config.task_index, {},
                             {.bind_host = flags.bind_host});
    std::thread waiter([&] {
      int signal = 0;
      sigwait(&signals, &signal);
      server.stop();
    });
    server.join();
    // --8<-- [end:serve]
    waiter.join();
    std::cerr << "Stopped server with target: " << server.target() << "\n";
  } catch (const tf::errors::InvalidArgumentError& e) {
    std::cerr << "minitf_server: " << e.what() << "\n";
    return 2;
  } catch (const tf::errors::OpError& e) {
    std::cerr << "minitf_server: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
