// What devices cost and what they buy, measured in one run.
//
// Four figures, each printed, none asserted:
//   - overhead per op of the DirectSession on a cached plan, against chapter
//     2's LocalSession, on the same chain of 1,000 tiny adds. Target: ratio
//     <= 1.5.
//   - two independent chains of 1024x1024 matmuls, one per CPU device
//     ({"CPU": 2}), against the same chains on one device that runs one op
//     at a time. Each product runs on one thread (intra_op_parallelism_threads
//     = 1), so the devices are the only parallelism. Target: speed-up >= 1.6
//     on 2 cores. For the record, one device with 2 inter-op threads, and
//     one with 2 intra-op threads (each product split on the device's pool).
//   - the bytes Send/Recv moves in seed 001's multi-tower program, on four
//     virtual GPUs (towers on GPU:2 and GPU:3, the sum on the CPU).
//   - planning a training step of a 10,000-node model (towers on two virtual
//     GPUs, tower_model.h), for the record: after the initializer's run has
//     placed the whole graph, the step's first run prunes and rewrites it for
//     its feeds and fetches, partitions it and makes the kernels the
//     initializer's run did not.
// Usage: device_bench [--quick]
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "minitf/device/api.h"
#include "minitf/graph/api.h"
#include "minitf/tensor/api.h"
#include "timing.h"
#include "tower_model.h"

namespace tf = minitf;

namespace {

using tf::bench::BestSeconds;
using tf::bench::DoNotOptimize;

constexpr int kChain = 1000;

// --8<-- [start:overhead]
// y = ((x + 1) + 1) + ...: chapter 2's chain of 1,000 tiny adds, run by
// both sessions on the same graph.
void BenchOverhead(bool quick) {
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
  std::vector<tf::Tensor> out;
  for (tf::SessionInterface* s :
       {static_cast<tf::SessionInterface*>(&local),
        static_cast<tf::SessionInterface*>(direct.get())}) {
    if (!s->Run(feeds, {y.name()}, {}, &out).ok()) std::abort();  // plans
  }
  const int reps = quick ? 20 : 200;
  double t_local = 1e30, t_direct = 1e30;
  for (int round = 0; round < 3; ++round) {  // interleaved against drift
    t_local = std::min(t_local, BestSeconds(reps, [&] {
                         local.Run(feeds, {y.name()}, {}, &out).ok();
                         DoNotOptimize(out[0].data<float>()[0]);
                       }));
    t_direct = std::min(t_direct, BestSeconds(reps, [&] {
                          direct->Run(feeds, {y.name()}, {}, &out).ok();
                          DoNotOptimize(out[0].data<float>()[0]);
                        }));
  }
  // --8<-- [end:overhead]
  const double local_us = t_local * 1e6 / kChain;
  const double direct_us = t_direct * 1e6 / kChain;
  std::printf("\nper-op overhead: a chain of %d adds on 1-element tensors\n",
              kChain);
  std::printf("  result check: %g (expect %d)\n", out[0].data<float>()[0],
              kChain);
  std::printf("  LocalSession (chapter 2)  : %7.3f us/op\n", local_us);
  std::printf("  DirectSession (chapter 4) : %7.3f us/op\n", direct_us);
  std::printf("  ratio direct / local      : %7.2f   (target <= 1.5)\n",
              direct_us / local_us);
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

// --8<-- [start:two_devices]
void BenchTwoDevices(bool quick) {
  const int length = quick ? 2 : 6;
  auto graph = std::make_shared<tf::Graph>();
  tf::graph_scope use(*graph);
  std::vector<tf::Output> ends = MatMulChains(length);
  const std::vector<std::string> fetches = {ends[0].name(), ends[1].name()};

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

  const int reps = quick ? 2 : 5;
  double seconds[4];
  const tf::SessionOptions* configs[4] = {
      &one_device, &two_devices, &one_device_parallel, &one_device_intra_op};
  for (int c = 0; c < 4; ++c) {
    auto session = tf::DirectSession::Create(*configs[c], graph).value();
    std::vector<tf::Tensor> out;
    if (!session->Run({}, fetches, {}, &out).ok()) std::abort();
    seconds[c] = BestSeconds(reps, [&] {
      session->Run({}, fetches, {}, &out).ok();
      DoNotOptimize(out[0].data<float>()[0]);
    });
  }
  // --8<-- [end:two_devices]
  std::printf(
      "\ntwo independent chains of %d matmuls 1024x1024, %u hardware "
      "threads\n",
      length, std::thread::hardware_concurrency());
  std::printf("  one device, one op at a time       : %8.1f ms\n",
              seconds[0] * 1e3);
  std::printf("  two CPU devices ({\"CPU\": 2})        : %8.1f ms\n",
              seconds[1] * 1e3);
  std::printf(
      "  speed-up of two devices            : %8.2f   (target >= 1.6)\n",
      seconds[0] / seconds[1]);
  std::printf("  one device, 2 inter-op threads     : %8.1f ms (%.2fx)\n",
              seconds[2] * 1e3, seconds[0] / seconds[2]);
  std::printf("  one device, 2 intra-op threads     : %8.1f ms (%.2fx)\n",
              seconds[3] * 1e3, seconds[0] / seconds[3]);
}

// --8<-- [start:tower_bytes]
void BenchTowerBytes() {
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
  std::printf("\nseed 001's tower program on 4 virtual GPUs: one run\n");
  std::printf("  result: %s\n", out[0].ToString().c_str());
  for (const auto& [pair, record] : session->GetTransferStats()) {
    std::printf("  %s -> %s: %lld tensor(s), %lld bytes, %lld copied\n",
                pair.first.c_str(), pair.second.c_str(),
                static_cast<long long>(record.tensors),
                static_cast<long long>(record.bytes),
                static_cast<long long>(record.bytes_copied));
  }
}

// --8<-- [start:planning]
// The first run of a signature places the nodes not yet placed, rewrites
// and cuts the graph and makes its kernels and executors; later runs reuse
// the plan. The difference is the planning. (Here the initializer's run has
// already placed every node, and made the kernels of the nodes it ran.)
void BenchPlanning() {
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
  auto session = tf::DirectSession::Create(options, graph).value();
  std::vector<tf::Tensor> out;
  tf::Status status = session->Run({}, {}, {init.name()}, &out);
  const double first = BestSeconds(
      1, [&] { status = session->Run(feeds, {loss.name()}, targets, &out); });
  if (!status.ok()) {
    std::printf("planning failed: %s\n", status.ToString().c_str());
    return;
  }
  const double cached = BestSeconds(
      3, [&] { session->Run(feeds, {loss.name()}, targets, &out).ok(); });
  // --8<-- [end:planning]
  std::printf(
      "\nplanning a training step of a %d-node model on CPU:0 and 2 "
      "virtual GPUs\n",
      graph->num_nodes());
  std::printf(
      "  first run (rewrite, partition, kernels, run)  : %7.1f ms\n"
      "    (the initializer's run before it placed the graph)\n",
      first * 1e3);
  std::printf("  a run on the cached plan                      : %7.1f ms\n",
              cached * 1e3);
  std::printf("  planning, the difference                      : %7.1f ms\n",
              (first - cached) * 1e3);
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  tf::kernels::SetNumThreads(1);
  BenchOverhead(quick);
  BenchTwoDevices(quick);
  BenchTowerBytes();
  BenchPlanning();
  return 0;
}
