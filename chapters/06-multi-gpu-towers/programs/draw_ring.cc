// The chapter's picture of a ring all-reduce, drawn from what one run did.
//
// Four virtual GPUs each hold a tensor of K = 1024 floats; ring_all_reduce
// (src/minitf/towers/all_reduce.h) sums them. One traced run returns the
// graph each device ran (RunMetadata::partition_graphs) and the times of
// its nodes (step_stats). Every transfer of the run is a _Send on one GPU
// and a _Recv on the next with the same tensor_name; the node that reads
// the _Recv says which step it was ("reduce_step1_chunk3_to2": the
// scatter-reduce's step 1, chunk 3, added on GPU:2), and the _Send's start
// and the _Recv's end say when it went. The picture has a column per step,
// a row per GPU and an arrow per transfer, labelled with its chunk and the
// time it arrived; the program prints the same log, and the bytes each GPU
// sent, from the session's transfer statistics, beside the model's
// 2(N−1)/N·K.
//   draw_ring [<file.svg>]
// Without a file it writes ring.svg in the temporary folder.
#include <minitf/minitf.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "minitf/device/session/direct_session.h"
#include "svg.h"

namespace tf = minitf;

namespace {

constexpr int kGpus = 4;
constexpr int kElements = 1024;

// One transfer of the run, as the log has it.
struct Transfer {
  int from = 0, to = 0;  // GPU indices
  bool gather = false;   // all-gather (else scatter-reduce)
  int step = 0, chunk = 0;
  int64_t sent_us = 0;     // the _Send's start, from the step's first node
  int64_t arrived_us = 0;  // the _Recv's end
};

int GpuIndex(const std::string& device) {
  const auto colon = device.rfind(':');
  return std::stoi(device.substr(colon + 1));
}

// --8<-- [start:log]
// The transfers of the run, from its partition graphs and step stats.
std::vector<Transfer> ReadLog(const tf::RunMetadata& metadata) {
  // When each node started and ended, by device and node name.
  std::map<std::pair<std::string, std::string>, std::pair<int64_t, int64_t>>
      times;
  int64_t first = INT64_MAX;
  for (const tf::DeviceStepStats& dev : metadata.step_stats.dev_stats) {
    for (const tf::NodeExecStats& n : dev.node_stats) {
      times[{dev.device, n.node_name}] = {
          n.all_start_micros, n.all_start_micros + n.all_end_rel_micros};
      first = std::min(first, n.all_start_micros);
    }
  }
  // Each _Send's start, by tensor_name and receiving device.
  std::map<std::pair<std::string, std::string>, int64_t> sent;
  const std::regex step_name(".*(reduce|gather)_step(\\d+)_chunk(\\d+)_to\\d+");
  std::vector<Transfer> log;
  for (const tf::GraphDef& part : metadata.partition_graphs) {
    for (const tf::NodeDef& n : part.node()) {
      if (n.op() == "_Send") {
        sent[{n.attr().at("tensor_name").s(), n.attr().at("recv_device").s()}] =
            times[{n.device(), n.name()}].first - first;
      }
    }
  }
  for (const tf::GraphDef& part : metadata.partition_graphs) {
    for (const tf::NodeDef& reader : part.node()) {
      std::smatch m;
      if (!std::regex_match(reader.name(), m, step_name)) continue;
      // The reader's input that came from the GPU before: a _Recv.
      for (const tf::NodeDef& recv : part.node()) {
        if (recv.op() != "_Recv" ||
            std::find(reader.input().begin(), reader.input().end(),
                      recv.name()) == reader.input().end()) {
          continue;
        }
        const std::string& from = recv.attr().at("send_device").s();
        if (from.find("GPU") == std::string::npos) continue;
        Transfer t;
        t.from = GpuIndex(from);
        t.to = GpuIndex(recv.device());
        t.gather = m[1] == "gather";
        t.step = std::stoi(m[2]);
        t.chunk = std::stoi(m[3]);
        t.sent_us = sent[{recv.attr().at("tensor_name").s(), recv.device()}];
        t.arrived_us = times[{recv.device(), recv.name()}].second - first;
        log.push_back(t);
      }
    }
  }
  std::sort(log.begin(), log.end(), [](const Transfer& a, const Transfer& b) {
    return std::tie(a.gather, a.step, a.from) <
           std::tie(b.gather, b.step, b.from);
  });
  return log;
}
// --8<-- [end:log]

// A column per step (scatter-reduce, then all-gather), a row per GPU.
std::string Draw(const std::vector<Transfer>& log) {
  constexpr double kLeft = 90, kTop = 70, kColumn = 120, kRow = 64;
  constexpr int kSteps = 2 * (kGpus - 1);
  draw::Svg svg(static_cast<int>(kLeft + kSteps * kColumn + 30),
                static_cast<int>(kTop + kGpus * kRow + 80));
  const char* kReduce = "#d9822b";
  const char* kGather = "#2b6cd9";
  svg.Text(kLeft, 22,
           "ring all-reduce of 4 x 1024 floats on 4 virtual GPUs, as run",
           "font-weight=\"bold\"");
  svg.Text(kLeft, 42, "scatter-reduce: chunk added on the next GPU",
           std::string("fill=\"") + kReduce + "\"");
  svg.Text(kLeft + 3 * kColumn, 42, "all-gather: chunk copied to the next GPU",
           std::string("fill=\"") + kGather + "\"");
  auto row_y = [&](int gpu) { return kTop + gpu * kRow + kRow / 2; };
  for (int s = 0; s < kSteps; ++s) {
    const double x = kLeft + s * kColumn;
    svg.Rect(x + 2, kTop - 6, kColumn - 4, kGpus * kRow + 12,
             s < kGpus - 1 ? "#fdf3ea" : "#eef3fb", "none");
    svg.Text(x + 8, kTop + kGpus * kRow + 22,
             (s < kGpus - 1 ? "reduce step " : "gather step ") +
                 std::to_string(s % (kGpus - 1)));
    // When the step's chunks went: the first _Send to the last arrival.
    int64_t from = INT64_MAX, to = 0;
    for (const Transfer& t : log) {
      if ((t.gather ? kGpus - 1 : 0) + t.step != s) continue;
      from = std::min(from, t.sent_us);
      to = std::max(to, t.arrived_us);
    }
    svg.Text(x + 8, kTop + kGpus * kRow + 38,
             std::to_string(from) + "-" + std::to_string(to) + " us",
             "font-size=\"11\" fill=\"#555\"");
  }
  for (int g = 0; g < kGpus; ++g) {
    svg.Text(10, row_y(g) + 4, "GPU:" + std::to_string(g));
    svg.Line(kLeft, row_y(g), kLeft + kSteps * kColumn, row_y(g), "#ccc", 1);
  }
  for (const Transfer& t : log) {
    const int column = (t.gather ? kGpus - 1 : 0) + t.step;
    const double x = kLeft + column * kColumn + 18 + 22 * t.from;
    const char* color = t.gather ? kGather : kReduce;
    // The ring's last hop, GPU:3 to GPU:0, goes up.
    svg.Line(x, row_y(t.from), x + 14, row_y(t.to) + (t.to > t.from ? -8 : 8),
             color, 2, "marker-end=\"url(#arrow)\"");
    svg.Text(x - 6, row_y(t.from) + (t.to > t.from ? -6 : 16),
             std::string("c").append(std::to_string(t.chunk)),
             std::string("font-size=\"11\" fill=\"") + color + "\"");
  }
  svg.Text(kLeft, kTop + kGpus * kRow + 64,
           "Each arrow: one _Send/_Recv of 1 KiB in the run's partition "
           "graphs; cN: chunk N; times from the run's step stats.",
           "font-size=\"11\" fill=\"#555\"");
  return svg.Finish();
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path = draw::OutputPath(argc, argv, "ring.svg");
  // --8<-- [start:run]
  std::vector<tf::Output> grads;
  for (int d = 0; d < kGpus; ++d) {
    tf::device_scope on("/gpu:" + std::to_string(d));
    grads.push_back(tf::fill({kElements}, tf::Tensor(1.f + d), "grad"));
  }
  std::vector<tf::Output> summed = tf::ring_all_reduce(grads);
  tf::Session sess(tf::ConfigProto{.gpu_options = {.virtual_gpus = kGpus}});
  std::vector<tf::Fetch> fetches(summed.begin(), summed.end());
  sess.run(fetches);  // places, partitions and starts the threads, untraced
  auto* direct = dynamic_cast<tf::DirectSession*>(sess.core());
  const tf::TransferTable before = direct->GetTransferStats();
  tf::RunMetadata metadata;
  auto result =
      sess.run(fetches, {},
               tf::RunOptions{.trace_level = tf::RunOptions::FULL_TRACE,
                              .output_partition_graphs = true},
               &metadata);
  // --8<-- [end:run]
  std::cout << "sum on GPU:0, first elements: " << result[0].data<float>()[0]
            << " (1+2+3+4 = 10)\n\n";

  const std::vector<Transfer> log = ReadLog(metadata);
  std::cout
      << "phase          step  from   to     chunk  sent(us)  arrived(us)\n";
  for (const Transfer& t : log) {
    std::printf("%-14s %4d  GPU:%d  GPU:%d  %5d  %8lld  %11lld\n",
                t.gather ? "all-gather" : "scatter-reduce", t.step, t.from,
                t.to, t.chunk, static_cast<long long>(t.sent_us),
                static_cast<long long>(t.arrived_us));
  }
  std::cout << "\nbytes each GPU sent in the traced run (model: 2(N-1)/N*K = "
            << tf::RingBytesSent(kElements, 4, kGpus, 0) << ")\n";
  for (const auto& [route, record] : direct->GetTransferStats()) {
    if (route.first.find("GPU") == std::string::npos ||
        route.second.find("GPU") == std::string::npos) {
      continue;
    }
    const auto it = before.find(route);
    const int64_t bytes = record.bytes_copied -
                          (it == before.end() ? 0 : it->second.bytes_copied);
    std::cout << "  GPU:" << GpuIndex(route.first)
              << " -> GPU:" << GpuIndex(route.second) << "  " << bytes
              << " bytes\n";
  }
  if (log.size() != 2u * kGpus * (kGpus - 1)) {
    std::cerr << "draw_ring: the log has " << log.size()
              << " ring transfers, not " << 2 * kGpus * (kGpus - 1) << "\n";
    return 1;
  }
  return draw::WriteFile("draw_ring", path, Draw(log)) ? 0 : 1;
}
