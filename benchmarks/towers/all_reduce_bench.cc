// Gather to the CPU against the ring all-reduce, on virtual GPUs.
//
// For N = 2 and 4 virtual GPUs and one float tensor per GPU of 1 KiB to
// 16 MiB, each all-reduce runs as its own step (the outputs as a target, so
// nothing is fetched; the inputs are variables, read in place), and the
// program prints, side by side, for each:
//   - the step's median wall time over several runs, and the ratio
//     gather/ring;
//   - the bytes moved per device, from the session's transfer statistics:
//     for the gather, what the CPU received and sent (N·K each) and what one
//     GPU sent (K); for the ring, what one GPU sent (2(N−1)/N·K).
// Nothing is asserted: the tests check the bytes (tests/towers/).
// A virtual GPU's copy is a memcpy, so the times measure the graph's work
// (kernels, Send/Recv, copies) on this machine's cores, not a PCIe or NVLink.
// The table is printed, and written to $MINITF_RESULTS_DIR/all_reduce_bench.md
// when that is set (benchmarks/tensor/results.h).
// Usage: all_reduce_bench [--quick]
#include <minitf/minitf.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "minitf/device/session/direct_session.h"
#include "results.h"
#include "timing.h"

namespace tf = minitf;

namespace {

struct Bytes {
  int64_t cpu_in = 0, cpu_out = 0;  // into and out of the CPU
  int64_t gpu0_sent = 0;            // out of GPU:0, to any device
};

Bytes Moved(const tf::TransferTable& before, const tf::TransferTable& after) {
  Bytes b;
  for (const auto& [route, record] : after) {
    const auto it = before.find(route);
    const int64_t moved = record.bytes_copied -
                          (it == before.end() ? 0 : it->second.bytes_copied);
    if (route.second.find("CPU:0") != std::string::npos) b.cpu_in += moved;
    if (route.first.find("CPU:0") != std::string::npos) b.cpu_out += moved;
    if (route.first.find("GPU:0") != std::string::npos) b.gpu0_sent += moved;
  }
  return b;
}

std::string Size(int64_t bytes) {
  return bytes >= (1 << 20) ? std::to_string(bytes >> 20) + " MiB"
                            : std::to_string(bytes >> 10) + " KiB";
}

// `moved` bytes in units of K, one tensor's bytes: "1.50 K".
std::string InK(int64_t moved, int64_t bytes) {
  return tf::bench::Fixed(static_cast<double>(moved) / bytes, 2) + " K";
}

void Bench(int n, int64_t bytes, bool quick, tf::bench::Results& results) {
  tf::Graph graph;
  tf::graph_scope use(graph);
  const int64_t elements = bytes / 4;
  std::vector<tf::Output> grads;
  for (int d = 0; d < n; ++d) {
    tf::device_scope on("/gpu:" + std::to_string(d));
    tf::Variable v(tf::fill({elements}, tf::Tensor(1.f + d)),
                   "grad_" + std::to_string(d));
    grads.push_back(v.value());
  }
  std::vector<tf::Operation> gather_ops, ring_ops;
  for (const tf::Output& o : tf::all_reduce_gather(grads, "/cpu:0")) {
    gather_ops.push_back(o.op());
  }
  for (const tf::Output& o : tf::ring_all_reduce(grads)) {
    ring_ops.push_back(o.op());
  }
  tf::Operation gather = tf::group(gather_ops, "gather");
  tf::Operation ring = tf::group(ring_ops, "ring");
  tf::Session sess(tf::ConfigProto{.gpu_options = {.virtual_gpus = n}});
  sess.run(tf::global_variables_initializer());
  auto* direct = dynamic_cast<tf::DirectSession*>(sess.core());
  const int reps = quick ? 2 : (bytes >= (4 << 20) ? 9 : 21);
  std::vector<double> ms[2];
  Bytes moved[2];
  int i = 0;
  for (const tf::Operation& op : {gather, ring}) {
    sess.run(op);  // plans
    const tf::TransferTable before = direct->GetTransferStats();
    sess.run(op);
    moved[i] = Moved(before, direct->GetTransferStats());
    for (int r = 0; r < reps; ++r) {
      ms[i].push_back(1e3 * tf::bench::BestSeconds(1, [&] { sess.run(op); }));
    }
    ++i;
  }
  const double gather_ms = tf::bench::Median(ms[0]);
  const double ring_ms = tf::bench::Median(ms[1]);
  results.Row({std::to_string(n), Size(bytes), tf::bench::Fixed(gather_ms, 3),
               tf::bench::Fixed(ring_ms, 3),
               tf::bench::Fixed(gather_ms / ring_ms, 2),
               InK(moved[0].cpu_in, bytes), InK(moved[0].cpu_out, bytes),
               InK(moved[0].gpu0_sent, bytes), InK(moved[1].gpu0_sent, bytes)});
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  tf::bench::Results results("all_reduce_bench", argc, argv);
  results.Table(
      "All-reduce of one float tensor per virtual GPU: gather to /cpu:0 "
      "against ring",
      {"N", "size", "gather, ms", "ring, ms", "gather ÷ ring", "gather: CPU in",
       "CPU out", "GPU:0 out", "ring: GPU:0 out"});
  std::vector<int64_t> sizes = {1 << 10, 16 << 10, 256 << 10,
                                1 << 20, 4 << 20,  16 << 20};
  if (quick) sizes = {1 << 10, 16 << 10};
  for (int n : {2, 4}) {
    for (int64_t bytes : sizes) Bench(n, bytes, quick, results);
  }
  results.Note(quick ? "Times: the median of one step's wall time over 2 runs."
                     : "Times: the median of one step's wall time over 21 "
                       "runs (9 from 4 MiB on).");
  results.Note(
      "Size: one tensor's bytes, K. Bytes moved: one step's, from the "
      "session's transfer statistics, in units of K.");
  return results.Finish();
}
