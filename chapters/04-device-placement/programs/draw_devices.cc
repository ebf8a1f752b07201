// The chapter's pictures of one step on several devices: seed 001's
// multi-tower graph (a MatMul on each of two GPUs, their sum on the CPU),
// run in a session with four virtual GPUs: once to place and plan it, then
// once more, traced. It writes, into the folder given:
//   placed.dot       the graph, each node coloured by the device the session
//                    placed it on (read back from the partition graphs);
//   partitioned.dot  the graph each device ran, one box per device, with the
//                    _Send/_Recv pairs of the cut joined by dashed arrows;
//   timeline.json    the step in Chrome's trace format (chrome://tracing);
//   timeline.svg     the same step drawn: a row per device and executor
//                    thread, a box per node, time in microseconds.
// The docs build renders the DOT files with Graphviz.
//   draw_devices [<folder>]
// Without a folder it writes into minitf-devices in the temporary folder.
#include <minitf/minitf.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iostream>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace tf = minitf;

namespace {

// A DOT string literal: quotes and backslashes escaped, and the parts
// joined by "\\n", Graphviz's line break.
std::string Quote(std::initializer_list<std::string> parts) {
  std::string out = "\"";
  bool first = true;
  for (const std::string& part : parts) {
    if (!first) out += "\\n";
    first = false;
    for (char c : part) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
  }
  return out + "\"";
}

std::string Quote(const std::string& s) { return Quote({s}); }

// Text for SVG: <, > and & escaped.
std::string XmlText(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else if (c == '&') {
      out += "&amp;";
    } else {
      out += c;
    }
  }
  return out;
}

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream file(path, std::ios::trunc);
  file << text;
  file.close();
  if (!file) throw tf::errors::UnknownError("Cannot write '" + path + "'");
  std::cout << "wrote " << path << "\n";
}

// The devices in the order their colours were given in placed.dot: the
// order in which the graph's nodes first name them.
class DeviceColors {
 public:
  explicit DeviceColors(const tf::Graph& graph) {
    for (const tf::Node* n : graph.nodes()) Index(n->assigned_device());
  }
  std::string Color(const std::string& device) {
    return tf::DotDeviceColor(Index(device));
  }
  // The device's place in the order, added at the end when new.
  size_t Index(const std::string& device) {
    auto it = std::find(devices_.begin(), devices_.end(), device);
    if (it != devices_.end()) return it - devices_.begin();
    devices_.push_back(device);
    return devices_.size() - 1;
  }

 private:
  std::vector<std::string> devices_;
};

const tf::proto::AttrValue* Attr(const tf::NodeDef& n, const char* name) {
  auto it = n.attr().find(name);
  return it == n.attr().end() ? nullptr : &it->second;
}

// --8<-- [start:partitions_dot]
// The partition graphs in DOT: one cluster per device, its nodes and edges
// as the GraphDef lists them, and a dashed arrow from each _Send to the
// _Recv that receives from it: same tensor_name, send_device and
// recv_device. The ends of client_terminated pairs (the feeds and the
// fetches) connect to a node "client", the program's side of sess.run.
std::string PartitionsToDot(const std::vector<tf::GraphDef>& partitions,
                            DeviceColors* colors) {
  std::string out = "digraph \"partitions\" {\n";
  out += "  node [shape=ellipse, fontname=\"Helvetica\"];\n";
  out += "  edge [fontname=\"Helvetica\", fontsize=10];\n";
  out += "  compound=true;\n";
  using Transfer = std::tuple<std::string, std::string, std::string>;
  std::map<Transfer, std::string> sends, recvs;  // -> DOT node id
  bool uses_client = false;
  std::string edges;
  for (size_t p = 0; p < partitions.size(); ++p) {
    const tf::GraphDef& graph = partitions[p];
    const std::string device =
        graph.node_size() > 0 ? graph.node(0).device() : "";
    const std::string id = "p" + std::to_string(p) + ":";
    out += "  subgraph cluster_" + std::to_string(p) + " {\n";
    out += "    label=" + Quote(device) + ";\n";
    out +=
        "    style=filled; fillcolor=" + Quote(colors->Color(device)) + ";\n";
    for (const tf::NodeDef& n : graph.node()) {
      const bool send = n.op() == "_Send", recv = n.op() == "_Recv";
      std::string shape = "ellipse";
      if (n.op() == "Const") shape = "box";
      if (send || recv) shape = "cds";
      out += "    " + Quote(id + n.name()) +
             " [label=" + Quote({n.name(), n.op()}) + ", shape=" + shape +
             ", style=filled, fillcolor=white];\n";
      for (const std::string& input : n.input()) {
        const bool control = input.starts_with("^");
        std::string from = control ? input.substr(1) : input;
        from = from.substr(0, from.find(':'));
        edges += "  " + Quote(id + from) + " -> " + Quote(id + n.name()) +
                 (control ? " [style=dashed]" : "") + ";\n";
      }
      if (!send && !recv) continue;
      const Transfer key{Attr(n, "tensor_name")->s(),
                         Attr(n, "send_device")->s(),
                         Attr(n, "recv_device")->s()};
      if (Attr(n, "client_terminated")->b()) {
        uses_client = true;
        edges += send ? "  " + Quote(id + n.name()) + " -> \"client\""
                      : "  \"client\" -> " + Quote(id + n.name());
        edges += " [style=dashed, label=" + Quote(std::get<0>(key)) + "];\n";
      } else {
        (send ? sends : recvs)[key] = id + n.name();
      }
    }
    out += "  }\n";
  }
  for (const auto& [key, send] : sends) {
    auto recv = recvs.find(key);
    if (recv == recvs.end()) continue;
    edges +=
        "  " + Quote(send) + " -> " + Quote(recv->second) +
        " [style=dashed, color=\"#555555\", label=" + Quote(std::get<0>(key)) +
        "];\n";
  }
  if (uses_client) out += "  \"client\" [label=\"client\", shape=box];\n";
  return out + edges + "}\n";
}
// --8<-- [end:partitions_dot]

