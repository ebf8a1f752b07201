// GraphDef: a Graph as a protocol buffer, to save, send and load.
//
// A Graph is pointers in one process's memory. Its GraphDef is the same
// graph as data: one NodeDef per node with its op, attrs, device and inputs
// named as strings ("a" for output 0 of a, "a:1" for output 1, "^init" for a
// control edge, control edges last). TensorFlow writes this message to
// graph.pbtxt for TensorBoard, embeds it in checkpoints' meta graphs, and
// sends it from a client to the master in distributed TensorFlow (chapter 7).
// minitf's proto (proto/graph.proto) numbers its fields as TensorFlow's does,
// so the bytes are interchangeable for the ops both have.
//
// Importing is not copying: each NodeDef goes back through NodeBuilder, so
// its op is checked against the registry, its inputs' types against the op,
// and its shapes are inferred again, in an order where inputs come first.
//
//   tf::GraphDef gd = tf::as_graph_def(graph);    // graph.as_graph_def()
//   tf::train::write_graph(gd, "/tmp/logs", "graph.pbtxt");
//   tf::Graph copy;
//   { tf::graph_scope use(copy); tf::import_graph_def(gd); }  // "import/a"
//   copy.GetTensorByName("import/MatMul:0");
#pragma once

#include <string>
#include <string_view>

#include "minitf/graph/graph.h"
#include "minitf/graph/proto/graph.pb.h"
#include "minitf/tensor/status.h"

namespace minitf {

/// tf.GraphDef and tf.NodeDef: the generated message classes.
using GraphDef = proto::GraphDef;
using NodeDef = proto::NodeDef;

/// The producer version written into versions.producer: the GraphDef version
/// of TensorFlow 1.x releases of early 2018, the era of the course's seed
/// programs. minitf reads a GraphDef of any producer whose min_consumer
/// allows this version.
inline constexpr int kGraphDefVersion = 26;

// --- Graph <-> GraphDef -----------------------------------------------------

/// Writes every node of `graph`, in the order added (inputs first), with
/// inputs spelled "a", "a:1", "^ctrl" (data inputs, then control inputs),
/// the requested device, and every attr including annotations such as
/// _class. Tensor attrs use tensor_content. `*out` is cleared first.
Status ToGraphDef(const Graph& graph, GraphDef* out);
StatusOr<GraphDef> ToGraphDef(const Graph& graph);

/// Adds the nodes of `graph_def` to `graph`, each named `prefix` + its name.
/// A non-empty prefix gets a '/' appended when it lacks one, so "import"
/// names node "a" "import/a" (TensorFlow's C++ ImportGraphDef does the
/// same; tf::import_graph_def below picks the prefix as Python does).
///
/// Each node is rebuilt through NodeBuilder in a topological order (the
/// GraphDef may list nodes in any order), so ops, input types, attrs and
/// shapes are checked as when the graph was first built, and the graph's
/// device and control-dependency scopes apply as to any new node. Inputs
/// refer to nodes of `graph_def` only.
///
/// All-or-nothing: on error, and when a device function throws (the
/// exception passes through), `graph` is left with exactly the nodes and
/// unique-name counters it had: a GraphSavepoint undoes the nodes already
/// added. TensorFlow's importer undoes its nodes on an error too, but keeps
/// them when a Python device function raises. A wrong kind of attr value
/// for the op ("AttrValue had value with type 'bool' when 'type' expected
/// for attr 'T'") is one of the errors. Errors are InvalidArgument naming the
/// node, with TensorFlow's wording where it has one: "Node 'c': Unknown input
/// node 'x'", "Input 0 of node c was passed float from a:0 incompatible with
/// expected int32.", "Graph is invalid, contains a cycle with 2 nodes,
/// including: a, b", "Node 'a' is not unique"; NotFound for an op the
/// registry lacks; FailedPrecondition for a finalized graph.
Status ImportGraphDef(const GraphDef& graph_def, Graph* graph,
                      const std::string& prefix = "");

/// What ImportGraphDef may do beyond the plain import; the runtime's, for
/// graphs that travel between processes (chapter 7).
struct ImportGraphDefOptions {
  /// As ImportGraphDef's `prefix`.
  std::string prefix = "";
  /// Also accept names that start with '_', which only the runtime gives
  /// its nodes ("_send_y_0", "_recv_x_0"): a worker imports graphs that a
  /// master has rewritten and cut (TensorFlow's allow_internal_ops).
  bool allow_internal_names = false;
  /// Let an input name a node `graph` already has: a master grows the
  /// client's graph with the nodes ExtendSession sends, which read earlier
  /// ones.
  bool inputs_from_graph = false;
  /// Drop an attr the op does not define when its value is its kind's zero
  /// (false, 0, 0.0, ""): a graph from a newer TensorFlow carries the attrs
  /// its ops gained since (TensorFlow 2's MatMul has grad_a and grad_b),
  /// and an added attr always has a default, which for these is the zero
  /// value. Any other unknown attr is still refused.
  bool drop_newer_default_attrs = false;
};
/// ImportGraphDef with options.
Status ImportGraphDef(const GraphDef& graph_def, Graph* graph,
                      const ImportGraphDefOptions& options);

// --- Bytes and files --------------------------------------------------------

/// The binary wire form, deterministic (map entries sorted by key), so the
/// same graph always gives the same bytes. Internal error above 2 GiB.
StatusOr<std::string> SerializeGraphDef(const GraphDef& graph_def);
/// The text form of tf.train.write_graph(as_text=True) (graph.pbtxt).
std::string GraphDefToText(const GraphDef& graph_def);

/// Parses the binary form. Bytes that are not a GraphDef (truncated,
/// garbage) are DataLoss "Failed to parse GraphDef: ...", never a crash.
StatusOr<GraphDef> ParseGraphDef(std::string_view bytes);
/// Parses the text form; InvalidArgument with the line and column of the
/// first error.
StatusOr<GraphDef> ParseTextGraphDef(std::string_view text);

/// Writes the binary form, or the text form when `as_text`. File errors are
/// NotFound or PermissionDenied for a missing or locked directory, else
/// Unknown, each naming the path.
Status WriteGraphDef(const GraphDef& graph_def, const std::string& path,
                     bool as_text = false);
Status WriteGraphDef(const Graph& graph, const std::string& path,
                     bool as_text = false);
/// Reads a file WriteGraphDef wrote: the text form when the name ends in
/// ".pbtxt" or ".txt" (the names tf.train.write_graph is given), else the
/// binary form.
StatusOr<GraphDef> ReadGraphDef(const std::string& path);

// --- The user-facing API: throws errors::OpError subclasses
// --------------------

/// graph.as_graph_def().
GraphDef as_graph_def(const Graph& graph);

/// tf.import_graph_def(graph_def, name=name) into the default graph. The
/// nodes go under the name scope `name` made unique as name_scope does
/// ("import/a", then "import_1/a" for a second import), inside the current
/// scope; name "" imports the names unchanged. When it throws, the graph
/// has the nodes it had (ImportGraphDef), but, as in TensorFlow, the scope
/// name stays taken: the next import goes under "import_1".
void import_graph_def(const GraphDef& graph_def,
                      const std::string& name = "import");

namespace train {
/// tf.train.write_graph(graph, logdir, name, as_text): writes
/// logdir/name, creating logdir, and returns that path.
std::string write_graph(const GraphDef& graph_def, const std::string& logdir,
                        const std::string& name, bool as_text = true);
std::string write_graph(const Graph& graph, const std::string& logdir,
                        const std::string& name, bool as_text = true);
}  // namespace train

}  // namespace minitf
