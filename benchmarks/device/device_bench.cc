// What devices cost and what they buy, measured in one run.
//
// Four tables (benchmarks/tensor/results.h; results/device_bench.md):
//   - overhead per op of the DirectSession on a cached plan, against chapter
//     2's LocalSession, on the same chain of 1,000 tiny adds;
//   - two independent chains of 1024x1024 matmuls, one per CPU device
//     ({"CPU": 2}), against the same chains on one device that runs one op
//     at a time. Each product runs on one thread (intra_op_parallelism_threads
//     = 1), so the devices are the only parallelism. Beside them, one device
//     with 2 inter-op threads, and one with 2 intra-op threads (each product
//     split on the device's pool);
//   - the bytes Send/Recv moves in seed 001's multi-tower program, on four
//     virtual GPUs (towers on GPU:2 and GPU:3, the sum on the CPU);
//   - planning a training step of a 10,000-node model (towers on two virtual
//     GPUs, tower_model.h): after the initializer's run has placed the whole
//     graph, the step's first run prunes and rewrites it for its feeds and
//     fetches, partitions it and makes the kernels the initializer's run did
//     not.
// Usage: device_bench [--quick]
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "minitf/device/api.h"
#include "minitf/graph/api.h"
#include "minitf/tensor/api.h"
#include "results.h"
#include "timing.h"
#include "tower_model.h"

namespace tf = minitf;

