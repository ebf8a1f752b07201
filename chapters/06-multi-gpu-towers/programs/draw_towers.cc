// The chapter's picture of the tower graph: seed 004's graph with two
// towers (chapter 3's MLP per tower, the variables on /cpu:0, the mean of
// the gradients and the update on /cpu:0), placed by a session with two
// virtual GPUs, each box coloured by the device the session put it on.
//
// The whole graph has some 200 nodes, too many to read, so the drawing
// groups them by name, as the graph's own scopes do: each variable (its
// VariableV2 and read), each tower's forward ops ("tower_0/..."), each
// tower's gradients ("tower_0/gradients/..."), the averaging
// (ExpandDims, concat, Mean) and the update ("GradientDescent/..."). The
// initializers, which run once, are left out, and so are the ops a
// training step does not run (the fed placeholders, the loss, which the
// gradients do not read). A box says how many ops of the step it holds; an
// arrow joins two boxes when a tensor flows between them. The devices are the
// ones the session placed the real nodes on, read back from its partition
// graphs, as chapter 4's draw_devices does.
//   draw_towers [<folder>]   writes <folder>/towers.dot (default: a folder
//                            in the temporary folder); dot renders it.
#include <minitf/minitf.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace tf = minitf;

namespace {

// --8<-- [start:towers]
// One tower: chapter 3's MLP, its variables shared and on the CPU.
std::vector<tf::Output> TowerGradients(tf::Output* loss) {
  std::vector<tf::Variable> vars;
  {
    tf::device_scope on_cpu("/cpu:0");
    tf::variable_scope model("model", tf::AUTO_REUSE);
    vars = {tf::get_variable("W1", {784, 256}), tf::get_variable("b1", {256}),
            tf::get_variable("W2", {256, 10}), tf::get_variable("b2", {10})};
  }
  auto x = tf::placeholder(tf::float32, {tf::None, 784}, "x");
  auto y = tf::placeholder(tf::float32, {tf::None, 10}, "y");
  auto hidden = tf::nn::relu(tf::matmul(x, vars[0]) + vars[1]);
  auto logits = tf::matmul(hidden, vars[2]) + vars[3];
  *loss = tf::reduce_mean(tf::nn::softmax_cross_entropy_with_logits(y, logits));
  std::vector<tf::Output> xs;
  for (const tf::Variable& v : vars) xs.push_back(v.value());
  return tf::gradients({*loss}, xs);
}
// --8<-- [end:towers]

// The box a node is drawn in, "" for none.
std::string Group(const std::string& name) {
  std::vector<std::string> parts;
  for (size_t start = 0;;) {
    size_t slash = name.find('/', start);
    parts.push_back(name.substr(start, slash - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  const std::string& top = parts[0];
  if (top.rfind("tower_", 0) == 0) {
    return parts.size() > 1 && parts[1] == "gradients" ? top + "/gradients"
                                                       : top + "/model";
  }
  if (top == "model" && parts.size() >= 2) {
    // The variable and its read; its Assign and Initializer run once.
    if (parts.size() > 2 && parts[2] != "read") return "";
    return "model/" + parts[1];
  }
  if (top.rfind("ExpandDims", 0) == 0 || top.rfind("concat", 0) == 0 ||
      top.rfind("Mean", 0) == 0) {
    return "average_gradients";
  }
  if (top == "GradientDescent") return "GradientDescent";
  return "";
}

std::string ShortDevice(const std::string& device) {
  size_t at = device.rfind("device:");
  return at == std::string::npos ? device : device.substr(at + 7);
}

// --8<-- [start:dot]
std::string GroupsToDot(const tf::Graph& graph) {
  std::map<std::string, std::map<std::string, int>> devices;  // group -> count
  std::vector<std::string> order;
  std::set<std::pair<std::string, std::string>> edges;
  for (const tf::Node* n : graph.nodes()) {
    const std::string group = Group(n->name());
    // Ops the step did not run (the fed placeholders, the loss itself) were
    // not placed.
    if (group.empty() || n->assigned_device().empty()) continue;
    if (devices.find(group) == devices.end()) order.push_back(group);
    ++devices[group][ShortDevice(n->assigned_device())];
    for (const tf::Output& in : n->inputs()) {
      const std::string from = Group(in.node()->name());
      if (!from.empty() && from != group &&
          !in.node()->assigned_device().empty()) {
        edges.insert({from, group});
      }
    }
  }
  std::vector<std::string> device_order;
  auto color = [&](const std::string& device) {
    for (size_t i = 0; i < device_order.size(); ++i) {
      if (device_order[i] == device) return tf::DotDeviceColor(i);
    }
    device_order.push_back(device);
    return tf::DotDeviceColor(device_order.size() - 1);
  };
  std::string out = "digraph \"towers\" {\n";
  out += "  rankdir=LR;\n";
  out +=
      "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\"];\n";
  for (const std::string& group : order) {
    int ops = 0;
    std::string device;
    int most = 0;
    for (const auto& [d, count] : devices[group]) {
      ops += count;
      if (count > most) most = count, device = d;
    }
    // A group on more than one device says so.
    std::string where = device;
    if (devices[group].size() > 1) where += " and others";
    out += "  \"" + group + "\" [label=\"" + group + "\\n" +
           std::to_string(ops) + " op" + (ops == 1 ? "" : "s") + ", " + where +
           "\", fillcolor=\"" + color(device) + "\"];\n";
  }
  for (const auto& [from, to] : edges) {
    out += "  \"" + from + "\" -> \"" + to + "\";\n";
  }
  out += "  subgraph cluster_legend {\n    label=\"devices\";\n";
  for (size_t i = 0; i < device_order.size(); ++i) {
    out += "    \"legend_" + device_order[i] + "\" [label=\"" +
           device_order[i] + "\", fillcolor=\"" + tf::DotDeviceColor(i) +
           "\"];\n";
  }
  out += "  }\n}\n";
  return out;
}
// --8<-- [end:dot]

}  // namespace

int main(int argc, char** argv) try {
  const std::string folder =
      argc > 1
          ? argv[1]
          : (std::filesystem::temp_directory_path() / "minitf-towers").string();
  std::filesystem::create_directories(folder);

  // Seed 004's multi_gpu_model with two towers.
  std::vector<std::vector<tf::Output>> grads;
  std::vector<tf::Output> losses;
  for (int i = 0; i < 2; ++i) {
    tf::device_scope on_gpu("/gpu:" + std::to_string(i));
    tf::name_scope tower("tower_" + std::to_string(i));
    losses.emplace_back();
    grads.push_back(TowerGradients(&losses.back()));
  }
  tf::Operation train_op;
  {
    tf::device_scope on_cpu("/cpu:0");
    auto averaged = tf::average_gradients(grads);
    tf::train::Optimizer::GradsAndVars pairs;
    auto vars = tf::trainable_variables();
    for (size_t v = 0; v < vars.size(); ++v) {
      pairs.emplace_back(averaged[v], vars[v]);
    }
    train_op = tf::train::GradientDescentOptimizer(0.1).apply_gradients(pairs);
  }

  // One step on random data, asking for the partition graphs, whose nodes
  // carry the devices the session chose.
  tf::Session sess(tf::ConfigProto{.gpu_options = {.virtual_gpus = 2}});
  sess.run(tf::global_variables_initializer());
  tf::FeedDict feeds;
  tf::Graph& graph = *tf::get_default_graph();
  for (int i = 0; i < 2; ++i) {
    const std::string tower = "tower_" + std::to_string(i);
    feeds.emplace_back(tf::Output(graph.FindNode(tower + "/x"), 0),
                       tf::eager::zeros({2, 784}));
    feeds.emplace_back(tf::Output(graph.FindNode(tower + "/y"), 0),
                       tf::eager::zeros({2, 10}));
  }
  tf::RunMetadata metadata;
  sess.run({train_op}, feeds, tf::RunOptions{.output_partition_graphs = true},
           &metadata);
  for (const tf::GraphDef& part : metadata.partition_graphs) {
    for (const tf::NodeDef& n : part.node()) {
      if (tf::Node* node = graph.FindNode(n.name())) {
        node->set_assigned_device(n.device());
      }
    }
  }
  const std::string path = folder + "/towers.dot";
  std::ofstream file(path, std::ios::trunc);
  file << GroupsToDot(graph);
  file.close();
  if (!file) throw tf::errors::UnknownError("Cannot write '" + path + "'");
  std::cout << "wrote " << path << "\n";
  return 0;
} catch (const tf::errors::OpError& e) {
  std::fprintf(stderr, "%s\n", e.status().ToString().c_str());
  return 1;
}
