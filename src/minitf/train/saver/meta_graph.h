// MetaGraphDef: a graph with what a program knows about it, in PREFIX.meta.
//
// A checkpoint holds values by name; without the graph they belong to, a
// reader cannot use them. Each Saver.save therefore writes, beside the
// checkpoint, the graph as TensorFlow's MetaGraphDef (proto/meta_graph.proto):
// the GraphDef, the collections that name nodes (the variables as
// VariableDefs, train_op, summaries, and any collection of Outputs or
// Operations a program made), and a SaverDef saying which op restores and
// which tensor takes the checkpoint's name.
//
// minitf's Saver feeds the restored values from C++; TensorFlow's runs a
// RestoreV2 op that reads the files itself. So that TensorFlow can restore
// through a minitf meta graph, the exported graph carries TensorFlow's save
// and restore ops in place of minitf's, under the saver's name scope; minitf
// drops that scope again when it imports and builds its own Saver, exactly as
// it does for a meta graph TensorFlow wrote.
//
//   saver.save(sess, "/tmp/run/model.ckpt");     // also model.ckpt.meta
//   tf::Graph g;
//   tf::graph_scope use(g);
//   auto saver = tf::train::import_meta_graph("/tmp/run/model.ckpt.meta");
//   saver->restore(sess, "/tmp/run/model.ckpt");
#pragma once

#include <memory>
#include <string>

#include "minitf/graph/graph.h"
#include "minitf/tensor/status.h"
#include "minitf/train/proto/meta_graph.pb.h"

namespace minitf::train {

class Saver;

using MetaGraphDef = proto::MetaGraphDef;
using SaverDef = proto::SaverDef;
using CollectionDef = proto::CollectionDef;

/// tf.train.export_meta_graph: `graph` with its collections and, when
/// `saver` is given, that saver's SaverDef and TensorFlow's save and restore
/// ops in place of its own. A collection is written when every item in it is
/// a Variable (bytes_list of VariableDefs), an Output (node_list of tensor
/// names, "loss:0") or an Operation (node_list of op names); any other
/// collection is left out, as TensorFlow leaves out what it cannot
/// serialize.
StatusOr<MetaGraphDef> ExportMetaGraph(const Graph& graph, const Saver* saver);

/// Parses PREFIX.meta. NotFound naming a missing file; DataLoss naming a
/// file that is not a MetaGraphDef.
StatusOr<MetaGraphDef> ReadMetaGraph(const std::string& path);

/// Imports `meta_graph` into `graph` (nodes under `import_scope`, "" for
/// their own names) without the nodes of its saver (the name scope of
/// saver_def.restore_op_name), and restores its collections: Variables from
/// VariableDefs, Outputs from tensor names, Operations from op names.
/// Errors name `source` (the file): NotFound for an op minitf lacks,
/// InvalidArgument for a collection naming a node the graph lacks, and
/// ImportGraphDef's errors. All-or-nothing for the nodes.
Status ImportMetaGraph(const MetaGraphDef& meta_graph,
                       const std::string& source, Graph* graph,
                       const std::string& import_scope = "");

/// tf.train.import_meta_graph(path): ReadMetaGraph and ImportMetaGraph into
/// the default graph, then a Saver over the imported global variables
/// (nullptr when there are none, TensorFlow's None). Throws the errors above
/// as typed errors.
std::shared_ptr<Saver> import_meta_graph(const std::string& path,
                                         const std::string& import_scope = "");
std::shared_ptr<Saver> import_meta_graph(const MetaGraphDef& meta_graph,
                                         const std::string& import_scope = "");

}  // namespace minitf::train
