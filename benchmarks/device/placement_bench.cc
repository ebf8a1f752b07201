// How long the placer and the partitioner take on a 10,000-node graph,
// measured in one run.
//
// The graph is a model of the kind the course builds, scaled up: towers of
// dense layers, each layer a variable (VariableV2, its initial value, its
// Assign and its read) and the math on it, with a gradient-descent update per
// variable; two towers in three pinned to a virtual GPU, the third left to
// the placer, and their sum pinned to the CPU.
// That gives the placer every kind of work it has: colocation groups by
// reference edges and by `_class`, device requests, unconstrained ops and
// generators for the second pass. The placed graph is then cut into one
// graph per device, with a _Send/_Recv pair per crossing tensor. Target:
// placement and partitioning under 100 ms for 10,000 nodes.
//
// TensorFlow has no timer for its placer or partitioner alone: they run
// inside a session's first run. So this also times what can be compared
// with TensorFlow (benchmarks/device/compare.sh runs tf_placement.py, which
// does the same there): a DirectSession on three CPU devices, the towers on
// CPU:1 and CPU:2 (a CPU-only TensorFlow has no GPUs, virtual or not), and
//   - the first run of a fresh session, the initializer's, less a run on
//     its cached plan: placing the whole graph, then pruning, cutting and
//     making the kernels of the initializer's part of it;
//   - the first run of a training step after it, less a cached run: the
//     step's pruning, cutting and kernels (every node is placed already).
// The last lines are machine-readable:
//   placement_ms <ms>, partition_ms <ms>,
//   session_first_run_ms init <ms>, session_first_run_ms step <ms>
// Usage: placement_bench [--quick]
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "minitf/device/api.h"
#include "minitf/device/device_mgr.h"
#include "minitf/device/device_set.h"
#include "minitf/device/graph_partition.h"
#include "minitf/device/placer.h"
#include "timing.h"
#include "tower_model.h"

namespace tf = minitf;

namespace {

constexpr int kGpus = 2;

// --8<-- [start:first_run]
// The planning of a fresh DirectSession's first two signatures, on three CPU
// devices: each one's first run less the best of three runs on its cached
// plan, best over `sessions` fresh sessions. False when a run fails.
bool SessionPlanning(int sessions, double* init_ms, double* step_ms) {
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
  *init_ms = *step_ms = 1e30;
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
    *init_ms = std::min(*init_ms, (init_first - init_cached) * 1e3);
    *step_ms = std::min(*step_ms, (step_first - step_cached) * 1e3);
  }
  return true;
}
// --8<-- [end:first_run]

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
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

  // --8<-- [start:measure]
  // Each repetition places the graph from scratch: a node that already has a
  // device would be kept as it is, at almost no cost.
  tf::Status status;
  const double seconds = tf::bench::BestSeconds(quick ? 3 : 15, [&] {
    for (tf::Node* n : graph.nodes()) n->set_assigned_device("");
    status = tf::Place(&graph, devices);
  });
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
  const double partition_seconds = tf::bench::BestSeconds(quick ? 3 : 15, [&] {
    auto partitions = tf::Partition(graph, partition_options);
    if (!partitions.ok()) {
      status = partitions.status();
      return;
    }
    num_partitions = partitions->size();
  });
  // --8<-- [end:partition]
  if (!status.ok()) {
    std::fprintf(stderr, "placement_bench: %s\n", status.ToString().c_str());
    return 1;
  }
  int on_gpu = 0;
  for (const tf::Node* n : graph.nodes()) {
    on_gpu += n->assigned_device().find("GPU") != std::string::npos;
  }
  std::printf("placement of a %d-node graph on CPU:0 and %d virtual GPUs\n",
              graph.num_nodes(), kGpus);
  std::printf("  %d nodes on GPUs, %d on the CPU\n", on_gpu,
              graph.num_nodes() - on_gpu);
  std::printf("  placement, best time   : %7.2f ms\n", seconds * 1e3);
  std::printf("  partitioning into %zu graphs, best time: %7.2f ms\n",
              num_partitions, partition_seconds * 1e3);
  std::printf("  together               : %7.2f ms (target: under 100 ms)\n",
              (seconds + partition_seconds) * 1e3);
  double init_ms = 0, step_ms = 0;
  if (!SessionPlanning(quick ? 1 : 3, &init_ms, &step_ms)) {
    std::fprintf(stderr, "placement_bench: a DirectSession run failed\n");
    return 1;
  }
  std::printf(
      "the same model on CPU:0, CPU:1 and CPU:2, a DirectSession's first "
      "runs less cached ones\n");
  std::printf(
      "  initializer's run (places the graph, plans its part): %7.2f ms\n",
      init_ms);
  std::printf(
      "  training step's run (plans the step)                : %7.2f ms\n",
      step_ms);
  std::printf("\nplacement_ms %.3f\n", seconds * 1e3);
  std::printf("partition_ms %.3f\n", partition_seconds * 1e3);
  std::printf("session_first_run_ms init %.3f\n", init_ms);
  std::printf("session_first_run_ms step %.3f\n", step_ms);
  return 0;
}