namespace {

using tf::bench::BestSeconds;
using tf::bench::DoNotOptimize;
using tf::bench::Fixed;
using tf::bench::Median;
using tf::bench::MedianRange;
using tf::bench::Results;

constexpr int kChain = 1000;

// --8<-- [start:overhead]
// y = ((x + 1) + 1) + ...: chapter 2's chain of 1,000 tiny adds, run by
// both sessions on the same graph.
bool BenchOverhead(bool quick, Results* results) {
  auto graph = std::make_shared<tf::Graph>();
  tf::graph_scope use(*graph);
  tf::Output x = tf::placeholder(tf::float32, {1}, "x");
  tf::Output one = tf::constant({1.f}, {1}, "one");
  tf::Output y = x;
  for (int i = 0; i < kChain; ++i) y = tf::add(y, one);
  const std::vector<std::pair<std::string, tf::Tensor>> feeds = {
      {"x:0", tf::Tensor::FromVector<float>({0.f}, {1}).value()}};

  tf::LocalSession local(tf::SessionOptions{}, graph);
  auto direct = tf::DirectSession::Create(tf::SessionOptions{}, graph).value();
  // --8<-- [end:overhead]
  std::vector<tf::Tensor> out;
  for (tf::SessionInterface* s :
       {static_cast<tf::SessionInterface*>(&local),
        static_cast<tf::SessionInterface*>(direct.get())}) {
    if (!s->Run(feeds, {y.name()}, {}, &out).ok()) std::abort();  // plans
  }
  const int reps = quick ? 20 : 200;
  const int rounds = quick ? 2 : 7;
  std::vector<double> local_us, direct_us;        // per op, one figure a round
  for (int round = 0; round < rounds; ++round) {  // in turn, against drift
    local_us.push_back(1e6 / kChain * BestSeconds(reps, [&] {
                         local.Run(feeds, {y.name()}, {}, &out).ok();
                         DoNotOptimize(out[0].data<float>()[0]);
                       }));
    direct_us.push_back(1e6 / kChain * BestSeconds(reps, [&] {
                          direct->Run(feeds, {y.name()}, {}, &out).ok();
                          DoNotOptimize(out[0].data<float>()[0]);
                        }));
  }
  if (out[0].data<float>()[0] != kChain) {
    std::fprintf(stderr, "device_bench: the chain of adds gave %g, not %d\n",
                 out[0].data<float>()[0], kChain);
    return false;
  }
  results->Table("Cost per op on a cached plan: a chain of " +
                     std::to_string(kChain) + " adds on 1-element tensors",
                 {"session", "µs per op", "against chapter 2's"});
  results->Row({"LocalSession (chapter 2)", MedianRange(local_us, 3), "1.00"});
  results->Row({"DirectSession (chapter 4)", MedianRange(direct_us, 3),
                Fixed(Median(direct_us) / Median(local_us), 2)});
  results->Note("Median (range) over " + std::to_string(rounds) +
                " rounds, the two sessions in turn, each round the best of " +
                std::to_string(reps) + " runs of the chain.");
  return true;
}

// Two chains x <- x * w of `length` 1024x1024 matmuls, the first on
// /cpu:0 and the second on /cpu:1; returns their ends.
std::vector<tf::Output> MatMulChains(int length) {
  constexpr int64_t n = 1024;
  tf::Tensor w(tf::float32, tf::TensorShape({n, n}));
  w.flat<float>().setConstant(1.f / n);  // keeps the values at 1
  std::vector<tf::Output> ends;
  for (const char* device : {"/cpu:0", "/cpu:1"}) {
    tf::device_scope on(device);
    tf::Output x = tf::constant(w);
    tf::Output wc = tf::constant(w);
    for (int i = 0; i < length; ++i) x = tf::matmul(x, wc);
    ends.push_back(x);
  }
  return ends;
}

void BenchTwoDevices(bool quick, Results* results) {
  const int length = quick ? 2 : 6;
  auto graph = std::make_shared<tf::Graph>();
  tf::graph_scope use(*graph);
  std::vector<tf::Output> ends = MatMulChains(length);
  const std::vector<std::string> fetches = {ends[0].name(), ends[1].name()};

  // --8<-- [start:two_devices]
  // One device that runs one op at a time, against two devices.
  // Each product on one thread (intra_op_parallelism_threads = 1), so that
  // running ops at once is the only parallelism.
  tf::SessionOptions one_device;
  one_device.config.allow_soft_placement = true;  // /cpu:1 -> /cpu:0
  one_device.config.device_count["CPU"] = 1;
  one_device.config.inter_op_parallelism_threads = 1;
  one_device.config.intra_op_parallelism_threads = 1;
  tf::SessionOptions two_devices = one_device;
  two_devices.config.allow_soft_placement = false;
  two_devices.config.device_count["CPU"] = 2;
  two_devices.config.inter_op_parallelism_threads = 2;
  // For the record: one device whose executor runs independent ops at once,
  // and one device that runs one op at a time, each product split between
  // the 2 threads of the device's intra-op pool.
  tf::SessionOptions one_device_parallel = one_device;
  one_device_parallel.config.inter_op_parallelism_threads = 2;
  tf::SessionOptions one_device_intra_op = one_device;
  one_device_intra_op.config.intra_op_parallelism_threads = 2;
  // --8<-- [end:two_devices]

  const int reps = quick ? 2 : 5;
  std::vector<double> ms[4];  // one figure a run, per configuration
  const tf::SessionOptions* configs[4] = {
      &one_device, &two_devices, &one_device_parallel, &one_device_intra_op};
  for (int c = 0; c < 4; ++c) {
    auto session = tf::DirectSession::Create(*configs[c], graph).value();
    std::vector<tf::Tensor> out;
    if (!session->Run({}, fetches, {}, &out).ok()) std::abort();
    for (int r = 0; r < reps; ++r) {
      ms[c].push_back(1e3 * BestSeconds(1, [&] {
                        session->Run({}, fetches, {}, &out).ok();
                        DoNotOptimize(out[0].data<float>()[0]);
                      }));
    }
  }
  results->Table("Two independent chains of " + std::to_string(length) +
                     " matrix products 1024×1024",
                 {"configuration", "ms a run", "speed-up"});
  const char* labels[4] = {
      "one device, one op at a time", "two CPU devices ({\"CPU\": 2})",
      "one device, 2 inter-op threads", "one device, 2 intra-op threads"};
  for (int c = 0; c < 4; ++c) {
    results->Row({labels[c], MedianRange(ms[c], 1),
                  Fixed(Median(ms[0]) / Median(ms[c]), 2) + "×"});
  }
  results->Note("Median (range) over " + std::to_string(reps) +
                " runs per configuration; speed-up: against the first row's "
                "median. Each product on one thread but in the last row.");
}

// --8<-- [start:tower_bytes]
void BenchTowerBytes(Results* results) {
  auto graph = std::make_shared<tf::Graph>();
  tf::graph_scope use(*graph);
  std::vector<tf::Output> c;
  for (const char* d : {"/gpu:2", "/gpu:3"}) {
    tf::device_scope on(d);
    tf::Output a = tf::constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3});
    tf::Output b = tf::constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {3, 2});
    c.push_back(tf::matmul(a, b));
  }
  tf::Output sum;
  {
    tf::device_scope on("/cpu:0");
    sum = tf::add_n(c);
  }
  tf::SessionOptions options;
  options.config.gpu_options.virtual_gpus = 4;
  auto session = tf::DirectSession::Create(options, graph).value();
  std::vector<tf::Tensor> out;
  if (!session->Run({}, {sum.name()}, {}, &out).ok()) std::abort();
  // --8<-- [end:tower_bytes]
  std::printf("seed 001's towers on 4 virtual GPUs: %s\n",
              out[0].ToString().c_str());
  results->Table(
      "What Send/Recv moves in one run of seed 001's towers, on 4 "
      "virtual GPUs",
      {"from", "to", "tensors", "bytes", "bytes copied"});
  auto short_name = [](const std::string& device) {
    return device.substr(device.rfind("device:") + 7);
  };
  for (const auto& [pair, record] : session->GetTransferStats()) {
    results->Row({short_name(pair.first), short_name(pair.second),
                  std::to_string(record.tensors), std::to_string(record.bytes),
                  std::to_string(record.bytes_copied)});
  }
  results->Note(
      "Devices by type and index, in /job:localhost/replica:0/"
      "task:0. CPU:0 to itself: the fetched sum, handed to the "
      "client.");
}

