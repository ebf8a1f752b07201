// The chapter's picture of autodiff: seed 000's model, y = w * x + b with a
// mean squared loss, and the gradient ops tf::gradients adds to the same
// graph for d loss / d w and d loss / d b. The backward pass sits in the
// name scope "gradients", one box per forward op it differentiates, so the
// drawing shows each forward op beside the ops that run it backwards.
// Prints the DOT; with a folder argument it writes gradients_graph.dot there
// for the docs build to render with Graphviz.
//   draw_gradients [<folder>]
#include <minitf/minitf.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>

namespace tf = minitf;

int main(int argc, char** argv) {
  // --8<-- [start:model]
  auto w = tf::Variable(0.0f, "weight");
  auto b = tf::Variable(0.0f, "bias");
  auto x = tf::placeholder(tf::float32, {tf::None}, "x");
  auto out = tf::placeholder(tf::float32, {tf::None}, "out");
  auto y = w * x + b;
  auto loss = tf::reduce_mean(tf::square(y - out));
  auto grads = tf::gradients({loss}, {w, b});  // [d loss/d w, d loss/d b]
  // --8<-- [end:model]
  std::cout << "d loss/d weight is " << grads[0] << "\n"
            << "d loss/d bias is " << grads[1] << "\n";

  // The picture is read at a page's width (about 700 px in a 1280 px
  // window), so it leaves out what the loss does not use, the variables'
  // initializers (<variable>/initial_value and /Assign), draws no shapes on
  // the edges, and packs the nodes closer than Graphviz's defaults.
  const tf::Graph& graph = *tf::get_default_graph();
  std::set<std::string> left_out;  // quoted, as the DOT names them
  for (const tf::Node* n : graph.nodes()) {
    const std::string& name = n->name();
    if (!name.starts_with("gradients/") &&
        (name.ends_with("/initial_value") || name.ends_with("/Assign"))) {
      left_out.insert("\"" + name + "\"");
    }
  }
  std::string dot;
  std::istringstream lines(
      tf::ToDot(graph, {.edge_label = tf::DotOptions::EdgeLabel::kNone}));
  for (std::string line; std::getline(lines, line);) {
    if (std::none_of(left_out.begin(), left_out.end(),
                     [&](const std::string& quoted) {
                       return line.find(quoted) != std::string::npos;
                     })) {
      dot += line + "\n";
    }
  }
  // After ToDot's own node and edge defaults, which these override.
  size_t defaults = dot.find("  edge [");
  defaults = dot.find('\n', defaults) + 1;
  dot.insert(defaults, "  nodesep=0.12; ranksep=0.3;\n  edge [fontsize=14];\n");
  if (argc < 2) {
    std::cout << dot << "\n";
    return 0;
  }
  std::filesystem::create_directories(argv[1]);
  const std::string path = std::string(argv[1]) + "/gradients_graph.dot";
  std::ofstream file(path);
  file << dot;
  if (!file) {
    std::cerr << "draw_gradients: cannot write " << path << "\n";
    return 1;
  }
  std::cout << "wrote " << path << "\n";
  return 0;
}
