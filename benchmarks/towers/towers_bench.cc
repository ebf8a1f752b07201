// What towers buy on this machine: chapter 6's measured section.
//
// Chapter 3's MLP (784-256-10, ReLU, softmax cross-entropy, gradient
// descent) trains on 200 examples per step in three ways, each a session of
// its own in this process:
//   - one device, the CPU, with one intra-op thread: the baseline;
//   - one device with two intra-op threads: each large op split over two
//     cores;
//   - two towers of 100 examples on two virtual GPUs, the variables on the
//     CPU, the gradients averaged there: the towers run at once on the two
//     inter-op threads, each op on one thread.
// The three take turns, round after round, so that whatever else the
// machine does falls on all of them alike; each figure is the median over
// the rounds, with its range. Two tables:
//   - throughput: examples per second, and each configuration's ratio to
//     the two one-device ones;
//   - the step's work: each node's kernel time at its best over many traced
//     steps, summed by device, against the step's time: what a step costs
//     outside its kernels.
// Printed, and written to $MINITF_RESULTS_DIR/towers_bench.md when that is
// set (benchmarks/tensor/results.h). Nothing is asserted.
//
// With --timeline FILE it measures nothing: it traces one step of the two
// towers and draws it as an SVG (chapter 6's picture of two towers at once).
// Usage: towers_bench [--quick] | towers_bench --timeline FILE
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "minitf/minitf.h"
#include "results.h"
#include "svg.h"
#include "timing.h"

namespace tf = minitf;

namespace {

constexpr int kBatch = 200;  // examples per step, over all towers

// --8<-- [start:towers]
// The MLP's training step on `towers` virtual GPUs (0: on the CPU alone),
// kBatch examples in all: the variables on the CPU, one tower per GPU
// reusing them, the towers' gradients averaged on the CPU.
struct TowerModel {
  std::vector<tf::Output> xs, ys;
  tf::Operation train_op;

  explicit TowerModel(int towers) {
    const int n = towers == 0 ? 1 : towers;
    std::vector<std::vector<tf::Output>> tower_grads;
    std::vector<tf::Variable> vars;
    for (int i = 0; i < n; ++i) {
      tf::device_scope on(towers == 0 ? "/cpu:0" : "/gpu:" + std::to_string(i));
      tf::name_scope tower("tower_" + std::to_string(i));
      tf::Output x = tf::placeholder(tf::float32, {tf::None, 784}, "x");
      tf::Output y = tf::placeholder(tf::float32, {tf::None, 10}, "y");
      tf::variable_scope model("model", /*reuse=*/i > 0);
      tf::Output logits;
      {
        tf::device_scope variables_on_cpu("/cpu:0");
        vars = {tf::get_variable("w1", {784, 256}),
                tf::get_variable("b1", {256}, tf::zeros_initializer()),
                tf::get_variable("w2", {256, 10}),
                tf::get_variable("b2", {10}, tf::zeros_initializer())};
      }
      tf::Output hidden =
          tf::nn::relu(tf::matmul(x, vars[0].value()) + vars[1].value());
      logits = tf::matmul(hidden, vars[2].value()) + vars[3].value();
      tf::Output loss =
          tf::reduce_mean(tf::nn::softmax_cross_entropy_with_logits(y, logits));
      std::vector<tf::Output> values;
      for (tf::Variable& v : vars) values.push_back(v.value());
      tower_grads.push_back(tf::gradients({loss}, values));
      xs.push_back(x);
      ys.push_back(y);
    }
    // One device needs no mean; towers take the chapter's (section 3).
    tf::device_scope on_cpu("/cpu:0");
    const std::vector<tf::Output> grads =
        n == 1 ? tower_grads[0] : tf::average_gradients(tower_grads);
    std::vector<std::pair<tf::Output, tf::Variable>> averaged;
    for (size_t v = 0; v < vars.size(); ++v) {
      averaged.emplace_back(grads[v], vars[v]);
    }
    train_op =
        tf::train::GradientDescentOptimizer(0.1).apply_gradients(averaged);
  }
};
// --8<-- [end:towers]

tf::Tensor RandomTensor(int64_t rows, int64_t cols, bool one_hot,
                        uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> unit(0.f, 1.f);
  std::vector<float> v(rows * cols, 0.f);
  for (int64_t r = 0; r < rows; ++r) {
    if (one_hot) {
      v[r * cols + gen() % cols] = 1.f;
    } else {
      for (int64_t c = 0; c < cols; ++c) v[r * cols + c] = unit(gen);
    }
  }
  return tf::Tensor::FromVector<float>(v, {rows, cols}).value();
}

// A session of the model on `towers` virtual GPUs (0: the CPU alone) with
// `intra` intra-op threads per device and `inter` inter-op threads, its
// variables initialized, a batch for every tower, three steps run.
struct Run {
  TowerModel model;
  tf::Session sess;
  tf::FeedDict feeds;

