// DOT export: a picture of a graph.
//
// Graphviz draws a graph from a short text in its DOT language: nodes,
// edges, and boxes ("clusters") around groups of nodes. ToDot writes a Graph
// that way, so that `dot -Tsvg` shows what a program built: one node per
// operation labelled with its name and op type, constants as boxes and
// placeholders as input arrows, each edge labelled with the shape of the
// tensor on it (2×3), control edges dashed, every name scope (tower_0/...)
// as a box, and, on request, each device in its own colour. The course's
// pictures of graphs and of device placement are drawn this way.
//
//   std::string dot = tf::ToDot(graph);
//   // digraph minitf { ... "a" -> "MatMul" [label="2×3"]; ... }
//   TF_RETURN_IF_ERROR(tf::WriteDot(graph, "graph.dot",
//                                   {.color_by_device = true}));
//   // then: dot -Tsvg graph.dot -o graph.svg
#pragma once

#include <cstddef>
#include <string>

#include "minitf/graph/graph.h"
#include "minitf/tensor/status.h"

namespace minitf {

/// What to draw. The defaults give the plain dataflow picture.
struct DotOptions {
  /// What a data edge says about its tensor.
  enum class EdgeLabel {
    kShape,  ///< "2×3", "?×784", "scalar"; the dtype when the rank is unknown.
    kDType,  ///< "float32".
    kNone,
  };
  EdgeLabel edge_label = EdgeLabel::kShape;
  /// Draws each name scope as a cluster around its nodes, nested as the
  /// scopes are; a node inside one is labelled with its name in the scope.
  bool cluster_scopes = true;
  /// Fills each node with a colour per device (the assigned device once a
  /// placer has run, else the requested one) and adds a legend.
  bool color_by_device = false;
  /// With color_by_device: also writes each node's device under its name.
  /// Without it the colour and the legend alone say where a node is, which
  /// keeps nodes narrow when device names are long
  /// ("/job:localhost/replica:0/task:0/device:GPU:0").
  bool label_devices = true;
  /// The name after `digraph`.
  std::string graph_name = "minitf";
};

/// The graph in DOT. Deterministic: the same graph and options always give
/// the same text (nodes in the order added, scopes in order of first use,
/// device colours in order of first use).
std::string ToDot(const Graph& graph, const DotOptions& options = {});

/// Writes ToDot's text to `path`; Unknown, naming the path, when it cannot.
Status WriteDot(const Graph& graph, const std::string& path,
                const DotOptions& options = {});

/// The fill colour ToDot gives the device it meets `index`-th (from 0) under
/// color_by_device: "#a6cee3", "#b2df8a", ...; after the tenth the colours
/// repeat. Pictures drawn beside ToDot's (a graph's partitions, a timeline)
/// take their colours from here, so that a device looks the same in all.
std::string DotDeviceColor(size_t index);

}  // namespace minitf