// --8<-- [start:timeline_svg]
// The step as an SVG: a row per (device, executor thread), a box per node
// from the executor taking it up to its being done, labelled with the
// node's name, and a time axis in microseconds from the step's first node.
std::string TimelineSvg(const tf::StepStats& stats, DeviceColors* colors) {
  struct Row {
    std::string device;
    uint32_t thread = 0;
    std::vector<const tf::NodeExecStats*> nodes;
    std::vector<int> lane;  // by node: a _Recv's wait may overlap the next
    int lanes = 0;
    double y = 0, height = 0;
  };
  std::vector<Row> rows;
  int64_t t0 = INT64_MAX, t1 = 0;
  for (const tf::DeviceStepStats& d : stats.dev_stats) {
    for (const tf::NodeExecStats& n : d.node_stats) {
      auto row = std::find_if(rows.begin(), rows.end(), [&](const Row& r) {
        return r.device == d.device && r.thread == n.thread_id;
      });
      if (row == rows.end()) {
        rows.emplace_back();
        rows.back().device = d.device;
        rows.back().thread = n.thread_id;
        row = rows.end() - 1;
      }
      row->nodes.push_back(&n);
      t0 = std::min(t0, n.all_start_micros);
      t1 = std::max(t1, n.all_start_micros + n.all_end_rel_micros);
    }
  }
  // Devices in their colours' order (placed.dot's), then threads.
  std::stable_sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
    const size_t da = colors->Index(a.device), db = colors->Index(b.device);
    return da != db ? da < db : a.thread < b.thread;
  });
  // Nodes take microseconds, so a box is often a few pixels wide: its
  // label goes below it, on one of five lines in turn, with a tick up to
  // the box. Labels are 12 px, so that they read at a page's width (the
  // picture is shown about 700 px wide in a 1280 px window). Boxes that overlap
  // in time (an asynchronous _Recv waiting while its thread runs other nodes)
  // go one under the other, as in Chrome's lanes: each in the first lane free
  // when it starts.
  const double width = 1000, left = 130, right = 80, top = 30, box_h = 18,
               line_h = 15, axis_h = 40;
  const int label_lines = 5;
  double bottom = top;
  for (Row& row : rows) {
    std::vector<int64_t> ends;
    for (const tf::NodeExecStats* n : row.nodes) {
      size_t lane = 0;
      while (lane < ends.size() && n->all_start_micros < ends[lane]) ++lane;
      if (lane == ends.size()) ends.push_back(0);
      ends[lane] = n->all_start_micros + n->all_end_rel_micros;
      row.lane.push_back(static_cast<int>(lane));
    }
    row.lanes = static_cast<int>(ends.size());
    row.y = bottom;
    row.height = row.lanes * box_h + label_lines * line_h + 14;
    bottom += row.height;
  }
  const double height = bottom + axis_h;
  const double span = std::max<int64_t>(1, t1 - t0);
  auto px = [&](int64_t t) {
    return left + (t - t0) / span * (width - left - right);
  };
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
                "height=\"%.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
                "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
                "<text x=\"10\" y=\"18\">One traced step: a row per device and "
                "executor thread, a box per node</text>\n",
                width, height);
  std::string svg = buf;
  for (int i = 0; i <= 5; ++i) {
    const int64_t t = t0 + static_cast<int64_t>(span * i / 5);
    const double x = px(t);
    std::snprintf(buf, sizeof buf,
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                  "stroke=\"#ddd\"/>\n<text x=\"%.1f\" y=\"%.1f\" "
                  "text-anchor=\"middle\">%lld</text>\n",
                  x, top, x, bottom, x, bottom + 16,
                  static_cast<long long>(t - t0));
    svg += buf;
  }
  std::snprintf(buf, sizeof buf,
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
                "microseconds since the step's first node</text>\n",
                (left + width - right) / 2, height - 6);
  svg += buf;
  for (const Row& row : rows) {
    const double y = row.y;
    // "GPU:2", the end of the device's full name.
    const std::string local =
        row.device.substr(row.device.rfind(':', row.device.rfind(':') - 1) + 1);
    std::snprintf(buf, sizeof buf,
                  "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s, "
                  "thread %u</text>\n",
                  left - 8, y + box_h / 2 + 8, XmlText(local).c_str(),
                  row.thread);
    svg += buf;
    const std::string color = colors->Color(row.device);
    for (size_t i = 0; i < row.nodes.size(); ++i) {
      const tf::NodeExecStats& n = *row.nodes[i];
      const double x0 = px(n.all_start_micros);
      const double x1 =
          std::max(x0 + 2, px(n.all_start_micros + n.all_end_rel_micros));
      const double box_y = y + 4 + row.lane[i] * box_h;
      const double label_y =
          y + 4 + row.lanes * box_h + line_h * (i % label_lines + 1);
      std::snprintf(buf, sizeof buf,
                    "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                    "height=\"%.1f\" fill=\"%s\" stroke=\"#333\">"
                    "<title>%s: %lld us</title></rect>\n"
                    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                    "stroke=\"#999\"/>\n"
                    "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n",
                    x0, box_y, x1 - x0, box_h, color.c_str(),
                    XmlText(n.timeline_label).c_str(),
                    static_cast<long long>(n.all_end_rel_micros), x0,
                    box_y + box_h, x0, label_y - 9, x0, label_y,
                    XmlText(n.node_name).c_str());
      svg += buf;
    }
  }
  return svg + "</svg>\n";
}
// --8<-- [end:timeline_svg]

}  // namespace

