#include "minitf/device/session/timeline.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <regex>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "minitf/graph/attr_value.h"

namespace minitf {

namespace {

// --- A JSON value and Python's json.dumps(indent=4) --------------------------

struct Json;
using JsonObject = std::vector<std::pair<std::string, Json>>;  // keeps order
using JsonArray = std::vector<Json>;

// The destructor is defined out of line, once JsonObject's pair is complete:
// inline, clang 14 instantiates it while checking that pair, through
// libstdc++'s traits, and finds the pair incomplete.
struct Json {
  ~Json();
  std::variant<int64_t, std::string, JsonObject, JsonArray> value;
};
Json::~Json() = default;

void WriteString(const std::string& s, std::string* out) {
  out->push_back('"');
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        *out += "\\\"";
        break;
      case '\\':
        *out += "\\\\";
        break;
      case '\n':
        *out += "\\n";
        break;
      case '\t':
        *out += "\\t";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          *out += buf;
        } else {
          out->push_back(static_cast<char>(c));
        }
    }
  }
  out->push_back('"');
}

void Write(const Json& j, int depth, std::string* out) {
  const std::string pad(4 * (depth + 1), ' ');
  const std::string close_pad(4 * depth, ' ');
  if (const auto* i = std::get_if<int64_t>(&j.value)) {
    *out += std::to_string(*i);
  } else if (const auto* s = std::get_if<std::string>(&j.value)) {
    WriteString(*s, out);
  } else if (const auto* o = std::get_if<JsonObject>(&j.value)) {
    if (o->empty()) {
      *out += "{}";
      return;
    }
    *out += "{\n";
    for (size_t k = 0; k < o->size(); ++k) {
      *out += pad;
      WriteString((*o)[k].first, out);
      *out += ": ";
      Write((*o)[k].second, depth + 1, out);
      *out += k + 1 < o->size() ? ",\n" : "\n";
    }
    *out += close_pad + "}";
  } else {
    const auto& a = std::get<JsonArray>(j.value);
    if (a.empty()) {
      *out += "[]";
      return;
    }
    *out += "[\n";
    for (size_t k = 0; k < a.size(); ++k) {
      *out += pad;
      Write(a[k], depth + 1, out);
      *out += k + 1 < a.size() ? ",\n" : "\n";
    }
    *out += close_pad + "]";
  }
}

Json Int(int64_t v) { return Json{v}; }
Json Str(std::string v) { return Json{std::move(v)}; }

// --- The trace being built (Python's _ChromeTraceFormatter) ------------------

class TraceFormatter {
 public:
  void EmitPid(const std::string& name, int64_t pid) {
    metadata_.push_back(
        Json{JsonObject{{"name", Str("process_name")},
                        {"ph", Str("M")},
                        {"pid", Int(pid)},
                        {"args", Json{JsonObject{{"name", Str(name)}}}}}});
  }
  void EmitRegion(int64_t ts, int64_t dur, int64_t pid, int64_t tid,
                  const std::string& category, const std::string& name,
                  JsonObject args) {
    JsonObject e = Event("X", category, name, pid, tid, ts);
    e.emplace_back("dur", Int(dur));
    e.emplace_back("args", Json{std::move(args)});
    events_.push_back(Json{std::move(e)});
  }
  // An event that refers to an object by id: a tensor's creation ("N") or
  // deletion ("D"), a flow's start ("s") or end ("t").
  void EmitWithId(const char* ph, const char* category, const std::string& name,
                  int64_t ts, int64_t pid, int64_t tid, int64_t id) {
    JsonObject e = Event(ph, category, name, pid, tid, ts);
    e.emplace_back("id", Int(id));
    events_.push_back(Json{std::move(e)});
  }
  void EmitSnapshot(const std::string& name, int64_t ts, int64_t pid,
                    int64_t tid, int64_t id, const std::string& description) {
    JsonObject e = Event("O", "Tensor", name, pid, tid, ts);
    e.emplace_back("id", Int(id));
    e.emplace_back(
        "args",
        Json{JsonObject{{"snapshot", Json{JsonObject{{"tensor_description",
                                                      Str(description)}}}}}});
    events_.push_back(Json{std::move(e)});
  }
  void EmitCounter(const std::string& name, int64_t pid, int64_t ts,
                   int64_t value) {
    JsonObject e = Event("C", "Memory", name, pid, 0, ts);
    e.emplace_back("args", Json{JsonObject{{name, Int(value)}}});
    events_.push_back(Json{std::move(e)});
  }
  std::string Format() const {
    JsonArray all = metadata_;
    all.insert(all.end(), events_.begin(), events_.end());
    std::string out;
    Write(Json{JsonObject{{"traceEvents", Json{std::move(all)}}}}, 0, &out);
    return out;
  }

