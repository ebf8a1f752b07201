// kMaxTensorProtoBytes (proto_convert.h), alone in its file: this file is
// the layer's default, in an archive of its own (minitf_graph_defaults), and
// a program that defines the constant itself keeps its own value; the
// fuzzers do (fuzz/fuzzing_limits.cc). Nothing else may go in this file: a
// reference to anything else here would pull the default in beside the
// program's value.
#include "minitf/graph/proto_convert.h"

namespace minitf {

const int64_t kMaxTensorProtoBytes = int64_t{2} << 30;

}  // namespace minitf
