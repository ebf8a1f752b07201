// GraphDef import, binary form: what tf.train.import_meta_graph's graph and
// a master's CreateSession read. Parses the bytes, imports them into an
// empty graph (as a client's and as a worker's graph), and writes the
// imported graph back out.
#include "fuzzing.h"
#include "minitf/graph/graph.h"
#include "minitf/graph/graph_def.h"

namespace tf = minitf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tf::StatusOr<tf::GraphDef> def =
      tf::ParseGraphDef(tf::fuzzing::Bytes(data, size));
  if (!def.ok()) return 0;
  tf::Graph graph;
  if (!tf::ImportGraphDef(*def, &graph, "import").ok()) return 0;
  tf::Graph runtime;
  (void)tf::ImportGraphDef(
      *def, &runtime,
      {.allow_internal_names = true, .drop_newer_default_attrs = true});
  (void)tf::ToGraphDef(graph);
  return 0;
}
