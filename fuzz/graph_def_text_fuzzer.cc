// GraphDef import, text form: the graph.pbtxt of tf.train.write_graph
// (as_text=True). Parses the text and imports it into an empty graph.
#include "fuzzing.h"
#include "minitf/graph/graph.h"
#include "minitf/graph/graph_def.h"

namespace tf = minitf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tf::StatusOr<tf::GraphDef> def =
      tf::ParseTextGraphDef(tf::fuzzing::Bytes(data, size));
  if (!def.ok()) return 0;
  tf::Graph graph;
  if (tf::ImportGraphDef(*def, &graph).ok()) (void)tf::ToGraphDef(graph);
  return 0;
}
