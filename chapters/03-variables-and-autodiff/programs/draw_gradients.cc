// The chapter's picture of autodiff: seed 000's model, y = w * x + b with a
// mean squared loss, and the gradient ops tf::gradients adds to the same
// graph for d loss / d w and d loss / d b. The backward pass sits in the
// name scope "gradients", one box per forward op it differentiates, so the
// drawing shows each forward op beside the ops that run it backwards.
// Prints the DOT; with a folder argument it writes gradients_graph.dot there
// for the docs build to render with Graphviz.
//   draw_gradients [<folder>]
#include <minitf/minitf.h>

#include <filesystem>
#include <iostream>
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

  const tf::Graph& graph = *tf::get_default_graph();
  if (argc < 2) {
    std::cout << tf::ToDot(graph) << "\n";
    return 0;
  }
  std::filesystem::create_directories(argv[1]);
  const std::string path = std::string(argv[1]) + "/gradients_graph.dot";
  tf::errors::ThrowIfError(tf::WriteDot(graph, path));
  std::cout << "wrote " << path << "\n";
  return 0;
}