 private:
  static JsonObject Event(const char* ph, const std::string& category,
                          const std::string& name, int64_t pid, int64_t tid,
                          int64_t ts) {
    return JsonObject{{"ph", Str(ph)},     {"cat", Str(category)},
                      {"name", Str(name)}, {"pid", Int(pid)},
                      {"tid", Int(tid)},   {"ts", Int(ts)}};
  }

  JsonArray metadata_;
  JsonArray events_;
};

// "name = Op(a, b)" -> ("Op", {"a", "b"}); ("unknown", {}) otherwise.
std::pair<std::string, std::vector<std::string>> ParseOpLabel(
    const std::string& label) {
  static const std::regex pattern(R"((.*) = (.*)\((.*)\))");
  std::smatch m;
  if (!std::regex_match(label, m, pattern)) return {"unknown", {}};
  std::vector<std::string> inputs;
  const std::string list = m[3];
  for (size_t begin = 0; !list.empty() && begin <= list.size();) {
    const size_t end = list.find(", ", begin);
    inputs.push_back(list.substr(begin, end - begin));
    if (end == std::string::npos) break;
    begin = end + 2;
  }
  return {m[2], inputs};
}

// The tensor description as protobuf text, quotes dropped, as Python's
// str(...).replace('"', '') shows it.
std::string DescribeTensor(const TensorDescription& d) {
  std::string s = "dtype: " + AttrValue(d.dtype).DebugString() + "\n";
  s += "shape {\n";
  for (int i = 0; i < d.shape.dims(); ++i) {
    s +=
        "  dim {\n    size: " + std::to_string(d.shape.dim_size(i)) + "\n  }\n";
  }
  s += "}\nallocation_description {\n";
  const AllocationDescription& a = d.allocation_description;
  s += "  requested_bytes: " + std::to_string(a.requested_bytes) + "\n";
  s += "  allocated_bytes: " + std::to_string(a.allocated_bytes) + "\n";
  s += "  allocator_name: " + a.allocator_name + "\n}\n";
  return s;
}

// A tensor's life (Python's _TensorTracker).
struct TensorTracker {
  int64_t object_id = 0;
  int64_t pid = 0;
  int64_t create_time = 0;
  std::string allocator;
  int64_t num_bytes = 0;
  int64_t last_unref = 0;
};

// The trace's processes: the allocators', then two per device.
struct TracePids {
  int64_t allocators = 0;
  std::map<std::string, int64_t> device;   // "<device> Compute"
  std::map<std::string, int64_t> tensors;  // "<device> Tensors"
};

TracePids EmitPids(const StepStats& stats, TraceFormatter* trace) {
  TracePids pids;
  int64_t next_pid = 0;
  pids.allocators = next_pid++;
  trace->EmitPid("Allocators", pids.allocators);
  for (const DeviceStepStats& d : stats.dev_stats) {
    pids.device[d.device] = next_pid++;
    pids.tensors[d.device] = next_pid++;
    trace->EmitPid(d.device + " Compute", pids.device[d.device]);
    trace->EmitPid(d.device + " Tensors", pids.tensors[d.device]);
  }
  return pids;
}

// Lanes, written into thread_id: each node goes to the first lane that is
// free when it starts.
void AssignLanes(StepStats* stats) {
  for (DeviceStepStats& d : stats->dev_stats) {
    std::vector<int64_t> lanes{0};
    for (NodeExecStats& ns : d.node_stats) {
      size_t lane = 0;
      while (lane < lanes.size() && ns.all_start_micros <= lanes[lane]) ++lane;
      if (lane == lanes.size()) lanes.push_back(0);
      lanes[lane] = ns.all_start_micros + ns.all_end_rel_micros;
      ns.thread_id = static_cast<uint32_t>(lane);
    }
  }
}

// Every output of the step, by name, and where a data-flow arrow from it
// starts: (time, pid, lane).
struct TensorIndex {
  std::map<std::string, TensorTracker> tensors;
  std::vector<std::string> order;  // as Python's dict iterates
  std::map<std::string, std::tuple<int64_t, int64_t, int64_t>> flow_starts;
};

// Each output, alive while its node runs; with `show_memory`, its creation
// and snapshot events.
TensorIndex TrackTensors(const StepStats& stats, const TracePids& pids,
                         bool show_memory, TraceFormatter* trace) {
  TensorIndex index;
  int64_t next_object = 0;
  for (const DeviceStepStats& d : stats.dev_stats) {
    const int64_t pid = pids.tensors.at(d.device);
    const int64_t device_pid = pids.device.at(d.device);
    for (const NodeExecStats& ns : d.node_stats) {
      const int64_t start = ns.all_start_micros;
      const int64_t end = start + ns.all_end_rel_micros;
      for (size_t i = 0; i < ns.output.size(); ++i) {
        const std::string name =
            i == 0 ? ns.node_name : ns.node_name + ":" + std::to_string(i);
        const TensorDescription& desc = ns.output[i].tensor_description;
        TensorTracker t{next_object++,
                        pid,
                        start,
                        desc.allocation_description.allocator_name,
                        desc.allocation_description.requested_bytes,
                        end};
        index.flow_starts[name] = {end, device_pid, ns.thread_id};
        if (show_memory) {
          trace->EmitWithId("N", "Tensor", name, start, t.pid, ns.thread_id,
                            t.object_id);
          trace->EmitSnapshot(name, end - 1, t.pid, ns.thread_id, t.object_id,
                              DescribeTensor(desc));
        }
        if (index.tensors.count(name) == 0) index.order.push_back(name);
        index.tensors[name] = std::move(t);
      }
    }
  }
  return index;
}

