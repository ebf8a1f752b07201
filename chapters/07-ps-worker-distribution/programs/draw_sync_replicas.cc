// The chapter's picture of SyncReplicasOptimizer's graph: seed 003's
// softmax regression on one ps and two workers (worker 0's graph, as its
// process builds it with replica_device_setter), trained synchronously with
// replicas_to_aggregate = total_num_replicas = 2, each box in the cluster
// (and the colour) of the task its op asks for.
//
// The picture keeps the synchronization and groups the rest: every op of
// the optimizer's scope ("mnist_sync/...": the accumulators, their
// apply_grad, take_grad and set_global_step) and of the token queue
// ("sync_token_q...") is a box of its own; the model's forward ops, its
// gradients, each variable with its read, and the wrapped optimizer's
// update ("GradientDescent/...") are one box each. The initializers and
// the ops that build constants are left out. Each task is a cluster. Data
// edges are solid, control edges dashed: the dashed edges into
// sync_token_q_Dequeue are the barrier.
//   draw_sync_replicas [<folder>]   writes <folder>/sync_replicas.dot
#include <minitf/minitf.h>

#include <algorithm>
#include <cctype>
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

// The box a node is drawn in; "" to leave it out.
std::string Group(const tf::Node& n) {
  const std::string& name = n.name();
  const std::string top = name.substr(0, name.find('/'));
  const std::string type = n.type_string();
  if (type == "Const" || name.find("/Initializer") != std::string::npos ||
      name.find("/initial_value") != std::string::npos ||
      name.ends_with("/Assign")) {
    return "";
  }
  if (top == "mnist_sync" || top.starts_with("sync_token_q")) {
    return name.ends_with("/group_deps") ||
                   name.find("/group_deps/") != std::string::npos
               ? "mnist_sync/group_deps (chief_init_op)"
               : name;
  }
  if (top == "gradients") return "gradients";
  if (top == "GradientDescent") return "GradientDescent (update)";
  if (top == "W" || top == "b" || top == "global_step" ||
      top == "sync_rep_local_step") {
    return top;
  }
  if (top == "Fill") return "Fill (next tokens)";
  if (top.starts_with("Fill_")) return "";  // get_init_tokens_op's
  if (type == "Assign") {
    // The worker's train_op takes the token; the other sets the local step
    // from global_step at the start.
    return n.input(1).node()->type_string() == "QueueDequeueV2"
               ? name + " (train_op)"
               : "";
  }
  // The readiness checks (IsVariableInitialized) run once, as setup.
  if (type == "NoOp" || type == "Placeholder" ||
      type == "IsVariableInitialized") {
    return "";
  }
  return "model";
}

// The label of a box: its group without the optimizer's scope or the
// queue's prefix ("mnist_sync/", "sync_token_q_", which the picture's
// caption names), and below it the op's type where the name does not
// already say it ("sync_token_q\nFIFOQueueV2", but "Dequeue" alone).
std::string Label(const std::string& group, const std::string& op) {
  std::string name = group;
  for (const std::string prefix : {"mnist_sync/", "sync_token_q_"}) {
    if (name.starts_with(prefix)) name.erase(0, prefix.size());
  }
  std::string base = name.substr(0, name.find(" ("));
  const size_t last = base.find_last_of('_');
  if (last != std::string::npos && last + 1 < base.size() &&
      base.find_first_not_of("0123456789", last + 1) == std::string::npos) {
    base.erase(last);  // "SetGlobalStep_1" -> "SetGlobalStep"
  }
  auto squash = [](const std::string& text) {
    std::string out;
    for (const char c : text) {
      if (c != '_') out += static_cast<char>(std::tolower(c));
    }
    return out;
  };
  if (!op.empty() && squash(op).find(squash(base)) == std::string::npos) {
    name += "\\n" + op;
  }
  return name;
}

std::string Task(const std::string& device) {
  const size_t task = device.find("/task:");
  const size_t end = device.find('/', task + 1);
  return device.substr(0, end);
}

