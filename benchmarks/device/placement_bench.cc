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
// Usage: placement_bench [--quick]
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "minitf/device/device_mgr.h"
#include "minitf/device/device_set.h"
#include "minitf/device/graph_partition.h"
#include "minitf/device/placer.h"
#include "timing.h"
#include "tower_model.h"

namespace tf = minitf;

namespace {

constexpr int kGpus = 2;

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
  std::printf("placement_ms %.3f\n", seconds * 1e3);
  std::printf("partition_ms %.3f\n", partition_seconds * 1e3);
  return 0;
}
