// What towers buy on this machine, measured in one run.
//
// Chapter 3's MLP (784-256-10, ReLU, softmax cross-entropy, gradient
// descent) trains on 200 examples per step in three ways, each a session of
// its own in this process:
//   - one device, the CPU, with one intra-op thread: the baseline;
//   - one device with two intra-op threads: each op split over two cores;
//   - two towers of 100 examples on two virtual GPUs, the variables on the
//     CPU, the gradients averaged there: the towers run at once on the two
//     inter-op threads, each op on one thread (and, for the record, the
//     same with three inter-op threads).
// The figure is examples per second; the targets (issue and chapter 6) are
// towers >= 1.7x the one-thread device, and >= 1.0x the two-thread device.
// Printed, never asserted. Then one traced step of one device and of the
// towers (best of five): the MatMuls' kernel time summed over the devices,
// and the step's span. Last, each node's kernel time at its best over many
// traced steps, summed by device, and the ratios that work allows: figures
// that other processes on the machine disturb far less than throughput.
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

// Examples per second of Run(towers, intra, inter).
double ExamplesPerSecond(int towers, int intra, int inter, int steps) {
  tf::reset_default_graph();
  Run run(towers, intra, inter);
  tf::Session& sess = run.sess;
  const TowerModel& model = run.model;
  const tf::FeedDict& feeds = run.feeds;
  const double seconds = tf::bench::BestSeconds(3, [&] {
    for (int s = 0; s < steps; ++s) sess.run(model.train_op, feeds);
  });
  return steps * kBatch / seconds;
}

}  // namespace

// The kernel time of one traced step's MatMuls, summed over the devices,
// and the step's span, in milliseconds, as the best of `reps` steps: the
// same work whatever the configuration, so a sum that grows when towers run
// at once says the cores, not the schedule, slow them.
std::pair<double, double> MatMulAndStepMs(Run& run, int reps) {
  double best_matmul = 1e30, best_span = 1e30;
  for (int r = 0; r < reps; ++r) {
    tf::RunMetadata metadata;
    run.sess.run({run.model.train_op}, run.feeds,
                 tf::RunOptions{.trace_level = tf::RunOptions::FULL_TRACE},
                 &metadata);
    int64_t matmul = 0, t0 = INT64_MAX, t1 = 0;
    for (const tf::DeviceStepStats& d : metadata.step_stats.dev_stats) {
      for (const tf::NodeExecStats& n : d.node_stats) {
        t0 = std::min(t0, n.all_start_micros);
        t1 = std::max(t1, n.all_start_micros + n.all_end_rel_micros);
        if (n.timeline_label.find(" = MatMul(") != std::string::npos) {
          matmul += n.op_end_rel_micros - n.op_start_rel_micros;
        }
      }
    }
    best_matmul = std::min(best_matmul, matmul / 1e3);
    best_span = std::min(best_span, (t1 - t0) / 1e3);
  }
  return {best_matmul, best_span};
}