int main(int argc, char** argv) try {
  const std::string folder =
      argc > 1 ? argv[1]
               : (std::filesystem::temp_directory_path() / "minitf-devices")
                     .string();
  std::filesystem::create_directories(folder);

  // --8<-- [start:towers]
  std::vector<tf::Output> c;
  for (const char* d : {"/gpu:2", "/gpu:3"}) {
    tf::device_scope on(d);
    auto a = tf::constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3});
    auto b = tf::constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {3, 2});
    c.push_back(tf::matmul(a, b));
  }
  tf::Output sum;
  {
    tf::device_scope on("/cpu:0");
    sum = tf::add_n(c);
  }
  tf::Session sess(tf::ConfigProto{.log_device_placement = true,
                                   .gpu_options = {.virtual_gpus = 4}});
  sess.run(sum);  // places, partitions and starts the threads, untraced
  tf::RunMetadata metadata;
  auto result =
      sess.run({sum}, {},
               tf::RunOptions{.trace_level = tf::RunOptions::FULL_TRACE,
                              .output_partition_graphs = true},
               &metadata);
  // --8<-- [end:towers]
  std::cout << result[0] << "\n";

  // The session placed a copy of the graph; the partitions it returns name
  // each node's device, which the drawing of the whole graph then shows.
  tf::Graph& graph = *tf::get_default_graph();
  for (const tf::GraphDef& part : metadata.partition_graphs) {
    for (const tf::NodeDef& n : part.node()) {
      if (tf::Node* node = graph.FindNode(n.name())) {
        node->set_assigned_device(n.device());
      }
    }
  }
  DeviceColors colors(graph);
  tf::errors::ThrowIfError(tf::WriteDot(graph, folder + "/placed.dot",
                                        {.color_by_device = true,
                                         .label_devices = false,
                                         .graph_name = "placed"}));
  std::cout << "wrote " << folder << "/placed.dot\n";
  WriteFile(folder + "/partitioned.dot",
            PartitionsToDot(metadata.partition_graphs, &colors));
  WriteFile(folder + "/timeline.json",
            tf::Timeline(metadata.step_stats).generate_chrome_trace_format());
  WriteFile(folder + "/timeline.svg",
            TimelineSvg(metadata.step_stats, &colors));
  return 0;
} catch (const tf::errors::OpError& e) {
  std::fprintf(stderr, "%s\n", e.status().ToString().c_str());
  return 1;
}