  Run(int towers, int intra, int inter)
      : model(towers), sess(Config(towers, intra, inter)) {
    sess.run(tf::global_variables_initializer());
    const int per_tower = kBatch / static_cast<int>(model.xs.size());
    for (size_t i = 0; i < model.xs.size(); ++i) {
      feeds.push_back(
          {model.xs[i], RandomTensor(per_tower, 784, false, 2 * i)});
      feeds.push_back(
          {model.ys[i], RandomTensor(per_tower, 10, true, 2 * i + 1)});
    }
    for (int s = 0; s < 3; ++s) sess.run(model.train_op, feeds);  // warm up
  }
  static tf::ConfigProto Config(int towers, int intra, int inter) {
    tf::ConfigProto config;
    config.intra_op_parallelism_threads = intra;
    config.inter_op_parallelism_threads = inter;
    config.gpu_options.virtual_gpus = towers;
    return config;
  }
};

// Examples per second of `run`: the best of three bursts of `steps` steps.
double ExamplesPerSecond(Run& run, int steps) {
  const double seconds = tf::bench::BestSeconds(3, [&] {
    for (int s = 0; s < steps; ++s) run.sess.run(run.model.train_op, run.feeds);
  });
  return steps * kBatch / seconds;
}

// A step's work, in milliseconds: each node's kernel time at its best over
// `reps` traced steps, summed by device. The best of many steps, node by
// node, leaves out the waits (for an input, a thread, a core), so the sum is
// the work itself. A GPU's _Recv at its best is the copy it made; the CPU's
// _Recvs, which wait for the towers' gradients every step, are left out
// (the towers' _Sends make those copies).
// --8<-- [start:shortest_step]
struct StepWork {
  std::map<std::string, double> by_device;
  double matmul = 0;  // the MatMuls' share, over all devices

  // The shortest step this work allows. The towers' GPUs can work at once;
  // what the CPU device does (the copies of the variables out, the mean, the
  // update) comes before or after both towers, so no schedule does better
  // than the slower tower plus the CPU's part.
  double ShortestStep() const {
    double gpus = 0, cpu = 0;
    for (const auto& [device, ms] : by_device) {
      if (device.rfind("GPU", 0) == 0) {
        gpus = std::max(gpus, ms);
      } else {
        cpu += ms;
      }
    }
    return gpus + cpu;
  }
};
// --8<-- [end:shortest_step]

StepWork BestKernelTime(Run& run, int reps) {
  struct Best {
    std::string device;
    int64_t us;
    bool matmul;
  };
  std::map<std::string, Best> best;  // by node
  for (int r = 0; r < reps; ++r) {
    tf::RunMetadata metadata;
    run.sess.run({run.model.train_op}, run.feeds,
                 tf::RunOptions{.trace_level = tf::RunOptions::FULL_TRACE},
                 &metadata);
    for (const tf::DeviceStepStats& d : metadata.step_stats.dev_stats) {
      const std::string device = d.device.substr(d.device.rfind("device:") + 7);
      for (const tf::NodeExecStats& n : d.node_stats) {
        if (device == "CPU:0" &&
            n.timeline_label.find(" = _Recv(") != std::string::npos) {
          continue;
        }
        const int64_t us = n.op_end_rel_micros - n.op_start_rel_micros;
        const bool matmul =
            n.timeline_label.find(" = MatMul(") != std::string::npos;
        auto [it, fresh] =
            best.try_emplace(n.node_name, Best{device, us, matmul});
        it->second.us = std::min(it->second.us, us);
      }
    }
  }
  StepWork work;
  for (const auto& [node, b] : best) {
    work.by_device[b.device] += b.us / 1e3;
    if (b.matmul) work.matmul += b.us / 1e3;
  }
  return work;
}

}  // namespace

