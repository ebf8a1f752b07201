// The chapter's sequence diagram of one step's RPCs, drawn from a trace.
//
// Run a cluster with MINITF_RPC_TRACE=<file> in its environment (rpc_trace.h)
// and every process appends one line per call of every step: the client's
// RunStep to its master, the master's RunGraph and CleanupGraph to every
// task, and each RecvTensor a task serves. This program picks one step of
// one worker's master, the one with the most calls (the middle one of
// those), and draws it as a sequence diagram: a lifeline for the client,
// the master, and the worker service of every task; one solid arrow per
// call, at its start, and a dashed one per answer, at its end; events in
// the order they happened, one row each, with the time since the RunStep
// began. It prints the same calls as a table.
//   draw_rpc_step <trace file> [<file.svg>] [<master task>] [sync]
// The master task defaults to /job:worker/replica:0/task:0; without a file
// it writes rpc_step.svg in the temporary folder. With "sync" (a trace of
// synchronous training) it draws every call of every process that overlaps
// the picked step in time: a synchronous step is several RunSteps, the
// workers' and the chief's update, each with a client and master of its
// own, and the picked worker's step lasts until the update releases it.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "minitf/distributed/runtime/rpc_trace.h"
#include "svg.h"

namespace tf = minitf;

namespace {

// "/job:worker/replica:0/task:0" -> "/job:worker/task:0", for labels.
std::string Short(std::string task) {
  const std::string replica = "/replica:0";
  const size_t at = task.find(replica);
  if (at != std::string::npos) task.erase(at, replica.size());
  return task;
}

// "/job:worker/replica:0/task:0" -> "worker/task:0", for a lifeline's head.
std::string Shorter(const std::string& task) {
  std::string name = Short(task);
  if (name.starts_with("/job:")) name.erase(0, 5);
  return name;
}

// The picture is read at the width of a page (about 700 px in a 1280 px
// window), so it is drawn about that wide and no text is smaller than
// kFont: a lifeline is kLane wide (a client's, which only calls its master,
// kClientLane), and a call's label runs over the lifelines beside it.
constexpr double kFont = 12;
// The width of a label in pixels, about (DejaVu Sans averages under 0.6 em).
double TextWidth(const std::string& text, double font) {
  return 0.6 * font * static_cast<double>(text.size());
}

// The calls of the step to draw: the RunStep on `master` with the most
// calls in its step, the middle one of those by time.
// With `overlapping`, every call in the trace that overlaps that RunStep.
std::vector<tf::RpcRecord> PickStep(const std::vector<tf::RpcRecord>& trace,
                                    const std::string& master,
                                    bool overlapping) {
  std::map<int64_t, std::vector<tf::RpcRecord>> by_step;
  for (const tf::RpcRecord& r : trace) by_step[r.step_id].push_back(r);
  size_t most = 0;
  std::vector<const std::vector<tf::RpcRecord>*> candidates;
  for (const auto& [id, calls] : by_step) {
    const bool on_master =
        std::any_of(calls.begin(), calls.end(), [&](const tf::RpcRecord& r) {
          return r.method == "RunStep" && r.callee == master;
        });
    const size_t n = calls.size();
    if (!on_master || n < most) continue;
    if (n > most) candidates.clear();
    most = n;
    candidates.push_back(&calls);
  }
  if (candidates.empty()) return {};
  std::sort(candidates.begin(), candidates.end(),
            [](const auto* a, const auto* b) {
              return a->front().start_us < b->front().start_us;
            });
  std::vector<tf::RpcRecord> step = *candidates[candidates.size() / 2];
  if (overlapping) {
    const auto run_step =
        std::find_if(step.begin(), step.end(), [&](const tf::RpcRecord& r) {
          return r.method == "RunStep" && r.callee == master;
        });
    const int64_t begin = run_step->start_us, end = run_step->end_us;
    step.clear();
    for (const tf::RpcRecord& r : trace) {
      if (r.start_us < end && r.end_us > begin) step.push_back(r);
    }
  }
  std::sort(step.begin(), step.end(),
            [](const tf::RpcRecord& a, const tf::RpcRecord& b) {
              return a.start_us < b.start_us;
            });
  return step;
}

// One end of a call: its start (the request) or its end (the answer).
struct Event {
  int64_t time_us;
  bool answer;
  const tf::RpcRecord* call;
};

std::string Draw(const std::vector<tf::RpcRecord>& step,
                 const std::string& master, const std::string& title) {
  // Lifelines: for each master that ran a step (`master` first), its
  // client, itself and its task's worker service; then the worker service
  // of every other task.
  std::vector<std::string> masters = {master};
  for (const tf::RpcRecord& r : step) {
    if (r.method == "RunStep" &&
        std::find(masters.begin(), masters.end(), r.callee) == masters.end()) {
      masters.push_back(r.callee);
    }
  }
  std::vector<std::string> lanes;
  for (const std::string& m : masters) {
    lanes.insert(lanes.end(), {"client " + m, "master " + m, "worker " + m});
  }
  for (const tf::RpcRecord& r : step) {
    for (const std::string& task : {r.caller, r.callee}) {
      const std::string lane = "worker " + task;
      if (task != "client" &&
          std::find(lanes.begin(), lanes.end(), lane) == lanes.end()) {
        lanes.push_back(lane);
      }
    }
  }
  auto lane_of = [&](const std::string& lane) {
    return static_cast<int>(std::find(lanes.begin(), lanes.end(), lane) -
                            lanes.begin());
  };
  // Which lifeline calls and which answers: a RunStep goes from the client
  // to the master; RunGraph and CleanupGraph from the master to a worker;
  // RecvTensor from a worker to a worker.
  auto from_lane = [&](const tf::RpcRecord& r) {
    if (r.method == "RunStep") return lane_of("client " + r.callee);
    if (r.method == "RecvTensor") return lane_of("worker " + r.caller);
    return lane_of("master " + r.caller);
  };
  auto to_lane = [&](const tf::RpcRecord& r) {
    if (r.method == "RunStep") return lane_of("master " + r.callee);
    return lane_of("worker " + r.callee);
  };

  std::vector<Event> events;
  for (const tf::RpcRecord& r : step) {
    events.push_back({r.start_us, false, &r});
    events.push_back({r.end_us, true, &r});
  }
  std::stable_sort(
      events.begin(), events.end(),
      [](const Event& a, const Event& b) { return a.time_us < b.time_us; });
  const int64_t t0 = step.front().start_us;

  constexpr double kLeft = 76, kLane = 140, kClientLane = 84, kRow = 24;
  constexpr double kHead = 38, kRight = 16;
  // The title's lines ("\n" between them), then the lifelines' heads.
  std::vector<std::string> title_lines;
  for (size_t begin = 0;;) {
    const size_t end = title.find('\n', begin);
    title_lines.push_back(title.substr(begin, end - begin));
    if (end == std::string::npos) break;
    begin = end + 1;
  }
  const double head_y = 14 + 20 * title_lines.size();
  const double top = head_y + kHead + 12;
  std::vector<double> lane_left;
  double right = kLeft;
  for (const std::string& lane : lanes) {
    lane_left.push_back(right);
    right += lane.starts_with("client ") ? kClientLane : kLane;
  }
  const double width = right + kRight;
  const double height = top + events.size() * kRow + 40;
  draw::Svg svg(static_cast<int>(width), static_cast<int>(height));
  auto lane_x = [&](int lane) {
    const double w =
        (lane + 1 < static_cast<int>(lanes.size()) ? lane_left[lane + 1]
                                                   : right) -
        lane_left[lane];
    return lane_left[lane] + w / 2;
  };
  for (size_t i = 0; i < title_lines.size(); ++i) {
    svg.Text(10, 24 + 20 * i, title_lines[i],
             "font-weight=\"bold\" font-size=\"14\"");
  }
  for (size_t i = 0; i < lanes.size(); ++i) {
    const std::string& lane = lanes[i];
    const size_t space = lane.find(' ');
    const std::string role =
        space == std::string::npos ? lane : lane.substr(0, space);
    const std::string task =
        space == std::string::npos ? "" : Shorter(lane.substr(space + 1));
    const double x = lane_x(static_cast<int>(i));
    const double w = (role == "client" ? kClientLane : kLane) - 8;
    svg.Rect(x - w / 2, head_y, w, kHead,
             role == "client" ? "#f4f4f4" : "#eef3fb", "#345");
    svg.Text(x, head_y + 16, role,
             "font-weight=\"bold\" text-anchor=\"middle\"");
    // A client's head names no task: its master's, beside it, does.
    if (role != "client") {
      svg.Text(x, head_y + 32, task, "font-size=\"12\" text-anchor=\"middle\"");
    }
    svg.Line(x, head_y + kHead, x, height - 30, "#999", 1,
             "stroke-dasharray=\"4 3\"");
  }
  // Activation bars first, so arrows draw over them.
  std::map<const tf::RpcRecord*, int> start_row;
  for (size_t row = 0; row < events.size(); ++row) {
    const Event& e = events[row];
    if (!e.answer) {
      start_row[e.call] = static_cast<int>(row);
      continue;
    }
    const int to = to_lane(*e.call);
    // Calls to one lane at once (RecvTensors) are offset to stay visible.
    int depth = 0;
    for (const auto& [other, r] : start_row) {
      if (other != e.call && to_lane(*other) == to && r < start_row[e.call] &&
          other->end_us > e.call->start_us) {
        ++depth;
      }
    }
    svg.Rect(lane_x(to) - 5 + 4 * depth,
             top + start_row[e.call] * kRow + kRow / 2, 10,
             (row - start_row[e.call]) * kRow,
             e.call->method == "RecvTensor" ? "#fbe3cf" : "#d9e6f7", "#345");
  }
  for (size_t row = 0; row < events.size(); ++row) {
    const Event& e = events[row];
    const double y = top + row * kRow + kRow / 2;
    char when[32];
    std::snprintf(when, sizeof when, "+%.2f ms", (e.time_us - t0) / 1000.0);
    svg.Text(6, y + 4, when, "font-size=\"12\" fill=\"#555\"");
    const int from = e.answer ? to_lane(*e.call) : from_lane(*e.call);
    const int to = e.answer ? from_lane(*e.call) : to_lane(*e.call);
    const std::string color =
        e.call->method == "RecvTensor" ? "#c0602b" : "#2b5cab";
    const std::string dash = e.answer ? "stroke-dasharray=\"5 3\" " : "";
    const double x1 = lane_x(from) + (to > from ? 5 : -5);
    const double x2 = lane_x(to) + (to > from ? -5 : 5);
    svg.Line(x1, y, x2, y, color, 1.4, dash + "marker-end=\"url(#arrow)\"");
    std::string label = e.answer ? "" : e.call->method;
    if (!e.answer && !e.call->detail.empty()) {
      label += " " + e.call->detail;
    }
    if (!label.empty()) {
      // From the arrow's left end rightwards where the picture has room,
      // else leftwards from its right end (over the lifelines beside it:
      // a row holds one event, so labels never meet).
      const double left = std::min(x1, x2) + 8;
      const bool fits = left + TextWidth(label, kFont) <= width - 4;
      svg.Text(fits ? left : std::max(x1, x2) - 8, y - 4, label,
               "font-size=\"12\" fill=\"" + color + "\"" +
                   (fits ? "" : " text-anchor=\"end\""));
    }
  }
  svg.Text(10, height - 10,
           "Solid: a call, at its start; dashed: its answer. One row per "
           "event, in time order; times from the first call's start.",
           "font-size=\"12\" fill=\"#555\"");
  return svg.Finish();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: draw_rpc_step <trace file> [<file.svg>] "
                 "[<master task>]\n";
    return 2;
  }
  const std::string path =
      argc > 2
          ? argv[2]
          : (std::filesystem::temp_directory_path() / "rpc_step.svg").string();
  const std::string master =
      argc > 3 ? argv[3] : "/job:worker/replica:0/task:0";
  const bool sync = argc > 4 && std::string(argv[4]) == "sync";
  auto trace = tf::ReadRpcTrace(argv[1]);
  if (!trace.ok()) {
    std::cerr << "draw_rpc_step: " << trace.status() << "\n";
    return 1;
  }
  const std::vector<tf::RpcRecord> step = PickStep(*trace, master, sync);
  if (step.empty()) {
    std::cerr << "draw_rpc_step: no RunStep on " << master << " in " << argv[1]
              << "\n";
    return 1;
  }
  const auto picked =
      std::find_if(step.begin(), step.end(), [&](const tf::RpcRecord& r) {
        return r.method == "RunStep" && r.callee == master;
      });
  std::cout << trace->size() << " calls traced; step " << picked->step_id
            << " of " << master << ", " << step.size() << " calls:\n";
  std::printf("%-13s %-20s %-20s %20s %9s %9s  %s\n", "call", "caller",
              "callee", "step id", "start ms", "end ms", "tensor");
  const int64_t t0 = step.front().start_us;
  for (const tf::RpcRecord& r : step) {
    std::printf("%-13s %-20s %-20s %20lld %9.2f %9.2f  %s\n", r.method.c_str(),
                Short(r.caller).c_str(), Short(r.callee).c_str(),
                static_cast<long long>(r.step_id), (r.start_us - t0) / 1000.0,
                (r.end_us - t0) / 1000.0, r.detail.c_str());
  }
  return draw::WriteFile(
             "draw_rpc_step", path,
             Draw(step, master,
                  sync ? "One step of seed 003's synchronous training "
                         "(2 of 2):\nthe calls of every process during "
                         "one worker's RunStep, as traced (MINITF_RPC_TRACE)"
                       : "One step of seed 003's asynchronous training,\nas "
                         "traced (MINITF_RPC_TRACE)"))
             ? 0
             : 1;
}