// --8<-- [start:dot]
std::string GroupsToDot(const tf::Graph& graph) {
  std::map<std::string, std::string> task_of;  // group -> its ops' task
  std::map<std::string, std::string> op_of;    // group -> op type, if one op
  std::vector<std::string> order;
  std::set<std::pair<std::string, std::string>> data, control;
  for (const tf::Node* n : graph.nodes()) {
    const std::string group = Group(*n);
    if (group.empty()) continue;
    if (task_of.find(group) == task_of.end()) {
      order.push_back(group);
      task_of[group] = Task(n->requested_device());
      op_of[group] = n->type_string();
    } else if (op_of[group] != n->type_string()) {
      op_of[group] = "";
    }
    for (const tf::Output& in : n->inputs()) {
      const std::string from = Group(*in.node());
      if (!from.empty() && from != group) data.insert({from, group});
    }
    for (const tf::Node* in : n->control_inputs()) {
      const std::string from = Group(*in);
      if (!from.empty() && from != group) control.insert({from, group});
    }
  }
  // One cluster per task, labelled with it, its boxes in its colour. Top to
  // bottom, with short labels, the picture is about as wide as a page, so
  // that it reads there (about 700 px in a 1280 px window).
  std::vector<std::string> tasks;
  for (const std::string& group : order) {
    if (std::find(tasks.begin(), tasks.end(), task_of[group]) == tasks.end()) {
      tasks.push_back(task_of[group]);
    }
  }
  std::string out =
      "digraph \"sync_replicas\" {\n"
      "  rankdir=TB; nodesep=0.18; ranksep=0.3; newrank=true;\n"
      "  fontname=\"Helvetica\"; fontsize=14; labelloc=b;\n"
      "  label=\"Names shown without mnist_sync/ and sync_token_q_. Solid "
      "edges: data; dashed: control.\";\n"
      "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", "
      "fontsize=14, margin=\"0.08,0.04\"];\n"
      "  edge [arrowsize=0.7];\n";
  for (size_t i = 0; i < tasks.size(); ++i) {
    out += "  subgraph \"cluster_" + std::to_string(i) + "\" {\n    label=\"" +
           tasks[i] + "\"; labelloc=t; style=rounded; color=\"#888888\";\n";
    for (const std::string& group : order) {
      if (task_of[group] != tasks[i]) continue;
      out += "    \"" + group + "\" [label=\"" + Label(group, op_of[group]) +
             "\", fillcolor=\"" + tf::DotDeviceColor(i) + "\"];\n";
    }
    out += "  }\n";
  }
  for (const auto& [from, to] : data) {
    out += "  \"" + from + "\" -> \"" + to + "\";\n";
  }
  for (const auto& [from, to] : control) {
    out += "  \"" + from + "\" -> \"" + to + "\" [style=dashed];\n";
  }
  return out + "}\n";
}
// --8<-- [end:dot]

}  // namespace

int main(int argc, char** argv) try {
  const std::string folder =
      argc > 1
          ? argv[1]
          : (std::filesystem::temp_directory_path() / "minitf-sync").string();
  std::filesystem::create_directories(folder);

  // Seed 003's model, as worker 0 builds it (seed_distributed.cc).
  tf::train::ClusterSpec cluster(
      {{"ps", {"localhost:2222"}},
       {"worker", {"localhost:2223", "localhost:2224"}}});
  tf::device_scope replicas(tf::train::replica_device_setter(
      {.worker_device = "/job:worker/task:0", .cluster = cluster}));
  auto global_step =
      tf::Variable(tf::Tensor(int64_t{0}), "global_step", /*trainable=*/false);
  auto W = tf::Variable(tf::zeros({784, 10}), "W");
  auto b = tf::Variable(tf::zeros({10}), "b");
  auto x = tf::placeholder(tf::float32, {tf::None, 784});
  auto y_ = tf::placeholder(tf::float32, {tf::None, 10});
  auto y = tf::nn::softmax(tf::matmul(x, W) + b);
  auto cross_entropy = tf::reduce_mean(
      -tf::reduce_sum(y_ * tf::log(y), /*reduction_indices=*/{1}));
  tf::train::GradientDescentOptimizer gd(0.1);
  tf::train::SyncReplicasOptimizer opt(gd, 2, 2, "mnist_sync");
  opt.minimize(cross_entropy, &global_step);
  opt.get_init_tokens_op();

  const std::string path = folder + "/sync_replicas.dot";
  std::ofstream(path) << GroupsToDot(*tf::get_default_graph());
  std::printf("wrote %s\n", path.c_str());
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "%s\n", e.what());
  return 1;
}