// --8<-- [start:timeline]
// One traced step of the two towers as an SVG: a row per device, the nodes
// as boxes from the executor taking them up to its being done, coloured by
// what they do. Rows are devices, not threads: a device's executor runs
// its nodes on whichever inter-op thread is free.
std::string TowerTimeline(const tf::StepStats& stats) {
  int64_t t0 = INT64_MAX, t1 = 0;
  for (const tf::DeviceStepStats& d : stats.dev_stats) {
    for (const tf::NodeExecStats& n : d.node_stats) {
      t0 = std::min(t0, n.all_start_micros);
      t1 = std::max(t1, n.all_start_micros + n.all_end_rel_micros);
    }
  }
  std::vector<const tf::DeviceStepStats*> rows;
  for (const tf::DeviceStepStats& d : stats.dev_stats) rows.push_back(&d);
  std::sort(rows.begin(), rows.end(), [](auto* a, auto* b) {
    return a->device > b->device;  // GPU:0, GPU:1, then CPU:0
  });
  const double left = 90, right = 20, width = 960, row_h = 46, top = 40;
  const double height = top + rows.size() * row_h + 80;
  const double span = std::max<int64_t>(1, t1 - t0);
  auto px = [&](int64_t t) {
    return left + (t - t0) / span * (width - left - right);
  };
  // The op of a node, from its timeline label "name = Op(inputs)".
  auto op_of = [](const tf::NodeExecStats& n) {
    const std::string& l = n.timeline_label;
    const size_t eq = l.find(" = ");
    const size_t start = eq == std::string::npos ? 0 : eq + 3;
    return l.substr(start, l.find('(', start) - start);
  };
  const std::map<std::string, std::string> colors = {
      {"MatMul", "#3b6fb6"}, {"_Send", "#e08a2c"},
      {"_Recv", "#f4c27a"},  {"ApplyGradientDescent", "#4a9a5b"},
      {"AddN", "#8a5fb3"},
  };
  draw::Svg svg(static_cast<int>(width), static_cast<int>(height));
  svg.Text(10, 20,
           "One traced training step of two towers (chapter 3's MLP, 100 "
           "examples each) on two virtual GPUs");
  for (size_t r = 0; r < rows.size(); ++r) {
    const double y = top + r * row_h;
    const std::string& device = rows[r]->device;
    svg.Text(left - 8, y + 24, device.substr(device.rfind("device:") + 7),
             "text-anchor=\"end\"");
    svg.Line(left, y + row_h - 4, width - right, y + row_h - 4, "#eee", 1);
    for (const tf::NodeExecStats& n : rows[r]->node_stats) {
      const double x0 = px(n.all_start_micros);
      const double x1 =
          std::max(x0 + 1, px(n.all_start_micros + n.all_end_rel_micros));
      auto c = colors.find(op_of(n));
      const bool recv = c != colors.end() && c->first == "_Recv";
      // A _Recv's box is its wait; it goes under the row's other nodes.
      svg.Rect(x0, y + (recv ? 26 : 6), x1 - x0, recv ? 10 : 18,
               c == colors.end() ? "#c8c8c8" : c->second, "none",
               "opacity=\"0.85\"");
    }
  }
  const double axis_y = top + rows.size() * row_h + 14;
  for (int i = 0; i <= 5; ++i) {
    const int64_t t = t0 + static_cast<int64_t>(span * i / 5);
    svg.Text(px(t), axis_y, std::to_string(t - t0), "text-anchor=\"middle\"");
  }
  svg.Text((left + width - right) / 2, axis_y + 18,
           "microseconds since the step's first node",
           "text-anchor=\"middle\"");
  double x = left;
  for (const auto& [op, color] : colors) {
    svg.Rect(x, axis_y + 34, 12, 12, color, "none");
    svg.Text(x + 16, axis_y + 44, op);
    x += 40 + 8 * op.size();
  }
  svg.Rect(x, axis_y + 34, 12, 12, "#c8c8c8", "none");
  svg.Text(x + 16, axis_y + 44, "other ops");
  return svg.Finish();
}
// --8<-- [end:timeline]

