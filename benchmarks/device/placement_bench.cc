// How long the placer and the partitioner take on a 10,000-node graph,
// and a session's first runs on it.
//
// The graph is a model of the kind the course builds, scaled up: towers of
// dense layers, each layer a variable (VariableV2, its initial value, its
// Assign and its read) and the math on it, with a gradient-descent update per
// variable; two towers in three pinned to a virtual GPU, the third left to
// the placer, and their sum pinned to the CPU.
// That gives the placer every kind of work it has: colocation groups by
// reference edges and by `_class`, device requests, unconstrained ops and
// generators for the second pass. The placed graph is then cut into one
// graph per device, with a _Send/_Recv pair per crossing tensor.
//
// TensorFlow has no timer for its placer or partitioner alone: they run
// inside a session's first run. So this also times what can be compared
// with TensorFlow (benchmarks/device/compare.sh runs tf_placement.py, which
// does the same there, and hands its lines over with --tf FILE): a
// DirectSession on three CPU devices, the towers on CPU:1 and CPU:2 (a
// CPU-only TensorFlow has no GPUs, virtual or not), and
//   - the first run of a fresh session, the initializer's, less a run on
//     its cached plan: placing the whole graph, then pruning, cutting and
//     making the kernels of the initializer's part of it;
//   - the first run of a training step after it, less a cached run: the
//     step's pruning, cutting and kernels (every node is placed already).
// The tables go to results/placement_bench.md (benchmarks/tensor/results.h).
// The lines of --tf FILE are tf_placement.py's:
//   tf_version <version>    tf_nodes <count>
//   tf_first_run_ms <init|step|init_no_grappler|step_no_grappler> <ms...>
// Usage: placement_bench [--quick] [--tf FILE] [--command TEXT]
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "minitf/device/api.h"
#include "minitf/device/devices/device_mgr.h"
#include "minitf/device/devices/device_set.h"
#include "minitf/device/partition/graph_partition.h"
#include "minitf/device/placement/placer.h"
#include "results.h"
#include "timing.h"
#include "tower_model.h"

namespace tf = minitf;

namespace {

constexpr int kGpus = 2;

// The planning of a fresh DirectSession's first two signatures, on three CPU
// devices: each one's first run less the best of three runs on its cached
// plan, once per fresh session, `sessions` times. False when a run fails.
bool SessionPlanning(int sessions, std::vector<double>* init_ms,
                     std::vector<double>* step_ms) {
  auto graph = std::make_shared<tf::Graph>();
  std::vector<tf::Operation> train_ops;
  const tf::Output loss = tf::bench::BuildTowerModel(
      graph.get(), kGpus, &train_ops, /*on_cpus=*/true);
  tf::Operation init;
  {
    tf::graph_scope use(*graph);
    init = tf::global_variables_initializer();
  }
  std::vector<std::string> targets;
  for (const tf::Operation& op : train_ops) targets.push_back(op.name());
  const std::vector<std::pair<std::string, tf::Tensor>> feeds = {
      {"x:0", tf::Tensor(tf::float32, tf::TensorShape({1, 4}))}};
  tf::SessionOptions options;
  options.config.device_count["CPU"] = kGpus + 1;
  for (int s = 0; s < sessions; ++s) {
    auto session = tf::DirectSession::Create(options, graph);
    if (!session.ok()) return false;
    std::vector<tf::Tensor> out;
    bool ok = true;
    auto run = [&](const std::vector<std::pair<std::string, tf::Tensor>>& in,
                   const std::vector<std::string>& fetches,
                   const std::vector<std::string>& run_targets) {
      return tf::bench::BestSeconds(1, [&] {
        ok = (*session)->Run(in, fetches, run_targets, &out).ok() && ok;
      });
    };
    // --8<-- [start:first_run]
    const double init_first = run({}, {}, {init.name()});
    double init_cached = 1e30;
    for (int r = 0; r < 3; ++r) {
      init_cached = std::min(init_cached, run({}, {}, {init.name()}));
    }
    const double step_first = run(feeds, {loss.name()}, targets);
    double step_cached = 1e30;
    for (int r = 0; r < 3; ++r) {
      step_cached = std::min(step_cached, run(feeds, {loss.name()}, targets));
    }
    if (!ok) return false;
    init_ms->push_back((init_first - init_cached) * 1e3);
    step_ms->push_back((step_first - step_cached) * 1e3);
    // --8<-- [end:first_run]
  }
  return true;
}

// tf_placement.py's figures: its version, its graph's node count, and the
// milliseconds of each session per figure.
struct TfFigures {
  std::string version;
  std::string nodes;
  std::map<std::string, std::vector<double>> ms;