// --8<-- [start:planning]
// The first run of a signature places the nodes not yet placed, rewrites
// and cuts the graph and makes its kernels and executors; later runs reuse
// the plan. The difference is the planning. (Here the initializer's run has
// already placed every node, and made the kernels of the nodes it ran.)
bool BenchPlanning(bool quick, Results* results) {
  auto graph = std::make_shared<tf::Graph>();
  std::vector<tf::Operation> train_ops;
  tf::Output loss = tf::bench::BuildTowerModel(graph.get(), 2, &train_ops);
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
  options.config.gpu_options.virtual_gpus = 2;
  const int sessions = quick ? 1 : 5;
  std::vector<double> first_ms, cached_ms, planning_ms;
  for (int s = 0; s < sessions; ++s) {
    auto session = tf::DirectSession::Create(options, graph).value();
    std::vector<tf::Tensor> out;
    tf::Status status = session->Run({}, {}, {init.name()}, &out);
    const double first = BestSeconds(
        1, [&] { status = session->Run(feeds, {loss.name()}, targets, &out); });
    if (!status.ok()) {
      std::fprintf(stderr, "device_bench: planning failed: %s\n",
                   status.ToString().c_str());
      return false;
    }
    const double cached = BestSeconds(
        3, [&] { session->Run(feeds, {loss.name()}, targets, &out).ok(); });
    first_ms.push_back(first * 1e3);
    cached_ms.push_back(cached * 1e3);
    planning_ms.push_back((first - cached) * 1e3);
  }
  // --8<-- [end:planning]
  results->Table("A training step of a " + std::to_string(graph->num_nodes()) +
                     "-node model on CPU:0 and 2 virtual GPUs, after the "
                     "initializer's run has placed it",
                 {"run", "ms"});
  results->Row({"the step's first run (rewrite, partition, kernels, run)",
                MedianRange(first_ms, 1)});
  results->Row({"a run on the cached plan", MedianRange(cached_ms, 1)});
  results->Row({"planning, the difference", MedianRange(planning_ms, 1)});
  results->Note("Median (range) over " + std::to_string(sessions) +
                (sessions == 1 ? " fresh session" : " fresh sessions") +
                "; a cached run is the best of three.");
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  tf::kernels::SetNumThreads(1);
  Results results("device_bench", argc, argv);
  if (!BenchOverhead(quick, &results)) return 1;
  BenchTwoDevices(quick, &results);
  BenchTowerBytes(&results);
  if (!BenchPlanning(quick, &results)) return 1;
  return results.Finish();
}
