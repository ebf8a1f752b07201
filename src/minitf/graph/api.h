// The public API of layer 2 (graph and session), as included by
// <minitf/minitf.h>.
//
// Graphs of operations and the functions that build them under TensorFlow's
// names, scopes, collections, the op and kernel registries, sessions, and
// GraphDef and DOT export.
//
//   #include <minitf/minitf.h>
//   namespace tf = minitf;
//   auto c = tf::matmul(tf::constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {2, 3}),
//                       tf::constant({1.f, 2.f, 3.f, 4.f, 5.f, 6.f}, {3, 2}));
//   tf::Session sess;
//   std::cout << sess.run(c);   // [[22. 28.]\n [49. 64.]]
#pragma once

#include "minitf/graph/attr_value.h"
#include "minitf/graph/config.h"
#include "minitf/graph/dot.h"
#include "minitf/graph/graph.h"
#include "minitf/graph/graph_def.h"
#include "minitf/graph/kernel.h"
#include "minitf/graph/local_session.h"
#include "minitf/graph/node_builder.h"
#include "minitf/graph/op_def.h"
#include "minitf/graph/ops/array_ops.h"
#include "minitf/graph/ops/math_ops.h"
#include "minitf/graph/ops/nn_ops.h"
#include "minitf/graph/ops/random_ops.h"
#include "minitf/graph/proto_convert.h"
#include "minitf/graph/resource_mgr.h"
#include "minitf/graph/run_metadata.h"
#include "minitf/graph/scope.h"
#include "minitf/graph/session.h"
#include "minitf/graph/shape_inference.h"