  static bool Read(const std::string& path, TfFigures* tf_figures) {
    std::ifstream in(path);
    if (!in) return false;
    std::string line;
    while (std::getline(in, line)) {
      std::istringstream words(line);
      std::string kind;
      words >> kind;
      if (kind == "tf_version") {
        words >> tf_figures->version;
      } else if (kind == "tf_nodes") {
        words >> tf_figures->nodes;
      } else if (kind == "tf_first_run_ms") {
        std::string what;
        words >> what;
        for (double v; words >> v;) tf_figures->ms[what].push_back(v);
      }
    }
    return true;
  }
};

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  std::string tf_path;
  std::vector<std::string> command;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else if (std::strcmp(argv[i], "--tf") == 0 && i + 1 < argc) {
      tf_path = argv[++i];
    } else if (std::strcmp(argv[i], "--command") == 0 && i + 1 < argc) {
      std::istringstream words(argv[++i]);
      for (std::string w; words >> w;) command.push_back(w);
    } else {
      std::fprintf(stderr,
                   "usage: placement_bench [--quick] [--tf FILE] "
                   "[--command TEXT]\n");
      return 2;
    }
  }
  TfFigures tf_figures;
  if (!tf_path.empty() && !TfFigures::Read(tf_path, &tf_figures)) {
    std::fprintf(stderr, "placement_bench: cannot read %s\n", tf_path.c_str());
    return 1;
  }
  std::vector<char*> recorded_argv;
  for (std::string& w : command) recorded_argv.push_back(w.data());
  tf::bench::Results results(
      "placement_bench",
      command.empty() ? argc : static_cast<int>(recorded_argv.size()),
      command.empty() ? argv : recorded_argv.data());

  tf::SessionOptions options;
  options.config.gpu_options.virtual_gpus = kGpus;
  auto mgr = tf::DeviceMgr::Create(options);
  if (!mgr.ok()) {
    std::fprintf(stderr, "placement_bench: %s\n",
                 mgr.status().ToString().c_str());
    return 1;
  }
  tf::DeviceSet devices;
  for (tf::Device* d : (*mgr)->ListDevices()) devices.AddDevice(d);
  devices.set_client_device((*mgr)->ListDevices()[0]);

  tf::Graph graph;
  tf::bench::BuildTowerModel(&graph, kGpus);

  const int reps = quick ? 3 : 15;
  // --8<-- [start:measure]
  // Each repetition places the graph from scratch: a node that already has a
  // device would be kept as it is, at almost no cost.
  tf::Status status;
  std::vector<double> place_ms;
  for (int r = 0; r < reps && status.ok(); ++r) {
    place_ms.push_back(1e3 * tf::bench::BestSeconds(1, [&] {
                         for (tf::Node* n : graph.nodes())
                           n->set_assigned_device("");
                         status = tf::Place(&graph, devices);
                       }));
  }
  // --8<-- [end:measure]
  if (!status.ok()) {
    std::fprintf(stderr, "placement_bench: %s\n", status.ToString().c_str());
    return 1;
  }
  // --8<-- [start:partition]
  tf::PartitionOptions partition_options;
  partition_options.incarnation = [&](const std::string& name) {
    return devices.FindDeviceByName(name)->attributes().incarnation;
  };
  size_t num_partitions = 0;
  std::vector<double> partition_ms;
  for (int r = 0; r < reps && status.ok(); ++r) {
    partition_ms.push_back(1e3 * tf::bench::BestSeconds(1, [&] {
                             auto partitions =
                                 tf::Partition(graph, partition_options);
                             if (!partitions.ok()) {
                               status = partitions.status();
                               return;
                             }
                             num_partitions = partitions->size();
                           }));
  }
  // --8<-- [end:partition]
  if (!status.ok()) {
    std::fprintf(stderr, "placement_bench: %s\n", status.ToString().c_str());
    return 1;
  }
  int on_gpu = 0;
  for (const tf::Node* n : graph.nodes()) {
    on_gpu += n->assigned_device().find("GPU") != std::string::npos;
  }
  std::vector<double> together_ms;
  for (int r = 0; r < reps; ++r) {
    together_ms.push_back(place_ms[r] + partition_ms[r]);
  }
  results.Table(
      "Placing and partitioning a " + std::to_string(graph.num_nodes()) +
          "-node model on CPU:0 and " + std::to_string(kGpus) + " virtual GPUs",
      {"step", "ms"});
  results.Row({"placement (" + std::to_string(on_gpu) + " nodes on GPUs, " +
                   std::to_string(graph.num_nodes() - on_gpu) + " on the CPU)",
               tf::bench::MedianRange(place_ms, 2)});
  results.Row(
      {"partitioning into " + std::to_string(num_partitions) + " graphs",
       tf::bench::MedianRange(partition_ms, 2)});
  results.Row({"together", tf::bench::MedianRange(together_ms, 2)});
  results.Note("Median (range) over " + std::to_string(reps) +
               " repetitions, each from an unplaced graph.");

  std::vector<double> init_ms, step_ms;
  const int sessions = quick ? 1 : 5;
  if (!SessionPlanning(sessions, &init_ms, &step_ms)) {
    std::fprintf(stderr, "placement_bench: a DirectSession run failed\n");
    return 1;
  }
  const std::string tf_name = "TensorFlow " + tf_figures.version;
  const bool have_tf = !tf_figures.ms.empty();
  std::vector<std::string> columns = {"first run less a cached run", "minitf"};
  if (have_tf) {
    columns.insert(columns.end(),
                   {tf_name, "minitf faster by", "TensorFlow, Grappler off",
                    "minitf faster by"});
  }
  results.Table(
      "A session's first runs on the same model on CPU:0, CPU:1 and CPU:2, "
      "less runs on the cached plan, ms",
      columns);
  auto row = [&](const std::string& label, const std::vector<double>& minitf,
                 const std::string& key) {
    std::vector<std::string> cells = {label, tf::bench::MedianRange(minitf, 2)};
    if (have_tf) {
      for (const std::string& k : {key, key + "_no_grappler"}) {
        const std::vector<double>& peer = tf_figures.ms[k];
        if (peer.empty()) {
          cells.insert(cells.end(), {"—", "—"});
          continue;
        }
        cells.push_back(tf::bench::MedianRange(peer, 2));
        cells.push_back(
            tf::bench::Fixed(
                tf::bench::Median(peer) / tf::bench::Median(minitf), 1) +
            "×");
      }
    }
    results.Row(cells);
  };
  row("initializer's run", init_ms, "init");
  row("training step's run", step_ms, "step");
  results.Note("Median (range) over " + std::to_string(sessions) +
               (sessions == 1 ? " fresh session" : " fresh sessions") +
               "; each cached run the best of three. minitf's "
               "graph has " +
               std::to_string(graph.num_nodes()) + " nodes" +
               (have_tf ? ", TensorFlow's " + tf_figures.nodes +
                              " (both add towers until 10,000)"
                        : "") +
               ".");
  if (!have_tf) {
    results.Note(
        "TensorFlow not measured: benchmarks/device/compare.sh times it "
        "beside minitf once scripts/peers.sh has installed it.");
  }
  return results.Finish();
}