int main(int argc, char** argv) try {
  if (argc == 3 && std::strcmp(argv[1], "--timeline") == 0) {
    Run run(/*towers=*/2, /*intra=*/1, /*inter=*/2);
    tf::RunMetadata metadata;
    run.sess.run({run.model.train_op}, run.feeds,
                 tf::RunOptions{.trace_level = tf::RunOptions::FULL_TRACE},
                 &metadata);
    return draw::WriteFile(argv[0], argv[2], TowerTimeline(metadata.step_stats))
               ? 0
               : 1;
  }
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const int rounds = quick ? 1 : 5;
  const int steps = quick ? 5 : 40;
  const int traced = quick ? 10 : 50;
  const struct {
    const char* name;
    int towers, intra, inter;
  } configs[] = {
      {"1 device (CPU), 1 intra-op thread", 0, 1, 1},
      {"1 device (CPU), 2 intra-op threads", 0, 2, 1},
      {"2 towers × 100 on 2 virtual GPUs, 1 thread each", 2, 1, 2},
  };
  constexpr int kConfigs = 3;
  // Per configuration, one value a round.
  std::vector<double> examples[kConfigs], step_ms[kConfigs], shortest[kConfigs],
      outside[kConfigs], matmul[kConfigs];
  std::vector<std::map<std::string, double>> work_by_device[kConfigs];
  for (int round = 0; round < rounds; ++round) {
    for (int c = 0; c < kConfigs; ++c) {
      tf::reset_default_graph();
      Run run(configs[c].towers, configs[c].intra, configs[c].inter);
      const double eps = ExamplesPerSecond(run, steps);
      const StepWork work = BestKernelTime(run, traced);
      examples[c].push_back(eps);
      step_ms[c].push_back(kBatch / eps * 1e3);
      shortest[c].push_back(work.ShortestStep());
      outside[c].push_back(step_ms[c].back() - work.ShortestStep());
      matmul[c].push_back(work.matmul);
      work_by_device[c].push_back(work.by_device);
    }
  }
  auto ratio = [&](int c, int base) {
    std::vector<double> r;
    for (int i = 0; i < rounds; ++i)
      r.push_back(examples[c][i] / examples[base][i]);
    return tf::bench::MedianRange(r, 2) + "×";
  };
  using tf::bench::MedianRange;
  tf::bench::Results results("towers_bench", argc, argv);
  results.Table("Training throughput: chapter 3's MLP, " +
                    std::to_string(kBatch) + " examples a step",
                {"configuration", "examples/s", "÷ 1 thread", "÷ 2 threads",
                 "ms a step"});
  for (int c = 0; c < kConfigs; ++c) {
    results.Row({configs[c].name, MedianRange(examples[c], 0), ratio(c, 0),
                 ratio(c, 1), MedianRange(step_ms[c], 2)});
  }
  results.Note("Median of " + std::to_string(rounds) +
               " rounds (range in brackets); in each round the three take "
               "turns, each timed as the best of three runs of " +
               std::to_string(steps) + " steps.");
  results.Table("A step's work: kernel time against step time, ms",
                {"configuration", "kernels by device", "MatMuls",
                 "shortest step", "step", "outside the kernels"});
  for (int c = 0; c < kConfigs; ++c) {
    std::string by_device;
    for (const auto& [device, ms] : work_by_device[c][0]) {
      std::vector<double> per_round;
      for (const auto& w : work_by_device[c]) per_round.push_back(w.at(device));
      by_device += (by_device.empty() ? "" : ", ") + device + " " +
                   MedianRange(per_round, 2);
    }
    results.Row({configs[c].name, by_device, MedianRange(matmul[c], 2),
                 MedianRange(shortest[c], 2), MedianRange(step_ms[c], 2),
                 MedianRange(outside[c], 2)});
  }
  results.Note(
      "Kernel time: each node's at its best over " + std::to_string(traced) +
      " traced steps, summed by device (the waits left out); MatMuls: their "
      "share, over all devices. Shortest step: what the kernels allow, the "
      "slower tower plus the CPU's part for the towers. Step: from the "
      "throughput above. Median of the same rounds (range in brackets).");
  return results.Finish();
} catch (const tf::errors::OpError& e) {
  std::fprintf(stderr, "%s\n", e.status().ToString().c_str());
  return 1;
}