// A bar per node, and, with `show_dataflow`, an arrow for each tensor it
// reads from another lane. Records each tensor's last reader in `index`.
void EmitCompute(const StepStats& stats, const TracePids& pids,
                 bool show_dataflow, TensorIndex* index,
                 TraceFormatter* trace) {
  int64_t next_flow = 0;
  for (const DeviceStepStats& d : stats.dev_stats) {
    const int64_t pid = pids.device.at(d.device);
    for (const NodeExecStats& ns : d.node_stats) {
      const int64_t start = ns.all_start_micros;
      const int64_t end = start + ns.all_end_rel_micros;
      auto [op, inputs] = ParseOpLabel(ns.timeline_label);
      JsonObject args{{"name", Str(ns.node_name)}, {"op", Str(op)}};
      for (size_t i = 0; i < inputs.size(); ++i) {
        args.emplace_back("input" + std::to_string(i), Str(inputs[i]));
      }
      trace->EmitRegion(start, ns.all_end_rel_micros, pid, ns.thread_id, "Op",
                        op, std::move(args));
      for (std::string input : inputs) {
        if (index->tensors.count(input) == 0) {
          // A _Recv the partitioner made: "a/_3" stands for "a".
          const size_t cut = input.rfind("/_");
          if (cut != std::string::npos && cut > 0) input.resize(cut);
        }
        auto it = index->tensors.find(input);
        if (it == index->tensors.end()) continue;
        it->second.last_unref = std::max(it->second.last_unref, end - 1);
        if (!show_dataflow) continue;
        const auto& [created, create_pid, create_tid] =
            index->flow_starts[input];
        if (create_pid != pid || create_tid != ns.thread_id) {
          const int64_t flow = next_flow++;
          trace->EmitWithId("s", "DataFlow", input, created, create_pid,
                            create_tid, flow);
          trace->EmitWithId("t", "DataFlow", input, start, pid, ns.thread_id,
                            flow);
        }
      }
    }
  }
}

// Each tensor's end, then the allocations and frees per allocator, in time
// order, as running totals.
void EmitMemory(const TensorIndex& index, int64_t allocators_pid,
                TraceFormatter* trace) {
  using Event = std::tuple<int64_t, int64_t, std::string>;
  std::vector<std::pair<std::string, std::vector<Event>>> allocations;
  std::map<std::string, size_t> allocator_index;
  for (const std::string& name : index.order) {
    const TensorTracker& t = index.tensors.at(name);
    trace->EmitWithId("D", "Tensor", name, t.last_unref, t.pid, 0, t.object_id);
    auto [it, added] = allocator_index.emplace(t.allocator, allocations.size());
    if (added) allocations.emplace_back(t.allocator, std::vector<Event>());
    std::vector<Event>& list = allocations[it->second].second;
    list.emplace_back(t.create_time, t.num_bytes, name);
    list.emplace_back(t.last_unref, -t.num_bytes, name);
  }
  for (auto& [allocator, list] : allocations) {
    std::sort(list.begin(), list.end());
    int64_t total = 0;
    for (const auto& [time, bytes, name] : list) {
      total += bytes;
      trace->EmitCounter(allocator, allocators_pid, time, total);
    }
  }
}

}  // namespace

Timeline::Timeline(StepStats step_stats) : step_stats_(std::move(step_stats)) {}

// --8<-- [start:chrome_trace]
std::string Timeline::generate_chrome_trace_format(bool show_dataflow,
                                                   bool show_memory) const {
  TraceFormatter trace;
  StepStats stats = step_stats_;  // lanes are written into thread_id
  // 1. Process ids: the allocators, then two per device.
  const TracePids pids = EmitPids(stats, &trace);
  // 2. Lanes: each node goes to the first lane that is free when it starts.
  AssignLanes(&stats);
  // 3. Tensors: each output, alive while its node runs.
  TensorIndex tensors = TrackTensors(stats, pids, show_memory, &trace);
  // 4. Compute: a bar per node, and arrows for the tensors it reads.
  EmitCompute(stats, pids, show_dataflow, &tensors, &trace);
  // 5. Memory: when each tensor dies, and each allocator's running total.
  if (show_memory) EmitMemory(tensors, pids.allocators, &trace);
  return trace.Format();
}
// --8<-- [end:chrome_trace]

}  // namespace minitf