// --8<-- [start:serial_share]
// Each node's kernel time at its best over `reps` traced steps, summed by
// device, in milliseconds: the step's work with the waits left out, and with
// little of what other processes' threads take from it, since the best of
// many steps is kept node by node. A GPU's _Recv at its best is the copy it
// made, the variable already sent; the CPU's _Recvs, which wait for the
// towers' gradients every step, are left out (the towers' _Sends make those
// copies). The towers' two GPUs can run at once;
// what the CPU device does (the copies of the variables out, the mean, the
// update) comes before or after both towers, so no schedule does better
// than the slower tower plus the CPU's part.
std::map<std::string, double> BestKernelMsByDevice(Run& run, int reps) {
  std::map<std::string, std::pair<std::string, int64_t>> best;  // by node
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
        auto [it, fresh] = best.try_emplace(n.node_name, device, us);
        it->second.second = std::min(it->second.second, us);
      }
    }
  }
  std::map<std::string, double> by_device;
  for (const auto& [node, device_us] : best) {
    by_device[device_us.first] += device_us.second / 1e3;
  }
  return by_device;
}
// --8<-- [end:serial_share]

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
  const int steps = quick ? 5 : 40;
  std::printf("chapter 3's MLP (784-256-10), %d examples per step, %d steps\n",
              kBatch, steps);
  const double one_thread = ExamplesPerSecond(0, 1, 1, steps);
  const double two_threads = ExamplesPerSecond(0, 2, 1, steps);
  const double towers = ExamplesPerSecond(2, 1, 2, steps);
  // A third inter-op thread: whether the towers wait for a thread.
  const double towers_3 = ExamplesPerSecond(2, 1, 3, steps);
  std::printf("%-44s %12s %10s\n", "configuration", "examples/s", "ratio");
  std::printf("%-44s %12.0f %10s\n", "1 device (CPU), 1 intra-op thread",
              one_thread, "1.00x");
  std::printf("%-44s %12.0f %9.2fx\n", "1 device (CPU), 2 intra-op threads",
              two_threads, two_threads / one_thread);
  std::printf("%-44s %12.0f %9.2fx\n",
              "2 towers x 100 on 2 virtual GPUs, 1 thread each", towers,
              towers / one_thread);
  std::printf("%-44s %12.0f %9.2fx\n", "  the same, 3 inter-op threads",
              towers_3, towers_3 / one_thread);
  std::printf("towers vs 1 thread:  %.2fx (target >= 1.7)\n",
              towers / one_thread);
  std::printf("towers vs 2 threads: %.2fx (target >= 1.0)\n",
              towers / two_threads);
  // Where a traced step's time goes: the MatMuls' kernel time summed over
  // the devices, against the step's span.
  std::printf("%-44s %12s %10s\n", "one traced step (best of 5)", "MatMuls, ms",
              "step, ms");
  const struct {
    const char* name;
    int towers, intra, inter;
  } traced[] = {{"1 device (CPU), 1 intra-op thread", 0, 1, 1},
                {"2 towers x 100 on 2 virtual GPUs", 2, 1, 2}};
  for (const auto& c : traced) {
    tf::reset_default_graph();
    Run run(c.towers, c.intra, c.inter);
    const auto [matmul, span] = MatMulAndStepMs(run, 5);
    std::printf("%-44s %12.2f %10.2f\n", c.name, matmul, span);
  }
  // The step's work by device, each node at its best over many traced
  // steps, and the ratios of those kernel times: kernels only, so not a
  // bound on the ratios of throughput above (chapter 6, section 6).
  const int reps = quick ? 10 : 50;
  std::printf("kernel time by device, each node's best of %d steps, ms\n",
              reps);
  // Each in a session of its own, made and gone in turn.
  auto best_of = [reps](int towers, int intra, int inter) {
    tf::reset_default_graph();
    Run run(towers, intra, inter);
    return BestKernelMsByDevice(run, reps);
  };
  std::map<std::string, double> one = best_of(0, 1, 1);
  std::map<std::string, double> split = best_of(0, 2, 1);
  std::map<std::string, double> two = best_of(2, 1, 2);
  std::printf("  1 device, 1 intra-op thread:  CPU:0 %.2f\n", one["CPU:0"]);
  std::printf("  1 device, 2 intra-op threads: CPU:0 %.2f\n", split["CPU:0"]);
  std::printf("  2 towers: GPU:0 %.2f, GPU:1 %.2f, CPU:0 %.2f\n", two["GPU:0"],
              two["GPU:1"], two["CPU:0"]);
  // The towers' shortest step: the slower tower, then the CPU's part.
  const double towers_ms = std::max(two["GPU:0"], two["GPU:1"]) + two["CPU:0"];
  std::printf("  1 thread's kernels / towers' shortest step:  %.2fx\n",
              one["CPU:0"] / towers_ms);
  std::printf("  2 threads' kernels / towers' shortest step: %.2fx\n",
              split["CPU:0"] / towers_ms);
  return 0;
} catch (const tf::errors::OpError& e) {
  std::fprintf(stderr, "%s\n", e.status().ToString().c_str());
  return 1;
}
